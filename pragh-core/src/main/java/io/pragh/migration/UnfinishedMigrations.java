package io.pragh.migration;

import io.pragh.PraghException;
import io.pragh.address.Address;
import io.pragh.fabric.Region;
import io.pragh.memory.ChunkedRegion;
import io.pragh.reclaim.Leases;
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
 *       record was never published and goes back through this machine's reclaim ring. Freeing it with the round, as
 *       rounds did before, could free the very record the home then named.</li>
 *   <li><b>won</b>: the CAS took effect but the source record may still be valid, so the key's updates wait on the
 *       pending bit: the source could still serve the old value to a reader holding its address. The bit is cleared
 *       once the reclaim lease has passed since the CAS, because no reader accepts an address older than that lease
 *       (the same rule that lets memory be reused); the old record is then the source's leak scan's to reclaim.
 *       Sooner, when the home still names the new record and the source answers, the old record is invalidated
 *       directly: a CAS of its header, only if it still holds the copy this machine took (same header, key and
 *       version), then a post to the source's reclaim ring.</li>
 * </ul>
 * Nothing here trusts a membership service's verdict that a machine died: a machine presumed dead may still serve.
 *
 * <p>Not thread-safe: owned by one {@link Migrator}. Rare (a crash or a timeout mid-round), so an object per entry.
 *
 * <pre>{@code
 * unfinished.inDoubt(key, home, slot, oldAddress, desired, obtainedAt);   // a CAS failed
 * unfinished.won(key, home, slot, oldAddress, desired);                    // a CAS won, its source not invalidated
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
        /** In doubt: when the round read the old address. Won: a time at or after the CAS. */
        long sinceMillis;
        boolean won;

        Entry(long key, int home, long slot, long oldAddress, long desired, long sinceMillis, boolean won) {
            this.key = key;
            this.home = home;
            this.slot = slot;
            this.oldAddress = oldAddress;
            this.desired = desired;
            this.sinceMillis = sinceMillis;
            this.won = won;
        }

        int source() {
            return Address.host(oldAddress, home);
        }
    }

    private final MachineStore store;
    private final List<Entry> entries = new ArrayList<>();
    private final UnsafeBuffer scratch = new UnsafeBuffer(new byte[ValueRecord.HEADER_BYTES]);
    /** Machines that failed an operation in the current pass: the pass asks them nothing more. */
    private final boolean[] failedThisPass;
    private long nextAttemptNanos;
    private long periodNanos = MIN_PERIOD_NANOS;

    UnfinishedMigrations(MachineStore store) {
        this.store = store;
        this.failedThisPass = new boolean[store.machineCount()];
    }

    /** A round whose CAS of the home's word from {@code oldAddress} to {@code desired} failed, outcome unknown. */
    void inDoubt(long key, int home, long slot, long oldAddress, long desired, long obtainedAtMillis) {
        entries.add(new Entry(key, home, slot, oldAddress, desired, obtainedAtMillis, false));
    }

    /** A round that won its CAS but may have left the source record at {@code oldAddress} valid. */
    void won(long key, int home, long slot, long oldAddress, long desired) {
        entries.add(new Entry(key, home, slot, oldAddress, desired, Leases.nowMillis(), true));
    }

    int size() {
        return entries.size();
    }

    /** Tries every entry, unless the last pass was too recent; returns how many are left. */
    int retry() {
        if (entries.isEmpty()) {
            return 0;
        }
        if (System.nanoTime() - nextAttemptNanos < 0) {
            return entries.size();
        }
        java.util.Arrays.fill(failedThisPass, false);
        int before = entries.size();
        entries.removeIf(this::finish);
        periodNanos = entries.size() < before ? MIN_PERIOD_NANOS : Math.min(MAX_PERIOD_NANOS, 2 * periodNanos);
        nextAttemptNanos = System.nanoTime() + periodNanos;
        return entries.size();
    }

    private enum Doubt { WAIT, WON, NEVER_PUBLISHED }

    /** Whether the entry is done with; never throws, so that one entry cannot stop the others or the thread. */
    private boolean finish(Entry e) {
        try {
            if (!e.won) {
                Doubt d = settleDoubt(e);
                if (d == Doubt.WAIT) {
                    return false;
                }
                if (d == Doubt.NEVER_PUBLISHED) {
                    return true;
                }
            }
            return finishWon(e);
        } catch (RuntimeException failure) {
            return false; // a machine that did not answer (marked in failedThisPass), or a full ring: next pass
        }
    }

    /** In doubt: whether the CAS took effect (the entry becomes a won one), never will, or cannot be told yet. */
    private Doubt settleDoubt(Entry e) {
        if (e.home != store.id() && failedThisPass[e.home]) {
            return Doubt.WAIT;
        }
        if (homeWord(e) == e.desired) {
            e.won = true;
            e.sinceMillis = Leases.nowMillis(); // the CAS happened at the latest now
            return Doubt.WON;
        }
        if (store.config().leases().reclaimHolds(e.sinceMillis)) {
            return Doubt.WAIT; // a CAS still in flight could land until the lease is over
        }
        // Never published. Zeroed by CAS first, as the leak scan does: if the scan already took it, it is the scan's.
        long published = Address.byteOffset(e.desired);
        ChunkedRegion values = store.values().region();
        long header = values.getLongVolatile(published);
        if (values.getLong(published + ValueRecord.KEY_OFFSET) == e.key && header != 0
            && values.compareAndSetLong(published, header, 0)) {
            store.reclaimRings().post(store.id(), e.desired);
        }
        return Doubt.NEVER_PUBLISHED;
    }

    /** Won: true once the pending bit is cleared (or the record is no longer this key's); false to wait. */
    private boolean finishWon(Entry e) {
        long published = Address.byteOffset(e.desired);
        ChunkedRegion values = store.values().region();
        long header = values.getLongVolatile(published);
        if (!ValueRecord.isInvalidationPending(header)
            || values.getLong(published + ValueRecord.KEY_OFFSET) != e.key) {
            return true; // crash recovery took the record back (its home reloaded the key): nothing left to guard
        }
        if (store.config().leases().reclaimHolds(e.sinceMillis) && !invalidatedSource(e, header)) {
            return false;
        }
        // Release, as the round's own clear: whoever sees the bit clear sees the source invalid, or unusable.
        values.compareAndSetLong(published, header, header & ~ValueRecord.INVALIDATION_PENDING);
        return true;
    }

    /**
     * Within the lease, the fast way: if the home still names the new record, zero the source record's header by CAS
     * when it still holds the copy this machine took (same header, key and version) and post it to the source's
     * reclaim ring. A source record that changed was invalidated or reclaimed by someone else (its leak scan), or its
     * machine restarted: either way no reader can take it for the value. False when a machine did not answer, or
     * the home names something else (a restarted home reloaded the key: the lease decides then).
     */
    private boolean invalidatedSource(Entry e, long header) {
        int source = e.source();
        if (failedThisPass[source] || (e.home != store.id() && failedThisPass[e.home])) {
            return false;
        }
        if (homeWord(e) != e.desired) {
            return false;
        }
        long copiedHeader = header & ~ValueRecord.INVALIDATION_PENDING;
        long copiedVersion =
            store.values().region().getLong(Address.byteOffset(e.desired) + ValueRecord.VERSION_OFFSET);
        long offset = Address.byteOffset(e.oldAddress);
        try {
            store.endpoint().read(source, Region.VALUES, offset, scratch, 0, ValueRecord.HEADER_BYTES);
            if (scratch.getLong(0) != copiedHeader || scratch.getLong(ValueRecord.KEY_OFFSET) != e.key
                || scratch.getLong(ValueRecord.VERSION_OFFSET) != copiedVersion) {
                return true;
            }
            if (store.endpoint().compareAndSwap(source, Region.VALUES, offset, copiedHeader, 0) != copiedHeader) {
                return true;
            }
        } catch (RuntimeException down) {
            failedThisPass[source] = true;
            throw down;
        }
        try {
            store.reclaimRings().post(source, e.oldAddress);
        } catch (PraghException ringFullOrSourceGone) {
            // The record is invalid, which is what the key waits for; only its memory is not given back (a full
            // ring counts it as leaked).
        }
        return true;
    }

    private long homeWord(Entry e) {
        if (e.home == store.id()) {
            return store.keys().address(e.slot);
        }
        try {
            store.endpoint().read(e.home, Region.KEYS, e.slot, scratch, 0, 8);
        } catch (RuntimeException down) {
            failedThisPass[e.home] = true;
            throw down;
        }
        return scratch.getLong(0);
    }
}
