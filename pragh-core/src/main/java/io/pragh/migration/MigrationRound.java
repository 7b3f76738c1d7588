package io.pragh.migration;

import io.pragh.PraghException;
import io.pragh.address.Address;
import io.pragh.fabric.OpBatch;
import io.pragh.store.MachineStore;
import io.pragh.values.ValueRecord;

/**
 * The state of the keys in flight in one {@link Migrator} round, indexed by their position in it: where each key's
 * home word and source record are, the copy it is migrated into, what the invalidation's CAS expects, the batch
 * operations posted for it and how far it got. Reused round after round; one per migrator (not thread-safe).
 *
 * <pre>{@code
 * MigrationRound round = new MigrationRound(store, 32);
 * round.fresh[i] = store.values().allocate(units);   // stage 1
 * round.release(i);                                   // the copy was not published
 * }</pre>
 */
final class MigrationRound {
    private final MachineStore store;
    final boolean[] open;
    final int[] homes;
    final int[] sources;
    final long[] addresses;
    final long[] slots;
    /** The allocation each key is copied into (a local address word), or NONE. */
    final long[] fresh;
    /** Whether {@link #fresh} is still marked for the leak scan ({@link io.pragh.store.StoreRegions#trackCopy}). */
    final boolean[] tracked;
    /** The source header each copy was taken with: what the invalidation's CAS expects. */
    final long[] sourceHeaders;
    final long[] desired;
    final int[] invalidations;
    final long[] ringSlots;
    final int[] ops;
    final boolean[] fenced;
    final boolean[] won;
    /**
     * Not before this ({@link io.pragh.reclaim.Leases#nowMillis} time) may the round's new records settle: the latest
     * replica deadline of the sources it invalidated ({@link SourceInvalidation#replicaDeadline}), 0 for none.
     */
    long settleNotBefore;

    MigrationRound(MachineStore store, int depth) {
        this.store = store;
        open = new boolean[depth];
        homes = new int[depth];
        sources = new int[depth];
        addresses = new long[depth];
        slots = new long[depth];
        fresh = new long[depth];
        tracked = new boolean[depth];
        sourceHeaders = new long[depth];
        desired = new long[depth];
        invalidations = new int[depth];
        ringSlots = new long[depth];
        ops = new int[depth];
        fenced = new boolean[depth];
        won = new boolean[depth];
    }

    /** Gives back key {@code i}'s unpublished copy. */
    void release(int i) {
        untrack(i);
        store.values().releaseCopy(fresh[i]);
        fresh[i] = Address.NONE;
    }

    /** Ends the leak scan's hands-off mark of key {@code i}'s copy, if it still has one. */
    void untrack(int i) {
        if (tracked[i]) {
            store.regions().untrackCopy(Address.offsetUnits(fresh[i]));
            tracked[i] = false;
        }
    }

    /** Ends key {@code i}'s part in the round with {@code outcome}. */
    void close(int i, Migrator.Outcome[] outcomes, int base, Migrator.Outcome outcome) {
        open[i] = false;
        outcomes[base + i] = outcome;
    }

    /**
     * Whether the source record of won key {@code i} is invalid after stage 3: its header CAS found the header copied
     * (and replaced it), or a header that is no longer that live allocation (the leak scan invalidated it, and
     * posted it itself). A header that changed while staying that live record (an append in place grew it after the
     * copy, or a local update holds its lock, to find its own CAS lost) goes through {@link SourceInvalidation}:
     * invalidated once no update holds it, with the appended bytes carried over to the new record.
     */
    boolean sourceInvalid(int i, OpBatch batch) {
        long witness = batch.casResult(invalidations[i]);
        if (witness == sourceHeaders[i] || !ValueRecord.isLiveAt(witness, addresses[i])) {
            waitForReplicas(SourceInvalidation.replicaDeadline(store, ValueRecord.isReplicated(witness),
                witness != sourceHeaders[i]));
            return true;
        }
        try {
            int outcome = SourceInvalidation.invalidate(store, sources[i], addresses[i], desired[i], witness);
            if (outcome == SourceInvalidation.BUSY) {
                return false; // the settle pass tries again shortly
            }
            waitForReplicas(SourceInvalidation.replicaDeadline(store,
                outcome == SourceInvalidation.INVALIDATED_REPLICATED, outcome == SourceInvalidation.ALREADY_INVALID));
            if (outcome == SourceInvalidation.INVALIDATED || outcome == SourceInvalidation.INVALIDATED_REPLICATED) {
                // The ring entry of the batch may have reached the GC while the record was still live, and been
                // dropped (see Reclaimer): post it again, now that it is invalid.
                store.reclaimRings().post(sources[i], addresses[i]);
            }
            return true;
        } catch (PraghException e) {
            return false; // a FabricException, or a ring that stayed full (the record is invalid then: leaked)
        }
    }

    private void waitForReplicas(long deadline) {
        settleNotBefore = Math.max(settleNotBefore, deadline);
    }

    /** Waits until the round's new records may settle ({@link #settleNotBefore}), once for all of them; resets it. */
    void awaitSettleTime() {
        store.replication().registry().awaitUntil(settleNotBefore);
        settleNotBefore = 0;
    }
}
