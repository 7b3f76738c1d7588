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
 *       may have applied it before its connection broke, or may still apply it). The new record stays allocated,
 *       its pending bit set (so the leak scan leaves it alone), until the home's word is read again: if it names the
 *       new record the CAS took effect and the migration goes on as won; if it names neither the new record nor the
 *       old one, the CAS never will take effect (the word never returns to an allocation it left: addresses carry
 *       generations), so the record was never published and is invalidated and handed to this machine's GC; if it
 *       still names the old one, the same CAS is made again and its witness decides. No lease is assumed to bound
 *       how late the first CAS may land.</li>
 *   <li><b>won</b>: the CAS took effect but the source record may still be valid, so the key's updates wait on the
 *       pending bit: the source could still serve the old value to a reader holding its address. When the home still
 *       names the new record and the source answers, the old record is invalidated directly: a CAS of its header
 *       that succeeds only while it is still the allocation copied (same generation) and live, then a post to the
 *       source's reclaim ring, after the appends made in place on the source since the copy are carried over
 *       ({@link SourceInvalidation}). Failing that, the bit is cleared once the cache and reclaim leases have passed
 *       since the CAS, because no reader acts on an address older than that ({@code Leases#addressHolds}); the old
 *       record is then the source's leak scan's to reclaim. Not so for a source at the key's home with room to grow:
 *       an appender there that found it through an address read before the CAS may have grown it and been
 *       acknowledged, so the key waits (its GETs and updates fail retryably) until the home answers, or names
 *       another record (a home that restarted reloaded the key from its log, those appends included).</li>
 * </ul>
 * Every free here is generation-checked: a record the leak scan or anyone else already invalidated, or whose slot
 * holds another allocation now, is left alone.
 * Nothing here trusts a membership service's verdict that a machine died: a machine presumed dead may still serve.
 *
 * <p>Not thread-safe: owned by one {@link Migrator}. Rare (a crash or a timeout mid-round), so an object per entry.
 *
 * <pre>{@code
 * unfinished.inDoubt(key, home, slot, oldAddress, desired);   // a CAS failed
 * unfinished.won(key, home, slot, oldAddress, desired);       // a CAS won, its source not invalidated
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
        /** Won: a time at or after the CAS. */
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
    private final UnsafeBuffer scratch = new UnsafeBuffer(new byte[8]);
    /** Machines that failed an operation in the current pass: the pass asks them nothing more. */
    private final boolean[] failedThisPass;
    private long nextAttemptNanos;
    private long periodNanos = MIN_PERIOD_NANOS;

    UnfinishedMigrations(MachineStore store) {
        this.store = store;
        this.failedThisPass = new boolean[store.machineCount()];
    }

    /** A round whose CAS of the home's word from {@code oldAddress} to {@code desired} failed, outcome unknown. */
    void inDoubt(long key, int home, long slot, long oldAddress, long desired) {
        entries.add(new Entry(key, home, slot, oldAddress, desired, 0, false));
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
        long word = homeWord(e);
        boolean won = word == e.desired;
        if (word == e.oldAddress) {
            // The first CAS has not landed (or is still on its way): make it again; the word then says which won.
            won = casHomeWord(e) || homeWord(e) == e.desired;
        }
        if (won) {
            e.won = true;
            e.sinceMillis = Leases.nowMillis(); // the CAS happened at the latest now
            return Doubt.WON;
        }
        // Never published, and never will be. Generation-checked: if it is no longer this live allocation, someone
        // else already took it, and it is not theirs to lose.
        if (store.invalidate(store.id(), e.desired)) {
            store.reclaimRings().post(store.id(), e.desired);
        }
        return Doubt.NEVER_PUBLISHED;
    }

    /** Won: true once the pending bit is cleared (or the record is no longer this key's); false to wait. */
    private boolean finishWon(Entry e) {
        long published = Address.byteOffset(e.desired);
        ChunkedRegion values = store.values().region();
        long header = values.getLongVolatile(published);
        if (!ValueRecord.isInvalidationPending(header) || !ValueRecord.isLiveAt(header, e.desired)
            || values.getLong(published + ValueRecord.KEY_OFFSET) != e.key) {
            return true; // crash recovery took the record back (its home reloaded the key): nothing left to guard
        }
        if (ValueRecord.isDeleting(header)) {
            return true; // settled already: a DELETE marks only a settled record, and the pending bit is its own
        }
        // With replicas on, longer than a cached address's leases: a source left live is granted renewals of copies.
        boolean leasesPassed = Leases.nowMillis() - e.sinceMillis >= store.replication().orphanWaitMillis();
        // A source at the key's home with room to grow may have taken appends in place after the CAS: however long
        // the home takes to answer, they are carried over before the bit clears, unless the home no longer names the
        // new record (it restarted and reloaded the key from its log, appends included). A source elsewhere never
        // grows.
        boolean mayHaveGrown = e.source() == e.home
            && ValueRecord.capacityOf(header) > ValueRecord.payloadLengthOf(header);
        if ((!leasesPassed || (mayHaveGrown && homeWord(e) == e.desired)) && !invalidatedSource(e)) {
            return false;
        }
        header = values.getLongVolatile(published); // appends carried over from the source may have grown it
        // Release, as the round's own clear: whoever sees the bit clear sees the source invalid, or unusable.
        store.regions().casHeader(store.id(), published, header, header & ~ValueRecord.INVALIDATION_PENDING);
        return true;
    }

    /**
     * Within the leases, the fast way: if the home still names the new record, invalidate the source record by a
     * generation-checked CAS of its header and post it to the source's reclaim ring. A source record that is no
     * longer that live allocation was invalidated or reclaimed by someone else (its leak scan), or its machine
     * restarted: either way no reader can take it for the value. False when a machine did not answer, or the home
     * names something else (a restarted home reloaded the key: the leases decide then).
     */
    private boolean invalidatedSource(Entry e) {
        int source = e.source();
        if (failedThisPass[source] || (e.home != store.id() && failedThisPass[e.home])) {
            return false;
        }
        if (homeWord(e) != e.desired) {
            return false;
        }
        int outcome;
        try {
            // Carries over what appends in place added to the source since the copy, before the bit clears.
            outcome = SourceInvalidation.invalidate(store, source, e.oldAddress, e.desired, 0);
        } catch (io.pragh.fabric.FabricException down) {
            failedThisPass[source] = true;
            throw down;
        }
        if (outcome == SourceInvalidation.BUSY) {
            return false;
        }
        SourceInvalidation.awaitReplicas(store, outcome == SourceInvalidation.INVALIDATED_REPLICATED,
            outcome == SourceInvalidation.ALREADY_INVALID);
        if (outcome == SourceInvalidation.INVALIDATED || outcome == SourceInvalidation.INVALIDATED_REPLICATED) {
            try {
                store.reclaimRings().post(source, e.oldAddress);
            } catch (PraghException ringFullOrSourceGone) {
                // The record is invalid, which is what the key waits for; only its memory is not given back (a full
                // ring counts it as leaked).
            }
        }
        return true;
    }

    /** CAS of the home's word from the old address to the new one, again; whether it took effect now. */
    private boolean casHomeWord(Entry e) {
        try {
            return store.regions().casAddress(e.home, e.slot, e.oldAddress, e.desired);
        } catch (RuntimeException down) {
            if (e.home != store.id()) {
                failedThisPass[e.home] = true;
            }
            throw down;
        }
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
