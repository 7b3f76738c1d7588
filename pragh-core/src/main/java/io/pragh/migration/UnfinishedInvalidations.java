package io.pragh.migration;

import io.pragh.PraghException;
import io.pragh.address.Address;
import io.pragh.fabric.FabricException;
import io.pragh.fabric.Region;
import io.pragh.memory.ChunkedRegion;
import io.pragh.store.MachineStore;
import io.pragh.values.ValueRecord;
import java.util.ArrayList;
import java.util.List;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Migrations that won their CAS but could not invalidate the source record, because the source stopped answering in
 * the round's last stage. Their new records keep {@link ValueRecord#INVALIDATION_PENDING} set, so nobody updates or
 * moves those keys on: the source may still serve the old value to a reader holding its address. Each is finished
 * later, on the migration thread, in one of two ways:
 * <ul>
 *   <li>the source answers again: its old record is invalidated by a CAS of its header, but only if it still holds
 *       this key's copy (the source's own leak scan may have reclaimed it meanwhile), and then posted to the
 *       source's reclaim ring;</li>
 *   <li>crash recovery reports the source lost ({@link MachineStore#peerLost}): its memory is gone, so no stale copy
 *       can be read.</li>
 * </ul>
 * Either way the pending bit is then cleared, and updates of the key go ahead. Before, it stayed set for good after a
 * source crashed mid-round, and every later update of the key failed.
 *
 * <p>Not thread-safe: owned by one {@link Migrator}. Rare (a crash or a timeout mid-round), so a small object per
 * entry.
 *
 * <pre>{@code
 * unfinished.add(key, source, oldAddress, publishedOffset);   // the round's stage 3 failed
 * int left = unfinished.retry();                               // later, on the same thread
 * }</pre>
 */
final class UnfinishedInvalidations {
    /** Between two attempts on sources that did not answer: a dead peer is not asked a thousand times a second. */
    private static final long RETRY_PERIOD_NANOS = 20_000_000L;

    private record Entry(long key, int source, long oldAddress, long publishedOffset, long sourceLosses) {
    }

    private final MachineStore store;
    private final List<Entry> entries = new ArrayList<>();
    private final UnsafeBuffer sourceHeader = new UnsafeBuffer(new byte[ValueRecord.HEADER_BYTES]);
    private long nextAttemptNanos;
    private long finished;

    UnfinishedInvalidations(MachineStore store) {
        this.store = store;
    }

    /** A won migration whose source record at {@code oldAddress} may still be valid. */
    void add(long key, int source, long oldAddress, long publishedOffset) {
        entries.add(new Entry(key, source, oldAddress, publishedOffset, store.peerLosses(source)));
    }

    int size() {
        return entries.size();
    }

    /** Entries finished so far. */
    long finished() {
        return finished;
    }

    /** Tries every entry (at most once per retry period); returns how many are left. */
    int retry() {
        if (entries.isEmpty()) {
            return 0;
        }
        long now = System.nanoTime();
        if (now - nextAttemptNanos < 0) {
            return entries.size();
        }
        nextAttemptNanos = now + RETRY_PERIOD_NANOS;
        entries.removeIf(this::finish);
        return entries.size();
    }

    /** Whether the entry is done with: its source record invalid or gone, and the pending bit cleared. */
    private boolean finish(Entry e) {
        ChunkedRegion values = store.values().region();
        long header = values.getLongVolatile(e.publishedOffset());
        if (!ValueRecord.isInvalidationPending(header)
            || values.getLong(e.publishedOffset() + ValueRecord.KEY_OFFSET) != e.key()) {
            return true; // crash recovery took the record back (its home reloaded the key): nothing left to guard
        }
        if (store.peerLosses(e.source()) == e.sourceLosses()) {
            if (!store.endpoint().isReachable(e.source())) {
                return false;
            }
            try {
                invalidateSource(e, header & ~ValueRecord.INVALIDATION_PENDING,
                    values.getLong(e.publishedOffset() + ValueRecord.VERSION_OFFSET));
            } catch (FabricException stillDown) {
                return false;
            }
        }
        // Release, as the round's own clear: whoever sees the bit clear sees the source invalid (or gone).
        values.compareAndSetLong(e.publishedOffset(), header, header & ~ValueRecord.INVALIDATION_PENDING);
        finished++;
        return true;
    }

    /**
     * Zeroes the source record's header by CAS if it still holds the copy this machine took (same header, key and
     * version), and posts it to the source's reclaim ring. A record that changed was invalidated or reclaimed by
     * someone else (the source's leak scan), and is not this machine's to post.
     */
    private void invalidateSource(Entry e, long copiedHeader, long copiedVersion) {
        long offset = Address.byteOffset(e.oldAddress());
        store.endpoint().read(e.source(), Region.VALUES, offset, sourceHeader, 0, ValueRecord.HEADER_BYTES);
        if (sourceHeader.getLong(0) != copiedHeader || sourceHeader.getLong(ValueRecord.KEY_OFFSET) != e.key()
            || sourceHeader.getLong(ValueRecord.VERSION_OFFSET) != copiedVersion) {
            return;
        }
        if (store.endpoint().compareAndSwap(e.source(), Region.VALUES, offset, copiedHeader, 0) != copiedHeader) {
            return;
        }
        try {
            store.reclaimRings().post(e.source(), e.oldAddress());
        } catch (PraghException ringFullOrSourceGone) {
            // The record is invalid, which is what the key waits for; only its memory is not given back (a full
            // ring counts it as leaked).
        }
    }
}
