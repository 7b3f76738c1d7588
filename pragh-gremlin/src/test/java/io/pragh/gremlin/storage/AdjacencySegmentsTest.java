package io.pragh.gremlin.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

    /** SEAL_BEGIN at time 100 with a lease of 50 ms. */
    private static byte[] begin(final byte[] tail, final long token) {
        return SealLease.begin(tail, SealLease.beginArgument(token, 100, 50));
    }

    /** A tail whose head is only the released lease of {@code token} (what a commit leaves when it seals nothing). */
    private static byte[] released(final long token, final byte[] list) {
        final byte[] out = new byte[list.length + Adjacency.ENTRY_BYTES];
        SealLease.put(out, 0, token, 0);
        System.arraycopy(list, 0, out, Adjacency.ENTRY_BYTES, list.length);
        return out;
    }

    @Test
    void aSealMovesTheFirstEntriesOnlyForItsTokenAndOnlyIfNoRemovalRanMeanwhile() {
        final byte[] tail = list(1, 2, 3, 4, 5);
        final byte[] held = begin(tail, 42);
        assertEquals(42, AdjacencySegments.sealingToken(held));
        assertSame(held, begin(held, 43), "one sealer at a time");
        final long sum = AdjacencySegments.checksum(tail, 0, 3);
        assertSame(held, AdjacencySegments.sealCommit(held, longs(43, 9, 3, sum)), "another token commits nothing");
        final byte[] sealed = AdjacencySegments.sealCommit(held, longs(42, 9, 3, sum));
        assertArrayEquals(withHead(AdjacencySegments.SEGMENT, 9, released(42, list(4, 5))), sealed);
        assertEquals(0, AdjacencySegments.sealingToken(sealed), "let go, the last token kept");
        assertEquals(42, SealLease.lastToken(sealed));
        final byte[] raced = AdjacencySegments.removeEdge(begin(tail, 42), longs(2));
        assertArrayEquals(released(42, list(1, 3, 4, 5)), AdjacencySegments.sealCommit(raced, longs(42, 9, 3, sum)),
            "a removal since the copy: the seal gives up and lets go");
    }

    @Test
    void aLeaseIsTakenOverOnlyOnceOverAndOnlyByALargerToken() {
        final byte[] held = begin(list(1, 2), 42);
        assertEquals(150, SealLease.expiry(held));
        assertSame(held, SealLease.begin(held, SealLease.beginArgument(99, 149, 50)), "the lease runs until 150");
        assertSame(held, SealLease.begin(held, SealLease.beginArgument(41, 150, 50)), "over, but a smaller token");
        final byte[] taken = SealLease.begin(held, SealLease.beginArgument(99, 150, 50));
        assertEquals(99, AdjacencySegments.sealingToken(taken));
        assertEquals(200, SealLease.expiry(taken));
        assertEquals(1, AdjacencySegments.headEntries(taken), "the entry is replaced, not added");
        final long sum = AdjacencySegments.checksum(taken, 1, 1);
        assertSame(taken, AdjacencySegments.sealCommit(taken, longs(42, 9, 1, sum)), "the slow sealer's commit: refused");
        assertSame(taken, AdjacencySegments.compactCommit(taken, longs(42)), "and its compaction's");
        final byte[] let = AdjacencySegments.sealCommit(taken, longs(99, 0, 1, 0));
        assertSame(let, SealLease.begin(let, SealLease.beginArgument(99, 0, 50)), "released: still a larger token");
        assertEquals(100, AdjacencySegments.sealingToken(SealLease.begin(let, SealLease.beginArgument(100, 0, 50))));
        assertTrue(SealLease.lastToken(let) < SealLease.nextToken(let));
    }

    @Test
    void aSegmentWriteWithASmallerTokenThanItsStampChangesNothing() {
        final byte[] entries = list(1, 2);
        final byte[] first = SegmentStamp.write(null, SegmentStamp.writeArgument(42, entries, 0, entries.length));
        assertEquals(42, SegmentStamp.stamp(first));
        assertEquals(2, SegmentStamp.entries(first));
        assertEquals(1, SegmentStamp.bodyFrom(first));
        final byte[] other = list(3);
        final byte[] taken = SegmentStamp.write(first, SegmentStamp.writeArgument(99, other, 0, other.length));
        assertEquals(99, SegmentStamp.stamp(taken));
        assertSame(taken, SegmentStamp.write(taken, SegmentStamp.writeArgument(42, entries, 0, entries.length)),
            "the slow sealer's late write");
        final byte[] freed = SegmentStamp.write(taken, SegmentStamp.writeArgument(100, other, 0, 0));
        assertEquals(Adjacency.ENTRY_BYTES, freed.length, "a freed slot keeps only its stamp, the fence");
        assertEquals(0, SegmentStamp.entries(freed));
        assertEquals(0, SegmentStamp.stamp(entries), "a bulk-loaded segment has no stamp");
        assertEquals(7, SegmentStamp.stamp(SegmentStamp.write(entries, SegmentStamp.writeArgument(7, other, 0, 0))));
    }

    @Test
    void aCompactionDropsTheTombstonesItAppliedAndLetsTheListGo() {
        byte[] tail = withHead(AdjacencySegments.SEGMENT, 7, list(5));
        tail = AdjacencySegments.removeEdge(AdjacencySegments.removeEdge(tail, longs(1)), longs(2));
        final byte[] held = begin(tail, 42);
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
