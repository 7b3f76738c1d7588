package io.pragh.gremlin.events;

import io.pragh.gremlin.storage.GraphKeys;
import io.pragh.gremlin.storage.ViewRecords;
import io.pragh.gremlin.structure.GraphStore;
import org.agrona.DirectBuffer;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.collections.LongArrayList;

import java.nio.ByteOrder;
import java.util.concurrent.locks.StampedLock;

/**
 * The view bits of every vertex as of the last membership update committed on this process's machines, so a tap
 * knows, at the moment an update commits, which views its vertex is in then (membership as of commit, not as of
 * handling). Kept from the membership updates the taps see, in the order they commit; a vertex with no entry is in
 * no view.
 *
 * <p>Filled once by a scan of the membership records ({@link #seed}); until that is done, {@link #seeded} is false
 * and events look membership up when they are handled, as they did before. The scan races with updates: each
 * membership update tapped while seeding is also logged per vertex, and applied again over the value the scan read.
 * That is exact because a membership update ({@code ViewRecords.BITS}) sets or clears the bits of its mask, whatever
 * they were: applied again over a value that already has it, it changes nothing, and a bit no logged update touched
 * is as the scan read it.
 *
 * <p>Concurrency: written by store threads (a tap) and the seeding thread under the write lock; read by store threads
 * with an optimistic read validated after (a membership update is rare beside the updates it classifies, so readers
 * almost never retry), falling back to the read lock when a write overlapped (the map may then have been resized
 * under the read, so what it answered is not used).
 *
 * <p>Example: {@code mirror.onCommit(key, mutatorId, arg, off, len, deleted); long bits = mirror.bits(vid);}
 */
final class MembershipMirror {
    private final StampedLock lock = new StampedLock();
    /** Vertex id to its view bits; absent means none. Guarded by {@link #lock}. */
    private final Long2LongHashMap bits = new Long2LongHashMap(0L);
    /**
     * Vertex id to the version of the last membership update applied (versions only grow per key, across deletes:
     * a home starts each insert above every incarnation it has seen). A durable home may be told of a version twice,
     * after later ones: applied again, a set could undo a later clear. Guarded by {@link #lock}.
     */
    private final Long2LongHashMap versions = new Long2LongHashMap(0L);
    /**
     * An edge list's key ({@code GraphKeys.out(vid, label)}) to the views that hold, or once held, an edge member of
     * it: a superset that only grows (a cleared edge bit stays here), so a tap never misses an edge member's event
     * and the lane, which reads the edge's record, drops what is no longer one. Guarded by {@link #lock}.
     */
    private final Long2LongHashMap edgeLists = new Long2LongHashMap(0L);
    /** While seeding: vertex id to the (op, mask) pairs tapped, to apply again over the scan's value. */
    private Long2ObjectHashMap<LongArrayList> seedLog = new Long2ObjectHashMap<>();
    /** Set once every membership record was read: from then on {@link #bits} answers for every local vertex. */
    private volatile boolean seeded;

    /**
     * On a store thread: a committed update of {@code key} with {@code version}; only membership records change the
     * mirror, and a version already applied (or older) changes nothing.
     */
    void onCommit(final long key, final long version, final int mutatorId, final DirectBuffer arg, final int argOff,
                  final int argLen, final boolean deleted) {
        if (ViewRecords.isEdgeMembership(key)) {
            if (mutatorId == ViewRecords.EDGE_BITS && argLen == ViewRecords.EDGE_BITS_ARG_BYTES && arg.getByte(argOff) != 0) {
                final int label = arg.getShort(argOff + 1, ByteOrder.LITTLE_ENDIAN) & 0xFFFF;
                edgeHeld(GraphKeys.out(GraphKeys.vid(key), label), arg.getLong(argOff + 11, ByteOrder.LITTLE_ENDIAN));
            }
            return;
        }
        if (!ViewRecords.isMembership(key)) {
            return;
        }
        final long vid = GraphKeys.vid(key);
        final long stamp = lock.writeLock();
        try {
            if (version <= versions.get(vid)) {
                return;
            }
            versions.put(vid, version);
            if (mutatorId == ViewRecords.BITS && argLen == ViewRecords.BITS_ARG_BYTES) {
                final int op = arg.getByte(argOff);
                final long mask = arg.getLong(argOff + 1, ByteOrder.LITTLE_ENDIAN);
                apply(vid, op, mask);
                log(vid, op, mask);
            } else if (deleted) {
                // A delete of the record itself (not one of ours today): the vertex is in no view any more.
                apply(vid, 0, -1L);
                log(vid, 0, -1L);
            }
        } finally {
            lock.unlockWrite(stamp);
        }
    }

    /** Whether {@link #bits} answers for every vertex whose membership is committed here. */
    boolean seeded() {
        return seeded;
    }

    private void edgeHeld(final long list, final long mask) {
        final long stamp = lock.writeLock();
        try {
            edgeLists.put(list, edgeLists.get(list) | mask);
        } finally {
            lock.unlockWrite(stamp);
        }
    }

    /** The view bits of {@code vid} as of the last membership update tapped (0: in no view). Never blocks long. */
    long bits(final long vid) {
        return read(bits, vid);
    }

    /**
     * The views that may hold an edge member of the list {@code GraphKeys.out(vid, label)} (a superset: see
     * {@link #edgeLists}); 0 when none ever did since the mirror was seeded.
     */
    long edgeBits(final long vid, final int label) {
        return read(edgeLists, GraphKeys.out(vid, label));
    }

    private long read(final Long2LongHashMap map, final long key) {
        long stamp = lock.tryOptimisticRead();
        if (stamp != 0) {
            try {
                final long b = map.get(key);
                if (lock.validate(stamp)) {
                    return b;
                }
            } catch (RuntimeException resizedUnderUs) {
                // a write resized the map under the optimistic read: read again under the lock
            }
        }
        stamp = lock.readLock();
        try {
            return map.get(key);
        } finally {
            lock.unlockRead(stamp);
        }
    }

    /**
     * Reads every membership record homed on this process's machines (the ones whose updates the taps see, already
     * feeding {@link #onCommit}), folds in what was tapped meanwhile, and marks the mirror seeded. Runs once, on the
     * caller's thread; GETs run outside the lock.
     */
    void seed(final GraphStore store) {
        if (seeded) {
            return;
        }
        final LongArrayList keys = new LongArrayList();
        store.forEachHomeKey(ViewRecords.VIEW, key -> {
            if (ViewRecords.isMembership(key)) {
                keys.addLong(key);
            }
        });
        for (int i = 0; i < keys.size(); i++) {
            final long key = keys.getLong(i);
            final long read = ViewRecords.bits(store.get(key));
            final long vid = GraphKeys.vid(key);
            final long stamp = lock.writeLock();
            try {
                bits.remove(vid);
                if (read != 0) {
                    bits.put(vid, read);
                }
                final LongArrayList ops = seedLog.get(vid);
                for (int j = 0; ops != null && j < ops.size(); j += 2) {
                    apply(vid, (int) ops.getLong(j), ops.getLong(j + 1));
                }
            } finally {
                lock.unlockWrite(stamp);
            }
        }
        final LongArrayList edgeRecords = new LongArrayList();
        store.forEachHomeKey(ViewRecords.VIEW, key -> {
            if (ViewRecords.isEdgeMembership(key)) {
                edgeRecords.addLong(key);
            }
        });
        for (int i = 0; i < edgeRecords.size(); i++) {
            final long outVid = GraphKeys.vid(edgeRecords.getLong(i));
            ViewRecords.forEachEdge(store.get(edgeRecords.getLong(i)),
                (label, number, b) -> edgeHeld(GraphKeys.out(outVid, label), b));
        }
        // Vertices in the log and not in the scan had no record when it listed the keys: their entries, built from
        // nothing by every update since, are right already.
        final long stamp = lock.writeLock();
        try {
            seedLog = null;
            seeded = true;
        } finally {
            lock.unlockWrite(stamp);
        }
    }

    /** Under the write lock: while seeding, keeps the update to apply again over the scan's value. */
    private void log(final long vid, final int op, final long mask) {
        if (seedLog != null) {
            final LongArrayList ops = seedLog.computeIfAbsent(vid, v -> new LongArrayList());
            ops.addLong(op);
            ops.addLong(mask);
        }
    }

    /** Under the write lock. */
    private void apply(final long vid, final int op, final long mask) {
        final long now = ViewRecords.bitsAfter(bits.get(vid), op, mask);
        if (now == 0) {
            bits.remove(vid);
        } else {
            bits.put(vid, now);
        }
    }
}
