package io.pragh.server.rpc;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/** Every malformed request is refused with a reason that names what is wrong; well-formed ones pass. */
class ClientProtocolTest {
    private static String check(byte[] req, int maxValue) {
        return ClientProtocol.check(new UnsafeBuffer(req), 0, req.length, maxValue);
    }

    private static byte[] kHop(int label, int hops, int fanout) {
        byte[] b = new byte[21];
        UnsafeBuffer u = new UnsafeBuffer(b);
        u.putByte(0, ClientProtocol.K_HOP);
        u.putLong(1, 5);
        u.putInt(9, label);
        u.putInt(13, hops);
        u.putInt(17, fanout);
        return b;
    }

    @Test
    void wellFormedRequestsPass() {
        assertNull(check(new byte[] {ClientProtocol.PING}, 100));
        byte[] put = new byte[9 + 100];
        put[0] = ClientProtocol.PUT;
        assertNull(check(put, 100));
        byte[] get = new byte[9];
        get[0] = ClientProtocol.GET;
        assertNull(check(get, 100));
        assertNull(check(kHop(3, 2, 10), 100));
    }

    @Test
    void malformedRequestsNameTheirFault() {
        assertTrue(check(new byte[0], 100).contains("empty"));
        assertTrue(check(new byte[] {99}, 100).contains("unknown operation 99"));
        for (byte gone : new byte[] {9, 10, 15, 16, 17, 18, 19, 20}) {
            assertTrue(check(new byte[] {gone, 0, 0, 0, 1}, 100).contains("unknown operation " + gone),
                "the benchmark's former op " + gone + " is none of the protocol's own");
        }
        assertTrue(check(new byte[] {ClientProtocol.GET, 1, 2}, 100).contains("GET of 3 bytes (expected 9)"));
        assertTrue(check(new byte[] {ClientProtocol.PUT, 1}, 100).contains("needs a key"));
        byte[] big = new byte[9 + 101];
        big[0] = ClientProtocol.PUT;
        assertTrue(check(big, 100).contains("exceeds the 100-byte limit"));
        assertTrue(check(kHop(70_000, 2, 10), 100).contains("label 70000"));
        assertTrue(check(kHop(-1, 2, 10), 100).contains("label -1"));
        assertTrue(check(kHop(0, 9, 10), 100).contains("9 hops"));
        assertTrue(check(kHop(0, 2, 0), 100).contains("fanout 0"));
        assertTrue(check(batch(ClientProtocol.HOSTS, 0, 8), 100).contains("HOSTS of 0 keys (1..8192)"));
        assertTrue(check(batch(ClientProtocol.HOSTS, 3, 16), 100).contains("HOSTS of 3 keys in 21 bytes (expected 29)"));
        assertTrue(check(batch(ClientProtocol.PLACE, 2, 16), 100).contains("PLACE of 2 keys in 21 bytes (expected 29)"));
        assertTrue(check(new byte[] {ClientProtocol.PLACE, 1}, 100).contains("needs a count"));
    }

    @Test
    void batchesOfKeysNeedOneEntryPerKey() {
        assertNull(check(batch(ClientProtocol.HOSTS, 3, 24), 100));
        assertNull(check(batch(ClientProtocol.PLACE, 2, 24), 100));
    }

    /** A HOSTS or PLACE request saying {@code count} keys, with {@code bytes} of entries after the count. */
    private static byte[] batch(byte op, int count, int bytes) {
        UnsafeBuffer u = new UnsafeBuffer(new byte[5 + bytes]);
        u.putByte(0, op);
        u.putInt(1, count);
        return u.byteArray();
    }

    private static byte[] decide(long timeoutMillis) {
        UnsafeBuffer u = new UnsafeBuffer(new byte[9]);
        u.putByte(0, ClientProtocol.DECIDE);
        u.putLong(1, timeoutMillis);
        return u.byteArray();
    }

    @Test
    void thePolicysOperationsPassWhenWellFormed() {
        assertNull(check(new byte[] {ClientProtocol.STATS}, 100));
        assertNull(check(new byte[] {ClientProtocol.MONITOR_START}, 100));
        assertNull(check(new byte[] {ClientProtocol.END_INTERVAL}, 100));
        assertNull(check(decide(0), 100));
        assertNull(check(decide(ClientProtocol.MAX_DECIDE_MILLIS), 100));
    }

    @Test
    void malformedPolicyOperationsNameTheirFault() {
        assertTrue(check(new byte[] {ClientProtocol.STATS, 0}, 100).contains("STATS of 2 bytes (expected 1)"));
        assertTrue(check(new byte[] {ClientProtocol.MONITOR_START, 0}, 100)
            .contains("MONITOR_START of 2 bytes (expected 1)"));
        assertTrue(check(new byte[] {ClientProtocol.END_INTERVAL, 0, 0}, 100)
            .contains("END_INTERVAL of 3 bytes (expected 1)"));
        assertTrue(check(decide(-1), 100).contains("DECIDE with timeout -1 ms"));
        assertTrue(check(decide(ClientProtocol.MAX_DECIDE_MILLIS + 1), 100).contains("DECIDE with timeout"));
        assertTrue(check(new byte[] {ClientProtocol.DECIDE}, 100).contains("DECIDE of 1 bytes (expected 9)"));
    }

    @Test
    void machineStatsSurviveTheirEncoding() {
        MachineStats s = new MachineStats(2, new io.pragh.fabric.FabricStats.Snapshot(1, 2, 3, 4, 5, 6, 7, 8, 9), 10,
            11, 12, 13, 14, 15, true, new io.pragh.store.Replicas.Counts(16, 17, 18, 19, 20, 21, 22, 23, 24, 25));
        UnsafeBuffer u = new UnsafeBuffer(new byte[MachineStats.BYTES + 3]);
        s.encode(u, 3);
        org.junit.jupiter.api.Assertions.assertEquals(s, MachineStats.decode(u, 3));
        MachineStats off = new MachineStats(0, io.pragh.fabric.FabricStats.Snapshot.ZERO, 0, 0, 0, 0, 0, 0, false,
            io.pragh.store.Replicas.Counts.ZERO);
        off.encode(u, 0);
        org.junit.jupiter.api.Assertions.assertEquals(off, MachineStats.decode(u, 0));
    }
}
