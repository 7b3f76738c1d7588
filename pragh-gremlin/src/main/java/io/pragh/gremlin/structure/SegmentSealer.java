package io.pragh.gremlin.structure;

import io.pragh.gremlin.storage.Adjacency;
import io.pragh.gremlin.storage.AdjacencySegments;
import io.pragh.gremlin.storage.ByteWriter;
import io.pragh.gremlin.storage.GraphKeys;
import io.pragh.gremlin.storage.GraphMutations;

import io.pragh.gremlin.storage.ByteReader;
import io.pragh.gremlin.storage.SealLease;
import io.pragh.gremlin.storage.SegmentStamp;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.function.LongSupplier;
import org.agrona.collections.LongArrayList;
import org.agrona.collections.LongHashSet;

/**
 * Seals a long adjacency tail into segments ({@link AdjacencySegments}): while the tail under a list's key holds
 * more than {@code segmentEntries} entries, its first {@code segmentEntries} go to a new sealed segment under a key
 * of their own at the vertex's home, and the tail keeps the rest. Appends run on meanwhile (they only add after the
 * sealed entries); a removal that runs meanwhile makes the seal give up and leaves the list as it was, to be sealed
 * by the next writer that checks.
 *
 * <p><b>One sealer per list at a time, on a lease.</b> {@link GraphMutations#SEAL_BEGIN} puts this sealer's token
 * and lease end in the tail's head ({@link SealLease}); the segment's slot is claimed once per list and ordinal in
 * the vertex's slot record, written through {@link GraphMutations#SEGMENT_WRITE} stamped with the token
 * ({@link SegmentStamp}), and {@link GraphMutations#SEAL_COMMIT} moves the entries out of the tail only if the token
 * still holds the list and the entries still hash to what was copied. A sealer that dies between writing the
 * segment and committing it (its machine crashed, its thread was interrupted or stalled) holds the list only until
 * its lease ends: the next appender that finds the tail long, or {@link #sweep}, takes over with a larger token and
 * reuses the orphaned segment's slot (the same list and ordinal claim the same slot) or, when the list needs no seal
 * any more, frees it down to its stamp. Nothing is leaked, and the slow sealer, should it wake, changes nothing:
 *
 * <ul>
 *   <li>its segment write, if still to come, meets the taker's larger stamp and is refused; one that lands before
 *       the taker's is overwritten by it (a slot's writes are ordered at its host, and the larger token wins in
 *       either order);</li>
 *   <li>its commit meets the taker's token in the tail and is refused, so the tail never names a segment whose
 *       content another writer chose.</li>
 * </ul>
 *
 * <p>Memory ordering: every step is one store operation that returns once acknowledged, and each mutator runs
 * atomically at its key's host (the store's per-key linearizability), so the segment write is visible to every
 * reader before the commit that names its slot is even sent, and a reader that sees the slot in the tail reads the
 * segment after it. A sealer commits a slot only after reading the segment's stamp back as its own, so a write the
 * stamp refused is never named by a commit, even if the tokens of a list ever stopped growing (a vertex removed and
 * added again under the same id). The lease is judged against this sealer's {@link #clock}: skew makes a takeover early or late;
 * an early one costs the slow holder its seal, never the list its entries, because safety rests on the token checks.
 *
 * <p>Example: {@code new SegmentSealer(store, AdjacencySegments.DEFAULT_SEGMENT_ENTRIES).sealIfLong(GraphKeys.out(v, l));}
 */
public final class SegmentSealer {
    /** Configuration key: entries of a sealed segment (and the longest a tail grows before a seal), default 65536. */
    public static final String SEGMENT_ENTRIES = "pragh.segmentEntries";
    /** Configuration key: how long a sealer holds a list before another may take over (ms), default 30 000. */
    public static final String SEAL_LEASE_MILLIS = "pragh.sealLeaseMillis";
    public static final long DEFAULT_LEASE_MILLIS = 30_000;
    /**
     * Configuration key: how often a graph sweeps its home lists for orphaned segments ({@link #sweep}, ms; 0: never),
     * default the seal lease: an orphan is reclaimed within about two leases of its sealer's death.
     */
    public static final String SWEEP_MILLIS = "pragh.sealSweepMillis";

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

    /** What time it is for leases (ms): the wall clock, or a test's. */
    private final LongSupplier clock;
    private final long leaseMillis;

    public SegmentSealer(final GraphStore store, final int segmentEntries) {
        this(store, segmentEntries, System::currentTimeMillis, DEFAULT_LEASE_MILLIS);
    }

    /** A sealer whose leases last {@code leaseMillis} of {@code clock}. */
    public SegmentSealer(final GraphStore store, final int segmentEntries, final LongSupplier clock,
                         final long leaseMillis) {
        if (segmentEntries < 1 || segmentEntries > AdjacencySegments.MAX_SEGMENT_ENTRIES) {
            throw new IllegalArgumentException(SEGMENT_ENTRIES + " must be 1.." + AdjacencySegments.MAX_SEGMENT_ENTRIES
                + " (a segment is written as one logged argument of at most 64 MiB), not " + segmentEntries);
        }
        if (leaseMillis < 1) {
            throw new IllegalArgumentException("a seal lease must be at least 1 ms, not " + leaseMillis);
        }
        this.store = store;
        this.segmentEntries = segmentEntries;
        this.checkOneIn = Math.max(1, segmentEntries / 64);
        this.clock = clock;
        this.leaseMillis = leaseMillis;
    }

    /** The sealer of a graph's store: its configuration's {@link #SEGMENT_ENTRIES} and {@link #SEAL_LEASE_MILLIS}. */
    static SegmentSealer of(final PraghGraph graph) {
        return of(graph, graph.store());
    }

    /** A sealer over {@code store} as the graph's configuration says ({@link #SEGMENT_ENTRIES}, {@link #SEAL_LEASE_MILLIS}). */
    static SegmentSealer of(final PraghGraph graph, final GraphStore store) {
        return new SegmentSealer(store, segmentEntries(graph), System::currentTimeMillis,
            graph.configuration().getLong(SEAL_LEASE_MILLIS, DEFAULT_LEASE_MILLIS));
    }

    /** A graph's configured {@link #SWEEP_MILLIS}. */
    static long sweepMillis(final PraghGraph graph) {
        final long millis = graph.configuration().getLong(SWEEP_MILLIS,
            graph.configuration().getLong(SEAL_LEASE_MILLIS, DEFAULT_LEASE_MILLIS));
        if (millis < 0) {
            throw new IllegalArgumentException(SWEEP_MILLIS + " must be >= 0 (0: no sweep), not " + millis);
        }
        return millis;
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
        final byte[] before = store.get(key);
        if (AdjacencySegments.tombstones(before).length < checkOneIn) {
            return 0;
        }
        final long token = SealLease.nextToken(before);
        final byte[] tail = take(key, token);
        if (tail == null) {
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
            int written = 0;
            for (int s = 0; s < slots.length; s++) {
                final byte[] kept = without(segments[s], removed);
                if (kept != null) {
                    store.update(keys[s], GraphMutations.SEGMENT_WRITE, SegmentStamp.writeArgument(token, kept, 0, kept.length));
                    keys[written++] = keys[s];
                }
            }
            // A write refused (a later holder's stamp) means this token lost the list: keep every tombstone.
            rewritten = stampedBy(keys, written, token);
        } finally {
            final long[] arg = rewritten ? new long[1 + dropped.length] : new long[1];
            arg[0] = token;
            if (rewritten) {
                System.arraycopy(dropped, 0, arg, 1, dropped.length);
            }
            store.update(key, GraphMutations.COMPACT_COMMIT, longs(arg));
        }
        return rewritten ? dropped.length : 0;
    }

    /** Whether the first {@code count} segments under {@code keys} all carry {@code token}'s stamp. */
    private boolean stampedBy(final long[] keys, final int count, final long token) {
        final boolean[] all = {true};
        store.getAllViews(keys, count, (s, v) ->
            all[0] &= SegmentedLists.stampOf(v) == token);
        return all[0];
    }

    /**
     * Takes the list under {@code key} for {@code token} ({@link SealLease#begin}): nobody held it, the last holder
     * let go, or its lease is over by this sealer's clock. Returns the tail as held, or null when another holds it.
     */
    private byte[] take(final long key, final long token) {
        store.update(key, GraphMutations.SEAL_BEGIN, SealLease.beginArgument(token, clock.getAsLong(), leaseMillis));
        final byte[] tail = store.get(key);
        return tail != null && AdjacencySegments.sealingToken(tail) == token ? tail : null;
    }

    /** The segment without the removed edges' entries, or null when it holds none of them. */
    private static byte[] without(final byte[] segment, final LongHashSet removed) {
        final ByteWriter w = new ByteWriter(segment == null ? 0 : segment.length);
        boolean changed = false;
        for (int i = SegmentStamp.bodyFrom(segment), n = Adjacency.count(segment); i < n; i++) {
            if (removed.contains(Adjacency.edgeId(segment, i))) {
                changed = true;
            } else {
                w.putBytes(segment, i * Adjacency.ENTRY_BYTES, Adjacency.ENTRY_BYTES);
            }
        }
        return changed ? w.toByteArray() : null;
    }

    /** Seals the list under {@code key} while its tail is longer than a segment; returns the segments sealed. */
    public int sealIfLong(final long key) {
        int sealed = 0;
        byte[] tail;
        while (bodyEntries(tail = store.get(key)) > segmentEntries && sealOne(key, tail)) {
            sealed++;
        }
        return sealed;
    }

    private static int bodyEntries(final byte[] tail) {
        return Adjacency.count(tail) - AdjacencySegments.headEntries(tail);
    }

    /**
     * One segment out of the tail; false when another sealer holds the list (its lease runs), a removal got in the
     * way, or this sealer lost the list to a takeover before its commit. Taking a list over from a dead sealer, it
     * reuses the slot the dead one wrote (same list, same ordinal: same slot), or frees it when no seal is due.
     */
    private boolean sealOne(final long key, final byte[] before) {
        final long token = SealLease.nextToken(before);
        final byte[] tail = take(key, token);
        if (tail == null) {
            return false;
        }
        long slot = 0;
        long checksum = 0;
        try {
            final int h = AdjacencySegments.headEntries(tail);
            if (Adjacency.count(tail) - h > segmentEntries) {
                final long vid = GraphKeys.vid(key);
                final int claimed = claimSlot(key, tail);
                final long segmentKey = GraphKeys.segment(vid, claimed);
                final int from = h * Adjacency.ENTRY_BYTES;
                store.update(segmentKey, GraphMutations.SEGMENT_WRITE,
                    SegmentStamp.writeArgument(token, tail, from, segmentEntries * Adjacency.ENTRY_BYTES));
                if (stampedBy(new long[] {segmentKey}, 1, token)) {
                    checksum = AdjacencySegments.checksum(tail, h, segmentEntries);
                    slot = claimed;
                }
            } else {
                freeOrphan(key, tail, token);
            }
        } finally {
            store.update(key, GraphMutations.SEAL_COMMIT, longs(token, slot, segmentEntries, checksum));
        }
        // Committed only if no takeover came first: the tail then names the slot and still keeps this token as its last.
        final byte[] after = store.get(key);
        return slot > 0 && SealLease.lastToken(after) == token
            && AdjacencySegments.slots(after).length > AdjacencySegments.slots(tail).length;
    }

    /** The slot of the list's next segment (its ordinal = the segments it has), claimed once in the slot record. */
    private int claimSlot(final long key, final byte[] tail) {
        final long vid = GraphKeys.vid(key);
        final long tag = nextSlotTag(key, tail);
        store.update(GraphKeys.segmentSlots(vid), GraphMutations.SEGMENT_SLOT, longs(tag));
        final int claimed = AdjacencySegments.slotOf(store.get(GraphKeys.segmentSlots(vid)), tag);
        if (claimed < 1) {
            throw new IllegalStateException("vertex " + vid + " got no slot for segment tag " + tag);
        }
        return claimed;
    }

    private static long nextSlotTag(final long key, final byte[] tail) {
        return AdjacencySegments.slotTag(GraphKeys.kind(key), GraphKeys.label(key), AdjacencySegments.slots(tail).length);
    }

    /**
     * Frees the segment a seal of the list's next ordinal wrote and never committed (its sealer died, or gave up),
     * down to the stamp of {@code token}, which fences it against that sealer's late write; returns the entries
     * freed. Called holding the list, so no commit can name that slot meanwhile.
     */
    private int freeOrphan(final long key, final byte[] tail, final long token) {
        final int slot = AdjacencySegments.slotOf(store.get(GraphKeys.segmentSlots(GraphKeys.vid(key))),
            nextSlotTag(key, tail));
        if (slot < 1) {
            return 0;
        }
        final long segmentKey = GraphKeys.segment(GraphKeys.vid(key), slot);
        final int entries = SegmentStamp.entries(store.get(segmentKey));
        if (entries > 0) {
            store.update(segmentKey, GraphMutations.SEGMENT_WRITE, SegmentStamp.writeArgument(token, NOTHING, 0, 0));
        }
        return entries;
    }

    private static final byte[] NOTHING = new byte[0];

    /**
     * Recovers the lists of every vertex with segments homed here ({@link GraphStore#forEachHomeKey}) from sealers
     * that died or gave up: a list whose next slot holds an uncommitted segment and that no live lease holds is taken
     * over and sealed, reusing that slot, or, when its tail is short, has the orphan freed. Returns the orphaned
     * segments reclaimed. {@link SegmentSweeper} runs it now and then in every graph; appenders take over on their
     * own when they find a tail long.
     */
    public int sweep() {
        final LongArrayList vids = new LongArrayList();
        store.forEachHomeKey(GraphKeys.SEGMENT, k -> {
            if (GraphKeys.label(k) == 0) {
                vids.addLong(GraphKeys.vid(k));
            }
        });
        int reclaimed = 0;
        for (int v = 0; v < vids.size(); v++) {
            final long vid = vids.getLong(v);
            final byte[] record = store.get(GraphKeys.segmentSlots(vid));
            final LongHashSet lists = new LongHashSet();
            for (int i = 0; record != null && i + 8 <= record.length; i += 8) {
                final long tag = ByteReader.longAt(record, i);
                final int kind = (int) (tag >>> 48);
                final int label = (int) (tag >>> 32) & 0xFFFF;
                lists.add(kind == GraphKeys.OUT ? GraphKeys.out(vid, label) : GraphKeys.in(vid, label));
            }
            for (final LongHashSet.LongIterator it = lists.iterator(); it.hasNext(); ) {
                reclaimed += sweepList(it.nextValue(), record);
            }
        }
        return reclaimed;
    }

    private int sweepList(final long key, final byte[] record) {
        final byte[] tail = store.get(key);
        final int slot = AdjacencySegments.slotOf(record, nextSlotTag(key, tail));
        if (tail == null || slot < 1 || !SealLease.open(tail, clock.getAsLong())
            || SegmentStamp.entries(store.get(GraphKeys.segment(GraphKeys.vid(key), slot))) == 0) {
            return 0;
        }
        if (bodyEntries(tail) > segmentEntries) {
            return sealOne(key, tail) ? 1 : 0;
        }
        final long token = SealLease.nextToken(tail);
        final byte[] held = take(key, token);
        if (held == null) {
            return 0;
        }
        try {
            return freeOrphan(key, held, token) > 0 ? 1 : 0;
        } finally {
            store.update(key, GraphMutations.SEAL_COMMIT, longs(token, 0, segmentEntries, 0));
        }
    }

    private static byte[] longs(final long... values) {
        final ByteWriter w = new ByteWriter(8 * values.length);
        for (final long v : values) {
            w.putLong(v);
        }
        return w.toByteArray();
    }
}
