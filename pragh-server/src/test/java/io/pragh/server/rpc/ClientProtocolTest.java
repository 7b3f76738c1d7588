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
        assertTrue(check(new byte[] {ClientProtocol.GET, 1, 2}, 100).contains("GET of 3 bytes (expected 9)"));
        assertTrue(check(new byte[] {ClientProtocol.PUT, 1}, 100).contains("needs a key"));
        byte[] big = new byte[9 + 101];
        big[0] = ClientProtocol.PUT;
        assertTrue(check(big, 100).contains("exceeds the 100-byte limit"));
        assertTrue(check(kHop(70_000, 2, 10), 100).contains("label 70000"));
        assertTrue(check(kHop(-1, 2, 10), 100).contains("label -1"));
        assertTrue(check(kHop(0, 9, 10), 100).contains("9 hops"));
        assertTrue(check(kHop(0, 2, 0), 100).contains("fanout 0"));
    }
}
