package io.pragh.gremlin.structure;

import io.pragh.gremlin.storage.Adjacency;
import io.pragh.gremlin.storage.AdjacencySegments;
import io.pragh.gremlin.storage.ByteWriter;
import io.pragh.gremlin.storage.GraphKeys;
import io.pragh.gremlin.storage.GraphMutations;

import java.util.Arrays;
import org.agrona.collections.LongHashSet;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicIntegerArray;

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
    /** A list is checked once about this many entries were appended to it (every time for small segments). */
    private final int checkOneIn;
    /**
     * Entries appended since the last check, per bucket of list keys: a list is checked when its bucket has had
     * {@link #checkOneIn} more, so about every {@code checkOneIn} of its own entries whatever else is appended, with
     * no read at all before that, and deterministically (a test of 50 edges reads nothing). Lost updates under races
     * only move a check.
     */
    private final AtomicIntegerArray sinceCheck = new AtomicIntegerArray(BUCKETS);
    private static final int BUCKETS = 1024;

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
     * After an append to these lists: now and then (about every {@code segmentEntries / 64} entries of a list, so a
     * tail outgrows a segment by about that much at most, and an ordinary append pays no read), seals them if long.
     */
    void afterAppend(final long outKey, final long inKey) {
        if (due(outKey, 1)) {
            sealIfLong(outKey);
        }
        if (due(inKey, 1)) {
            sealIfLong(inKey);
        }
    }

    /** Whether the list under {@code key}, which just got {@code entries} more, is due a check ({@link #sinceCheck}). */
    public boolean due(final long key, final int entries) {
        if (entries >= checkOneIn) {
            return true;
        }
        final int bucket = (int) ((key * 0x9E3779B97F4A7C15L) >>> 54) & (BUCKETS - 1);
        if (sinceCheck.addAndGet(bucket, entries) < checkOneIn) {
            return false;
        }
        sinceCheck.set(bucket, 0);
        return true;
    }

    /** After a removal from these lists: now and then, as {@link #afterAppend}, applies their tombstones if many. */
    void afterRemove(final long outKey, final long inKey) {
        if (due(outKey, 1)) {
            compactIfTombstoned(outKey);
        }
        if (due(inKey, 1)) {
            compactIfTombstoned(inKey);
        }
    }

    /**
     * Once a segmented list's tail holds {@code segmentEntries / 64} tombstones or more, rewrites the sealed segments
     * that hold those removed edges without them and drops the tombstones ({@link GraphMutations#COMPACT_COMMIT}),
     * holding the list as a seal does; returns the tombstones dropped. Removals meanwhile add tombstones that stay
     * for the next time. A reader that meets a tombstone whose edge is gone already skips nothing, and one that reads
     * the tail without it reads the segments after they were rewritten.
     */
    public int compactIfTombstoned(final long key) {
        if (AdjacencySegments.tombstones(store.get(key)).length < checkOneIn) {
            return 0;
        }
        final long token = newToken();
        store.update(key, GraphMutations.SEAL_BEGIN, longs(token));
        final byte[] tail = store.get(key);
        if (tail == null || AdjacencySegments.sealingToken(tail) != token) {
            return 0;
        }
        final long[] dropped = AdjacencySegments.tombstones(tail);
        boolean rewritten = false;
        try {
            final LongHashSet removed = SegmentedLists.tombstones(tail);
            final long[] slots = AdjacencySegments.slots(tail);
            final long[] keys = new long[slots.length];
            for (int s = 0; s < slots.length; s++) {
                keys[s] = GraphKeys.segment(GraphKeys.vid(key), (int) slots[s]);
            }
            final byte[][] segments = new byte[slots.length][];
            store.getAll(keys, keys.length, (s, value) -> segments[s] = value);
            for (int s = 0; s < slots.length; s++) {
                final byte[] kept = without(segments[s], removed);
                if (kept != null) {
                    store.put(keys[s], kept);
                }
            }
            rewritten = true;
        } finally {
            final long[] arg = rewritten ? new long[1 + dropped.length] : new long[1];
            arg[0] = token;
            if (rewritten) {
                System.arraycopy(dropped, 0, arg, 1, dropped.length);
            }
            store.update(key, GraphMutations.COMPACT_COMMIT, longs(arg));
        }
        return dropped.length;
    }

    /** The segment without the removed edges' entries, or null when it holds none of them. */
    private static byte[] without(final byte[] segment, final LongHashSet removed) {
        final ByteWriter w = new ByteWriter(segment == null ? 0 : segment.length);
        boolean changed = false;
        for (int i = 0, n = Adjacency.count(segment); i < n; i++) {
            if (removed.contains(Adjacency.edgeId(segment, i))) {
                changed = true;
            } else {
                w.putBytes(segment, i * Adjacency.ENTRY_BYTES, Adjacency.ENTRY_BYTES);
            }
        }
        return changed ? w.toByteArray() : null;
    }

    private static long newToken() {
        return ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE >>> 1);
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
        final long token = newToken();
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
