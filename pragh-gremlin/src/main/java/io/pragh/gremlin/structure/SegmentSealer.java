package io.pragh.gremlin.structure;

import io.pragh.gremlin.storage.Adjacency;
import io.pragh.gremlin.storage.AdjacencySegments;
import io.pragh.gremlin.storage.ByteWriter;
import io.pragh.gremlin.storage.GraphKeys;
import io.pragh.gremlin.storage.GraphMutations;

import java.util.Arrays;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Seals a long adjacency tail into segments ({@link AdjacencySegments}): while the tail under a list's key holds
 * more than {@code segmentEntries} entries, its first {@code segmentEntries} go to a new sealed segment under a key
 * of their own at the vertex's home, and the tail keeps the rest. Appends run on meanwhile (they only add after the
 * sealed entries); a removal that runs meanwhile makes the seal give up and leaves the list as it was, to be sealed
 * by the next writer that checks.
 *
 * <p>One sealer per list at a time: {@link GraphMutations#SEAL_BEGIN} puts this sealer's token in the tail's head and
 * {@link GraphMutations#SEAL_COMMIT} takes it out, so the segment's slot (claimed once per list and ordinal in the
 * vertex's slot record) is written by one writer only. A sealer that dies holding a list leaves its token there: the
 * list stays correct and readable but is not sealed again (its tail grows, as every list did before segments).
 *
 * <p>Example: {@code new SegmentSealer(store, AdjacencySegments.DEFAULT_SEGMENT_ENTRIES).sealIfLong(GraphKeys.out(v, l));}
 */
public final class SegmentSealer {
    /** Configuration key: entries of a sealed segment (and the longest a tail grows before a seal), default 65536. */
    public static final String SEGMENT_ENTRIES = "pragh.segmentEntries";

    private final GraphStore store;
    private final int segmentEntries;
    /** An append checks its lists' length one time in this many (every time for small segments, as in tests). */
    private final int checkOneIn;

    public SegmentSealer(final GraphStore store, final int segmentEntries) {
        if (segmentEntries < 1) {
            throw new IllegalArgumentException("segment entries must be at least 1, not " + segmentEntries);
        }
        this.store = store;
        this.segmentEntries = segmentEntries;
        this.checkOneIn = Math.max(1, segmentEntries / 64);
    }

    /** The sealer of a graph's store, segments as long as its configuration's {@link #SEGMENT_ENTRIES}. */
    static SegmentSealer of(final PraghGraph graph) {
        return new SegmentSealer(graph.store(), segmentEntries(graph));
    }

    /** A graph's configured {@link #SEGMENT_ENTRIES}. */
    public static int segmentEntries(final PraghGraph graph) {
        return graph.configuration().getInt(SEGMENT_ENTRIES, AdjacencySegments.DEFAULT_SEGMENT_ENTRIES);
    }

    /**
     * After an append to these lists: now and then (one append in {@code segmentEntries / 64}, so a tail outgrows a
     * segment by about that much at most, and an ordinary append pays no read), seals them if they are long.
     */
    void afterAppend(final long outKey, final long inKey) {
        if (shouldCheck(1)) {
            sealIfLong(outKey);
            sealIfLong(inKey);
        }
    }

    /**
     * Whether a list that just got {@code appended} entries should be checked: with odds {@code appended} in
     * {@code segmentEntries / 64}, so a list is checked about every {@code segmentEntries / 64} entries it gets, in
     * whatever batches they come, and a batch that long is always checked.
     */
    public boolean shouldCheck(final int appended) {
        return appended >= checkOneIn || ThreadLocalRandom.current().nextInt(checkOneIn) < appended;
    }

    /** Seals the list under {@code key} while its tail is longer than a segment; returns the segments sealed. */
    public int sealIfLong(final long key) {
        int sealed = 0;
        while (bodyEntries(store.get(key)) > segmentEntries && sealOne(key)) {
            sealed++;
        }
        return sealed;
    }

    private static int bodyEntries(final byte[] tail) {
        return Adjacency.count(tail) - AdjacencySegments.headEntries(tail);
    }

    /** One segment out of the tail; false when another sealer holds the list or a removal got in the way. */
    private boolean sealOne(final long key) {
        final long token = ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE >>> 1);
        store.update(key, GraphMutations.SEAL_BEGIN, longs(token));
        final byte[] tail = store.get(key);
        if (tail == null || AdjacencySegments.sealingToken(tail) != token) {
            return false;
        }
        long slot = 0;
        long checksum = 0;
        try {
            final int h = AdjacencySegments.headEntries(tail);
            if (Adjacency.count(tail) - h > segmentEntries) {
                final long vid = GraphKeys.vid(key);
                final long tag = AdjacencySegments.slotTag(GraphKeys.kind(key), GraphKeys.label(key),
                    AdjacencySegments.slots(tail).length);
                store.update(GraphKeys.segmentSlots(vid), GraphMutations.SEGMENT_SLOT, longs(tag));
                final int claimed = AdjacencySegments.slotOf(store.get(GraphKeys.segmentSlots(vid)), tag);
                if (claimed < 1) {
                    throw new IllegalStateException("vertex " + vid + " got no slot for segment tag " + tag);
                }
                final int from = h * Adjacency.ENTRY_BYTES;
                store.put(GraphKeys.segment(vid, claimed),
                    Arrays.copyOfRange(tail, from, from + segmentEntries * Adjacency.ENTRY_BYTES));
                checksum = AdjacencySegments.checksum(tail, h, segmentEntries);
                slot = claimed;
            }
        } finally {
            store.update(key, GraphMutations.SEAL_COMMIT, longs(token, slot, segmentEntries, checksum));
        }
        return slot > 0 && AdjacencySegments.slots(store.get(key)).length > AdjacencySegments.slots(tail).length;
    }

    private static byte[] longs(final long... values) {
        final ByteWriter w = new ByteWriter(8 * values.length);
        for (final long v : values) {
            w.putLong(v);
        }
        return w.toByteArray();
    }
}
