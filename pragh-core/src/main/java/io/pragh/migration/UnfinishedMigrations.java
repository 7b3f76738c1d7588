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
 * Migrations that a failed round left half done, finished later on the migration thread. A round fails part-way when
 * a machine stops answering, and two states outlive it:
 * <ul>
 *   <li><b>in doubt</b>: the CAS on the home's address word failed, so whether it took effect is unknown (the home
 *       may have applied it before its connection broke). The new record stays allocated, its pending bit set, until
 *       the home's word is read again: if it names the new record the CAS did take effect and the migration goes on
 *       as won; if it does not once the reclaim lease has passed (no CAS of the round can land later than that), the
 *       record was never published and is freed. Freeing it at once, as rounds did before, could free the very
 *       record the home then named.</li>
 *   <li><b>won</b>: the CAS took effect but the source record was not invalidated. The key's updates wait on the
 *       pending bit meanwhile, since the source may still serve the old value to a reader holding its address. The
 *       source record is invalidated by a CAS of its header once the source answers, and only if it still holds the
 *       copy this machine took (the source's own leak scan may have reclaimed it meanwhile); then it is posted to the
 *       source's reclaim ring. If crash recovery reports the source lost ({@link MachineStore#peerLost}), its memory
 *       is gone and nothing needs invalidating. Either way the pending bit is then cleared.</li>
 * </ul>
 *
 * <p>Not thread-safe: owned by one {@link Migrator}. Rare (a crash or a timeout mid-round), so an object per entry.
 *
 * <pre>{@code
 * unfinished.inDoubt(key, home, slot, oldAddress, desired, obtainedAt);   // stage 2 failed
 * unfinished.won(key, oldAddress, desired);                                // stage 3 failed
 * int left = unfinished.retry();                                           // later, on the same thread
 * }</pre>
 */
final class UnfinishedMigrations {
    /**
     * Between two passes, doubling while a pass finishes nothing: a machine that is down is not asked a thousand
     * times a second, and asking one that does not answer can block the migration thread for a connect timeout.
     */
    private static final long MIN_PERIOD_NANOS = 20_000_000L;
    private static final long MAX_PERIOD_NANOS = 2_000_000_000L;

    private static final class Entry {
        final long key;
        final int home;
        final long slot;
        final long oldAddress;
        final long desired;
        final long obtainedAtMillis;
        final int source;
        final long sourceLosses;
        boolean casTookEffect;

        Entry(long key, int home, long slot, long oldAddress, long desired, long obtainedAtMillis, int source,
              long sourceLosses, boolean casTookEffect) {
            this.key = key;
            this.home = home;
            this.slot = slot;
            this.oldAddress = oldAddress;
            this.desired = desired;
            this.obtainedAtMillis = obtainedAtMillis;
            this.source = source;
            this.sourceLosses = sourceLosses;
            this.casTookEffect = casTookEffect;
        }
    }

    private final MachineStore store;
    private final List<Entry> entries = new ArrayList<>();
    private final UnsafeBuffer scratch = new UnsafeBuffer(new byte[ValueRecord.HEADER_BYTES]);
    private long nextAttemptNanos;
    private long periodNanos = MIN_PERIOD_NANOS;
    private long finished;

    UnfinishedMigrations(MachineStore store) {
        this.store = store;
    }

    /** A round whose CAS of the home's word from {@code oldAddress} to {@code desired} failed, outcome unknown. */
    void inDoubt(long key, int home, long slot, long oldAddress, long desired, long obtainedAtMillis) {
        int source = Address.host(oldAddress, home);
        entries.add(new Entry(key, home, slot, oldAddress, desired, obtainedAtMillis, source,
            store.peerLosses(source), false));
    }

    /** A round that won its CAS but may have left the source record at {@code oldAddress} valid. */
    void won(long key, int home, long oldAddress, long desired) {
        int source = Address.host(oldAddress, home);
        entries.add(new Entry(key, home, -1, oldAddress, desired, 0, source, store.peerLosses(source), true));
    }

    int size() {
        return entries.size();
    }

    /** Entries finished so far. */
    long finished() {
        return finished;
    }

    /** Tries every entry, unless the last pass was too recent; returns how many are left. */
    int retry() {
        if (entries.isEmpty()) {
            return 0;
        }
        if (System.nanoTime() - nextAttemptNanos < 0) {
            return entries.size();
        }
        int before = entries.size();
        entries.removeIf(this::finish);
        periodNanos = entries.size() < before ? MIN_PERIOD_NANOS : Math.min(MAX_PERIOD_NANOS, 2 * periodNanos);
        nextAttemptNanos = System.nanoTime() + periodNanos;
        return entries.size();
    }

    /** Whether the entry is done with. */
    private boolean finish(Entry e) {
        long published = Address.byteOffset(e.desired);
        if (!e.casTookEffect) {
            long word;
            try {
                word = homeWord(e);
            } catch (FabricException homeDown) {
                return false;
            }
            if (word != e.desired) {
                if (store.config().leases().reclaimHolds(e.obtainedAtMillis)) {
                    return false; // a CAS still in flight could land until the lease is over
                }
                store.values().free(Address.offsetUnits(e.desired), Address.sizeUnits(e.desired));
                finished++;
                return true;
            }
            e.casTookEffect = true;
        }
        ChunkedRegion values = store.values().region();
        long header = values.getLongVolatile(published);
        if (!ValueRecord.isInvalidationPending(header)
            || values.getLong(published + ValueRecord.KEY_OFFSET) != e.key) {
            finished++;
            return true; // crash recovery took the record back (its home reloaded the key): nothing left to guard
        }
        if (store.peerLosses(e.source) == e.sourceLosses) {
            if (!store.endpoint().isReachable(e.source)) {
                return false;
            }
            try {
                invalidateSource(e, header & ~ValueRecord.INVALIDATION_PENDING,
                    values.getLong(published + ValueRecord.VERSION_OFFSET));
            } catch (FabricException stillDown) {
                return false;
            }
        }
        // Release, as the round's own clear: whoever sees the bit clear sees the source invalid (or gone).
        values.compareAndSetLong(published, header, header & ~ValueRecord.INVALIDATION_PENDING);
        finished++;
        return true;
    }

    private long homeWord(Entry e) {
        if (e.home == store.id()) {
            return store.keys().address(e.slot);
        }
        store.endpoint().read(e.home, Region.KEYS, e.slot, scratch, 0, 8);
        return scratch.getLong(0);
    }

    /**
     * Zeroes the source record's header by CAS if it still holds the copy this machine took (same header, key and
     * version), and posts it to the source's reclaim ring. A record that changed was invalidated or reclaimed by
     * someone else (the source's leak scan), and is not this machine's to post.
     */
    private void invalidateSource(Entry e, long copiedHeader, long copiedVersion) {
        long offset = Address.byteOffset(e.oldAddress);
        store.endpoint().read(e.source, Region.VALUES, offset, scratch, 0, ValueRecord.HEADER_BYTES);
        if (scratch.getLong(0) != copiedHeader || scratch.getLong(ValueRecord.KEY_OFFSET) != e.key
            || scratch.getLong(ValueRecord.VERSION_OFFSET) != copiedVersion) {
            return;
        }
        if (store.endpoint().compareAndSwap(e.source, Region.VALUES, offset, copiedHeader, 0) != copiedHeader) {
            return;
        }
        try {
            store.reclaimRings().post(e.source, e.oldAddress);
        } catch (PraghException ringFullOrSourceGone) {
            // The record is invalid, which is what the key waits for; only its memory is not given back (a full
            // ring counts it as leaked).
        }
    }
}
