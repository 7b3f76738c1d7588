package io.pragh.gremlin.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

class AdjacencySegmentsTest {
    private static byte[] list(final long... edgeNumbers) {
        final ByteWriter w = new ByteWriter(16);
        for (final long n : edgeNumbers) {
            w.putBytes(Adjacency.entry(n + 1000, n));
        }
        return w.toByteArray();
    }

    private static byte[] withHead(final int tag, final long payload, final byte[] list) {
        final byte[] out = new byte[list.length + Adjacency.ENTRY_BYTES];
        AdjacencySegments.putHead(out, 0, tag, payload);
        System.arraycopy(list, 0, out, Adjacency.ENTRY_BYTES, list.length);
        return out;
    }

    private static byte[] longs(final long... values) {
        final ByteWriter w = new ByteWriter(8);
        for (final long v : values) {
            w.putLong(v);
        }
        return w.toByteArray();
    }

    @Test
    void anOrdinaryListHasNoHeadAndRemovesAsBefore() {
        final byte[] plain = list(1, 2, 3);
        assertEquals(0, AdjacencySegments.headEntries(plain));
        assertArrayEquals(list(1, 3), AdjacencySegments.removeEdge(plain, longs(2)));
        assertArrayEquals(plain, AdjacencySegments.removeEdge(plain, longs(9)), "an absent edge: no tombstone");
    }

    @Test
    void anEdgeNotInASegmentedTailIsTombstonedOnceAndATailEdgeIsDropped() {
        final byte[] tail = withHead(AdjacencySegments.SEGMENT, 7, list(5, 6));
        final byte[] dropped = AdjacencySegments.removeEdge(tail, longs(6));
        assertArrayEquals(withHead(AdjacencySegments.SEGMENT, 7, list(5)), dropped);
        final byte[] tombstoned = AdjacencySegments.removeEdge(dropped, longs(2));
        assertEquals(2, AdjacencySegments.headEntries(tombstoned));
        assertArrayEquals(new long[] {2}, AdjacencySegments.tombstones(tombstoned));
        assertArrayEquals(new long[] {7}, AdjacencySegments.slots(tombstoned));
        assertArrayEquals(tombstoned, AdjacencySegments.removeEdge(tombstoned, longs(2)), "once");
        final byte[] empty = AdjacencySegments.removeEdge(tombstoned, longs(5));
        assertEquals(2, Adjacency.count(empty), "the head stays when the body empties");
    }

    @Test
    void aSealMovesTheFirstEntriesOnlyForItsTokenAndOnlyIfNoRemovalRanMeanwhile() {
        final byte[] tail = list(1, 2, 3, 4, 5);
        final byte[] held = AdjacencySegments.sealBegin(tail, longs(42));
        assertEquals(42, AdjacencySegments.sealingToken(held));
        assertSame(held, AdjacencySegments.sealBegin(held, longs(43)), "one sealer at a time");
        final long sum = AdjacencySegments.checksum(tail, 0, 3);
        assertSame(held, AdjacencySegments.sealCommit(held, longs(43, 9, 3, sum)), "another token commits nothing");
        final byte[] sealed = AdjacencySegments.sealCommit(held, longs(42, 9, 3, sum));
        assertArrayEquals(withHead(AdjacencySegments.SEGMENT, 9, list(4, 5)), sealed);
        final byte[] raced = AdjacencySegments.removeEdge(AdjacencySegments.sealBegin(tail, longs(42)), longs(2));
        assertArrayEquals(list(1, 3, 4, 5), AdjacencySegments.sealCommit(raced, longs(42, 9, 3, sum)),
            "a removal since the copy: the seal gives up and lets go");
    }

    @Test
    void aCompactionDropsTheTombstonesItAppliedAndLetsTheListGo() {
        byte[] tail = withHead(AdjacencySegments.SEGMENT, 7, list(5));
        tail = AdjacencySegments.removeEdge(AdjacencySegments.removeEdge(tail, longs(1)), longs(2));
        final byte[] held = AdjacencySegments.sealBegin(tail, longs(42));
        assertSame(held, AdjacencySegments.compactCommit(held, longs(43, 1, 2)), "another token commits nothing");
        final byte[] compacted = AdjacencySegments.compactCommit(held, longs(42, 1));
        assertArrayEquals(new long[] {2}, AdjacencySegments.tombstones(compacted), "one applied, one left");
        assertEquals(0, AdjacencySegments.sealingToken(compacted));
        assertArrayEquals(new long[] {7}, AdjacencySegments.slots(compacted));
    }

    @Test
    void aSlotIsClaimedOncePerTag() {
        final long a = AdjacencySegments.slotTag(GraphKeys.OUT, 3, 0);
        final long b = AdjacencySegments.slotTag(GraphKeys.IN, 3, 0);
        byte[] record = AdjacencySegments.claimSlot(null, longs(a));
        record = AdjacencySegments.claimSlot(record, longs(b));
        assertArrayEquals(record, AdjacencySegments.claimSlot(record, longs(a)));
        assertEquals(1, AdjacencySegments.slotOf(record, a));
        assertEquals(2, AdjacencySegments.slotOf(record, b));
    }
}
