package io.pragh.bench.extension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.server.rpc.ClientProtocol;
import java.util.Arrays;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/** The bench extension's requests are checked like the protocol's own: malformed ones are named, others pass. */
class BenchProtocolTest {
    private static String check(byte[] req, int maxValue) {
        return BenchProtocol.check(new UnsafeBuffer(req), req.length, maxValue);
    }

    private static byte[] export(int shard, long cursor, int max) {
        UnsafeBuffer u = new UnsafeBuffer(new byte[17]);
        u.putByte(0, BenchProtocol.SHARD_EXPORT);
        u.putInt(1, shard);
        u.putLong(5, cursor);
        u.putInt(13, max);
        return u.byteArray();
    }

    /** SHARD_IMPORT of one record with a value of {@code announced} bytes of which {@code present} are there. */
    private static byte[] importOne(int announced, int present) {
        UnsafeBuffer u = new UnsafeBuffer(new byte[1 + 4 + 20 + present]);
        u.putByte(0, BenchProtocol.SHARD_IMPORT);
        u.putInt(1, 1);
        u.putLong(5, 42);
        u.putLong(13, 7);
        u.putInt(21, announced);
        return u.byteArray();
    }

    private static byte[] cappedEdge(int label, int cap) {
        UnsafeBuffer u = new UnsafeBuffer(new byte[25]);
        u.putByte(0, BenchProtocol.ADD_EDGE_CAPPED);
        u.putLong(1, 5);
        u.putInt(9, label);
        u.putLong(13, 6);
        u.putInt(21, cap);
        return u.byteArray();
    }

    private static byte[] kHopCount(int label, int hops, int fanout, int batched) {
        UnsafeBuffer u = new UnsafeBuffer(new byte[22]);
        u.putByte(0, BenchProtocol.K_HOP_COUNT);
        u.putLong(1, 5);
        u.putInt(9, label);
        u.putInt(13, hops);
        u.putInt(17, fanout);
        u.putByte(21, (byte) batched);
        return u.byteArray();
    }

    @Test
    void everyCodeIsAnExtensionsCodeWithAName() {
        byte[] codes = BenchProtocol.codes();
        assertEquals(8, codes.length);
        for (byte op : codes) {
            assertTrue(ClientProtocol.isExtension(op), "code " + op);
            assertTrue(BenchProtocol.name(op).matches("[A-Z_]+"), BenchProtocol.name(op));
        }
        assertEquals(codes.length, new BenchExtension().operations().size());
    }

    @Test
    void wellFormedRequestsPass() {
        assertNull(check(cappedEdge(3, 1), 100));
        assertNull(check(kHopCount(3, 2, 10, 0), 100));
        assertNull(check(kHopCount(3, 2, 10, 1), 100));
        assertNull(check(new byte[] {BenchProtocol.SHARD_TRACK, 1}, 100));
        assertNull(check(new byte[] {BenchProtocol.SHARD_TRACK, 0}, 100));
        assertNull(check(new byte[] {BenchProtocol.SHARD_COUNTS}, 100));
        assertNull(check(export(3, 0, 4096), 100));
        assertNull(check(importOne(10, 10), 100));
        assertNull(check(new byte[] {BenchProtocol.SHARD_IMPORT, 0, 0, 0, 0}, 100), "an empty batch is a batch");
        byte[] assign = new byte[17];
        assign[0] = BenchProtocol.SHARD_ASSIGN;
        assertNull(check(assign, 100), "two pairs");
        assertNull(check(new byte[] {BenchProtocol.SHARD_UNLOAD, 0, 0, 0, 1}, 100));
    }

    @Test
    void malformedTraversalRequestsNameTheirFault() {
        assertTrue(check(cappedEdge(3, 0), 100).contains("ADD_EDGE_CAPPED with cap 0 (must be >= 1)"));
        assertTrue(check(cappedEdge(-2, 4), 100).contains("ADD_EDGE_CAPPED with label -2"));
        assertTrue(check(Arrays.copyOf(cappedEdge(3, 4), 21), 100)
            .contains("ADD_EDGE_CAPPED of 21 bytes (expected 25)"));
        assertTrue(check(kHopCount(70_000, 2, 10, 0), 100).contains("K_HOP_COUNT with label 70000"));
        assertTrue(check(kHopCount(0, 9, 10, 0), 100).contains("K_HOP_COUNT of 9 hops"));
        assertTrue(check(kHopCount(0, 2, 0, 1), 100).contains("K_HOP_COUNT with fanout 0"));
        assertTrue(check(kHopCount(0, 2, 10, 2), 100).contains("K_HOP_COUNT with batched 2"));
        assertTrue(check(Arrays.copyOf(kHopCount(0, 2, 10, 0), 21), 100)
            .contains("K_HOP_COUNT of 21 bytes (expected 22)"));
    }

    @Test
    void malformedShardRequestsNameTheirFault() {
        assertTrue(check(new byte[] {BenchProtocol.SHARD_TRACK, 2}, 100).contains("SHARD_TRACK with flag 2"));
        assertTrue(check(new byte[] {BenchProtocol.SHARD_TRACK}, 100).contains("SHARD_TRACK of 1 bytes"));
        assertTrue(check(new byte[] {BenchProtocol.SHARD_COUNTS, 0}, 100).contains("SHARD_COUNTS of 2 bytes"));
        assertTrue(check(export(3, -5, 4096), 100).contains("cursor -5"));
        assertTrue(check(export(3, 0, 0), 100).contains("0 bytes per page"));
        assertTrue(check(new byte[] {BenchProtocol.SHARD_UNLOAD, 0}, 100).contains("SHARD_UNLOAD of 2 bytes"));
        assertTrue(check(new byte[] {BenchProtocol.SHARD_ASSIGN}, 100).contains("at least one pair"));
        byte[] odd = new byte[12];
        odd[0] = BenchProtocol.SHARD_ASSIGN;
        assertTrue(check(odd, 100).contains("SHARD_ASSIGN of 12 bytes"));
        assertTrue(check(new byte[] {BenchProtocol.SHARD_IMPORT, 1}, 100)
            .contains("SHARD_IMPORT: a record batch of 1"));
        assertTrue(check(importOne(10, 9), 100).contains("cut short"));
        assertTrue(check(importOne(101, 101), 100).contains("value of 101 bytes (0..100)"));
        assertTrue(check(importOne(-1, 0), 100).contains("value of -1 bytes"));
        assertTrue(check(importOne(10, 12), 100).contains("2 bytes after the last of 1 records"));
    }
}
