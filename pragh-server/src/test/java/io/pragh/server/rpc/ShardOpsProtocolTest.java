package io.pragh.server.rpc;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/** The shard ops' requests are checked on the wire like every other op: malformed ones are named, others pass. */
class ShardOpsProtocolTest {
    private static String check(byte[] req, int maxValue) {
        return ClientProtocol.check(new UnsafeBuffer(req), 0, req.length, maxValue);
    }

    private static byte[] export(int shard, long cursor, int max) {
        UnsafeBuffer u = new UnsafeBuffer(new byte[17]);
        u.putByte(0, ClientProtocol.SHARD_EXPORT);
        u.putInt(1, shard);
        u.putLong(5, cursor);
        u.putInt(13, max);
        return u.byteArray();
    }

    /** SHARD_IMPORT of one record with a value of {@code announced} bytes of which {@code present} are there. */
    private static byte[] importOne(int announced, int present) {
        UnsafeBuffer u = new UnsafeBuffer(new byte[1 + 4 + 20 + present]);
        u.putByte(0, ClientProtocol.SHARD_IMPORT);
        u.putInt(1, 1);
        u.putLong(5, 42);
        u.putLong(13, 7);
        u.putInt(21, announced);
        return u.byteArray();
    }

    @Test
    void wellFormedShardRequestsPass() {
        assertNull(check(new byte[] {ClientProtocol.SHARD_TRACK, 1}, 100));
        assertNull(check(new byte[] {ClientProtocol.SHARD_TRACK, 0}, 100));
        assertNull(check(new byte[] {ClientProtocol.SHARD_COUNTS}, 100));
        assertNull(check(export(3, 0, 4096), 100));
        assertNull(check(importOne(10, 10), 100));
        assertNull(check(new byte[] {ClientProtocol.SHARD_IMPORT, 0, 0, 0, 0}, 100), "an empty batch is a batch");
        byte[] assign = new byte[17];
        assign[0] = ClientProtocol.SHARD_ASSIGN;
        assertNull(check(assign, 100), "two pairs");
        assertNull(check(new byte[] {ClientProtocol.SHARD_UNLOAD, 0, 0, 0, 1}, 100));
    }

    @Test
    void malformedShardRequestsNameTheirFault() {
        assertTrue(check(new byte[] {ClientProtocol.SHARD_TRACK, 2}, 100).contains("SHARD_TRACK with flag 2"));
        assertTrue(check(new byte[] {ClientProtocol.SHARD_TRACK}, 100).contains("SHARD_TRACK of 1 bytes"));
        assertTrue(check(new byte[] {ClientProtocol.SHARD_COUNTS, 0}, 100).contains("SHARD_COUNTS of 2 bytes"));
        assertTrue(check(export(3, -5, 4096), 100).contains("cursor -5"));
        assertTrue(check(export(3, 0, 0), 100).contains("0 bytes per page"));
        assertTrue(check(new byte[] {ClientProtocol.SHARD_UNLOAD, 0}, 100).contains("SHARD_UNLOAD of 2 bytes"));
        assertTrue(check(new byte[] {ClientProtocol.SHARD_ASSIGN}, 100).contains("at least one pair"));
        assertTrue(check(new byte[12], 100).contains("unknown operation 0"));
        byte[] odd = new byte[12];
        odd[0] = ClientProtocol.SHARD_ASSIGN;
        assertTrue(check(odd, 100).contains("SHARD_ASSIGN of 12 bytes"));
        assertTrue(check(new byte[] {ClientProtocol.SHARD_IMPORT, 1}, 100).contains("SHARD_IMPORT: a record batch of 1"));
        assertTrue(check(importOne(10, 9), 100).contains("cut short"));
        assertTrue(check(importOne(101, 101), 100).contains("value of 101 bytes (0..100)"));
        assertTrue(check(importOne(-1, 0), 100).contains("value of -1 bytes"));
        assertTrue(check(importOne(10, 12), 100).contains("2 bytes after the last of 1 records"));
    }
}
