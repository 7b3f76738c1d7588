package io.pragh.migration;

import io.pragh.PraghException;
import io.pragh.address.Address;
import io.pragh.fabric.FabricException;
import io.pragh.fabric.OpBatch;
import io.pragh.fabric.Region;
import io.pragh.memory.ChunkedRegion;
import io.pragh.reclaim.Leases;
import io.pragh.store.InvalidationPendingException;
import io.pragh.store.MachineStore;
import io.pragh.store.Session;
import io.pragh.values.ValueRecord;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * MIGRATE (paper Fig. 6), pipelined as in section 5: unilateral, run by the target machine alone with one-sided
 * operations, for up to {@code depth} keys at once. One round costs three fabric round trips however many keys it
 * carries:
 * <ol>
 *   <li>look up each address (skipped when the location cache has it), allocate locally and READ every value;</li>
 *   <li>check each copy's header, give the copy its own header (this allocation's generation, pending), and CAS
 *       every home's address word from the old address to the new one;</li>
 *   <li>for each won CAS, invalidate the old record with a CAS of its header that expects the header copied (the
 *       paper's WRITE of a zero size, made generation-checked: it can never hit a record that replaced the old one
 *       in the same memory) and post it to its host's reclaim ring with a CAS, both in one batch.</li>
 * </ol>
 * No lease is checked before the CAS: the old address names the source record's allocation by its generation, so a
 * CAS that lands late, after the source was replaced, freed and its memory reused, fails, and a CAS that wins proves
 * the copy was taken from the live record (which nothing changes while it is named, but appends in place: those
 * that land after the copy are carried over when the source is invalidated, see {@link SourceInvalidation}).
 * A lost CAS means a concurrent update won; that key goes round again on the newer value. A key stays inside the
 * invalidation fence from before its CAS until its invalidation completed, so updates of migrated values are
 * acknowledged only once no stale copy can be read. The new record is published with
 * {@link ValueRecord#INVALIDATION_PENDING} set until the source is invalid, and a source that still has the bit set
 * is not moved on (its key waits a round): another machine's later update must not outrun this invalidation.
 *
 * <p>A round that a machine fails part-way leaves the fence, and what it may already have published is finished by
 * {@link UnfinishedMigrations}: the pending bit alone then holds the key's updates back.
 *
 * <p>Not thread-safe: one migrator per migration thread.
 *
 * <pre>{@code
 * Migrator m = new Migrator(store, 32);
 * Migrator.Outcome o = m.migrate(key);           // MIGRATED, ALREADY_LOCAL or ABSENT
 * m.migrateAll(keys, keys.length, outcomes);     // 32 in flight per round
 * }</pre>
 */
public final class Migrator {
    public static final int DEFAULT_DEPTH = 32;
    private static final int MAX_ROUNDS = 10_000;
    private static final long PENDING_PATIENCE_NANOS = 5_000_000_000L;

    /** What a migration did. */
    public enum Outcome {
        MIGRATED, ALREADY_LOCAL, ABSENT,
        /**
         * Not moved: its home put the value back from its log moments ago and holds it there while older records of
         * it may still be read elsewhere ({@code io.pragh.store.PutBackFence}); a later migration may move it.
         */
        HELD
    }

    private final MachineStore store;
    private final Session session;
    /**
     * Created on first use, by the thread that migrates: a batch may belong to the thread that created it (the verbs
     * fabric's does: its queue pairs and completion queue are that thread's), and a migrator is built elsewhere.
     */
    private OpBatch batch;
    private final UnfinishedMigrations unfinished;
    private final int depth;
    private final int self;
    private final long[] single = new long[1];
    private final Outcome[] singleOut = new Outcome[1];

    /** Per in-flight key state of the round, indexed by position in it. */
    private final MigrationRound round;

    private long migrated;
    private long conflicts;
    private long held;
    private long bytesMoved;
    private long rounds;
    /** Keys of the current round whose source still waits for its own predecessor's invalidation. */
    private int waitingOnPending;

    public Migrator(MachineStore store) {
        this(store, DEFAULT_DEPTH);
    }

    public Migrator(MachineStore store, int depth) {
        if (depth < 1) {
            throw new IllegalArgumentException("migration depth must be >= 1, got " + depth);
        }
        this.store = store;
        this.session = store.newSession();
        this.depth = depth;
        this.self = store.id();
        this.unfinished = new UnfinishedMigrations(store);
        this.round = new MigrationRound(store, depth);
    }

    private OpBatch batch() {
        if (batch == null) {
            batch = store.endpoint().newBatch(2 * depth);
        }
        return batch;
    }

    public int depth() {
        return depth;
    }

    public long migrated() {
        return migrated;
    }

    /** CAS conflicts with concurrent updates (and stale copies), each followed by another round for that key. */
    public long conflicts() {
        return conflicts;
    }

    /** Keys left where they were because their home holds them there ({@link Outcome#HELD}). */
    public long held() {
        return held;
    }

    public long bytesMoved() {
        return bytesMoved;
    }

    /** Pipeline rounds run; each costs three fabric round trips. */
    public long rounds() {
        return rounds;
    }

    public Outcome migrate(long key) {
        single[0] = key;
        migrateAll(single, 1, singleOut);
        return singleOut[0];
    }

    /**
     * Migrations that failed rounds left half done ({@link UnfinishedMigrations}): a CAS whose outcome is unknown, or
     * a won CAS whose source record is not yet known invalid (the key's updates wait meanwhile).
     */
    public int unfinishedMigrations() {
        return unfinished.size();
    }

    /**
     * Tries to finish what earlier failed rounds left half done; returns how many are left. Passes are 20 ms apart,
     * further while nothing settles (up to 2 s): a pass may wait on a machine that does not answer. The migration
     * thread calls this between rounds.
     */
    public int settleUnfinished() {
        return unfinished.retry();
    }

    /** Migrates {@code keys[0..n)} to this machine, {@link #depth} at a time; {@code outcomes[i]} tells each result. */
    public void migrateAll(long[] keys, int n, Outcome[] outcomes) {
        for (int base = 0; base < n; base += depth) {
            migrateRound(keys, base, Math.min(depth, n - base), outcomes);
        }
    }

    private void migrateRound(long[] keys, int base, int count, Outcome[] outcomes) {
        for (int i = 0; i < count; i++) {
            round.open[i] = true;
            outcomes[base + i] = null;
        }
        int remaining = count;
        long waitingSince = 0;
        for (int round = 0; remaining > 0; round++) {
            if (round == MAX_ROUNDS) {
                // Updates kept winning: a retry later may pass.
                throw new PraghException("MIGRATE lost its CAS " + MAX_ROUNDS + " rounds in a row");
            }
            rounds++;
            waitingOnPending = 0;
            try {
                readValues(keys, base, count, outcomes);
                casAddresses(keys, base, count, outcomes);
                remaining = invalidateAndReclaim(keys, base, count, outcomes);
            } finally {
                releaseUnfinished(keys, base, count);
            }
            if (waitingOnPending > 0) {
                // A round spent waiting for another operation's invalidation is not a lost CAS: bound it by time.
                round--;
                long now = System.nanoTime();
                if (waitingSince == 0) {
                    waitingSince = now;
                } else if (now - waitingSince > PENDING_PATIENCE_NANOS) {
                    // Retryable, as a GET that waits as long is: the publisher (or the settle pass) clears the bit.
                    throw new InvalidationPendingException("MIGRATE found a source record whose predecessor was"
                        + " still not invalidated after " + (PENDING_PATIENCE_NANOS / 1_000_000) + " ms");
                }
                Thread.yield();
            } else {
                waitingSince = 0;
            }
        }
    }

    /** Stage 1: address (cache or home bucket), local allocation, and one READ per key, all posted together. */
    private void readValues(long[] keys, int base, int count, Outcome[] outcomes) {
        batch().clear();
        ChunkedRegion values = store.values().region();
        for (int i = 0; i < count; i++) {
            round.fresh[i] = Address.NONE;
            round.fenced[i] = false;
            round.ops[i] = -1;
            if (!round.open[i]) {
                continue;
            }
            long key = keys[base + i];
            boolean found = session.locate(key, true);
            if (found && session.home() != self && Address.host(session.address(), session.home()) == self) {
                // A cached address naming this machine may be a copy a later migration moved on and invalidated;
                // only the home's address word says the value is still here (else a migrate-back is dropped).
                found = session.locate(key, false);
            }
            if (!found) {
                round.close(i, outcomes, base, Outcome.ABSENT);
                continue;
            }
            round.homes[i] = session.home();
            round.addresses[i] = session.address();
            round.slots[i] = session.slot();
            round.sources[i] = Address.host(round.addresses[i], round.homes[i]);
            if (round.sources[i] == self) {
                round.close(i, outcomes, base, Outcome.ALREADY_LOCAL);
                continue;
            }
            long units = Address.sizeUnits(round.addresses[i]);
            round.fresh[i] = store.values().allocate(units);
            long offset = Address.byteOffset(round.fresh[i]);
            store.regions().trackCopy(Address.offsetUnits(round.fresh[i]));
            round.tracked[i] = true;
            round.ops[i] = batch().read(round.sources[i], Region.VALUES, Address.byteOffset(round.addresses[i]), values.chunkFor(offset),
                values.indexInChunk(offset), (int) (units << 3));
        }
        batch().awaitAll();
    }

    /** Stage 2: check each copy, then CAS every home's address word (locally when this is the home). */
    private void casAddresses(long[] keys, int base, int count, Outcome[] outcomes) {
        batch().clear();
        ChunkedRegion values = store.values().region();
        for (int i = 0; i < count; i++) {
            if (round.fresh[i] == Address.NONE) {
                continue;
            }
            long key = keys[base + i];
            long offset = Address.byteOffset(round.fresh[i]);
            UnsafeBuffer chunk = values.chunkFor(offset);
            int index = values.indexInChunk(offset);
            if (!ValueRecord.isValid(chunk, index, round.addresses[i], key)) {
                lost(i, key);
                continue;
            }
            long header = chunk.getLong(index);
            if (ValueRecord.isInvalidationPending(header)) {
                // Moving this copy on now could let an update acknowledged after us leave its predecessor readable.
                round.release(i);
                waitingOnPending++;
                continue;
            }
            if ((header & ValueRecord.PUT_BACK) != 0) {
                // Updated here, it could be read around by a machine that still reads an older record of the key.
                round.release(i);
                round.close(i, outcomes, base, Outcome.HELD);
                held++;
                continue;
            }
            round.sourceHeaders[i] = header;
            // The copy's own header: this allocation's generation, pending until the source is invalid. Release: a
            // reader that finds it through the CAS below sees the whole copy.
            chunk.putLongVolatile(index, ValueRecord.headerWord(ValueRecord.payloadLengthOf(header), round.fresh[i])
                | ValueRecord.INVALIDATION_PENDING);
            round.untrack(i);
            round.desired[i] = Address.at(self, round.homes[i], round.fresh[i]);
            store.fence().enter(key);
            round.fenced[i] = true;
            if (round.homes[i] == self && store.regions().localCasAllowed()) {
                round.ops[i] = store.keys().compareAndSetAddress(round.slots[i], round.addresses[i], round.desired[i]) ? -2 : -3;
            } else {
                round.ops[i] = batch().compareAndSwap(round.homes[i], Region.KEYS, round.slots[i], round.addresses[i], round.desired[i]);
            }
        }
        try {
            batch().awaitAll();
        } catch (FabricException e) {
            keepWhatHomesMayName(keys, base, count);
            throw e;
        }
    }

    /**
     * Stage 2 failed for some key, but other CASes of the round may have taken effect, and a failed one may have too:
     * a new record some home may now name must not be freed with the round. Won ones go on as migrations whose source
     * is still to be invalidated; failed ones stay until the home's word tells (see {@link UnfinishedMigrations}).
     */
    private void keepWhatHomesMayName(long[] keys, int base, int count) {
        for (int i = 0; i < count; i++) {
            if (!round.fenced[i] || round.fresh[i] == Address.NONE) {
                continue;
            }
            long key = keys[base + i];
            if (round.ops[i] == -2) {
                unfinished.won(key, round.homes[i], round.slots[i], round.addresses[i], round.desired[i]);
            } else if (round.ops[i] >= 0) {
                long witnessed;
                try {
                    witnessed = batch().casResult(round.ops[i]);
                } catch (IllegalStateException failed) {
                    unfinished.inDoubt(key, round.homes[i], round.slots[i], round.addresses[i], round.desired[i]);
                    round.fresh[i] = Address.NONE;
                    continue;
                }
                if (witnessed != round.addresses[i]) {
                    continue; // lost: the round releases the record
                }
                unfinished.won(key, round.homes[i], round.slots[i], round.addresses[i], round.desired[i]);
            } else {
                continue; // a local CAS that lost
            }
            round.fresh[i] = Address.NONE;
        }
    }

    /** Stage 3: unsignalled invalidation WRITE plus reclaim-ring CAS per won key; returns keys still open. */
    private int invalidateAndReclaim(long[] keys, int base, int count, Outcome[] outcomes) {
        int remaining = 0;
        for (int i = 0; i < count; i++) {
            round.won[i] = round.fenced[i] && (round.ops[i] == -2 || (round.ops[i] >= 0 && batch().casResult(round.ops[i]) == round.addresses[i]));
            if (round.won[i]) {
                round.fresh[i] = Address.NONE; // published: the record now belongs to the key, never release it here
            } else if (round.fenced[i]) {
                store.fence().exit(keys[base + i]);
                round.fenced[i] = false;
                lost(i, keys[base + i]);
            }
        }
        batch().clear();
        for (int i = 0; i < count; i++) {
            if (!round.won[i]) {
                continue;
            }
            long oldOffset = Address.byteOffset(round.addresses[i]);
            round.invalidations[i] = batch().compareAndSwap(round.sources[i], Region.VALUES, oldOffset, round.sourceHeaders[i],
                ValueRecord.invalidated(round.sourceHeaders[i]));
            round.ringSlots[i] = store.reclaimRings().claim(round.sources[i]);
            round.ops[i] = batch().compareAndSwap(round.sources[i], Region.RECLAIM, round.ringSlots[i], 0, round.addresses[i]);
        }
        try {
            batch().awaitAll();
        } catch (FabricException e) {
            // The CASes are won, so the values did move; their sources may still be valid. The keys keep their
            // pending bit until the source is invalidated or the leases make its address unusable.
            for (int i = 0; i < count; i++) {
                if (round.won[i]) {
                    unfinished.won(keys[base + i], round.homes[i], round.slots[i], round.addresses[i], round.desired[i]);
                }
            }
            throw e;
        }
        long now = Leases.nowMillis();
        for (int i = 0; i < count; i++) {
            if (round.won[i] && !round.sourceInvalid(i, batch())) {
                // The source's machine did not answer the second try: the key waits for the settle pass.
                unfinished.won(keys[base + i], round.homes[i], round.slots[i], round.addresses[i], round.desired[i]);
                store.fence().exit(keys[base + i]);
                round.fenced[i] = false;
                round.won[i] = false;
                round.close(i, outcomes, base, Outcome.MIGRATED);
                migrated++;
                bytesMoved += Address.byteSize(round.addresses[i]);
            }
        }
        round.awaitSettleTime();
        for (int i = 0; i < count; i++) {
            if (round.won[i]) {
                long key = keys[base + i];
                // The source is invalid, so whoever sees the pending bit clear may move the value on.
                // With the new record's own length: appends carried over from the source may have grown it.
                long header = store.values().region().getLongVolatile(Address.byteOffset(round.desired[i]));
                store.regions().settled(round.desired[i], ValueRecord.payloadLengthOf(header));
                store.fence().exit(key);
                round.fenced[i] = false;
                if (round.homes[i] != self) {
                    store.cache().insert(key, round.desired[i], round.slots[i], now);
                }
                migrated++;
                bytesMoved += Address.byteSize(round.addresses[i]);
                round.close(i, outcomes, base, Outcome.MIGRATED);
            } else if (round.open[i]) {
                remaining++;
            }
        }
        // Last, once every key of the round is released: a ring that stays full delays only memory, not keys.
        for (int i = 0; i < count; i++) {
            if (round.won[i] && batch().casResult(round.ops[i]) != 0) {
                // A duplicate post (the leak scan invalidated the source first) is harmless: the GC frees only a
                // record that is still the allocation posted and invalid, and once.
                try {
                    store.reclaimRings().postAt(round.sources[i], round.ringSlots[i], round.addresses[i]);
                } catch (PraghException leaked) {
                    // Counted by the rings as leaked; the migration itself is done.
                }
            }
        }
        return remaining;
    }

    /**
     * A stage that threw part-way (a lookup of a machine that is down, a full value region) can leave operations
     * queued but not posted, or posted and unanswered. They are posted and awaited here, whatever they answer: a READ
     * must land before its allocation is freed, and a batch with outstanding operations cannot be cleared, which
     * would fail every later round of this migrator.
     */
    private void settleBatch() {
        if (batch().poll() == 0) {
            return;
        }
        try {
            batch().awaitAll();
        } catch (RuntimeException alreadyFailing) {
            // The round is failing with its own, first error; this one adds nothing the caller can act on.
        }
    }

    private void lost(int i, long key) {
        round.release(i);
        session.dropCached(key, round.addresses[i]);
        conflicts++;
    }

    /** After a failure mid-round: leave no operation outstanding, no fence entered and no unpublished allocation. */
    private void releaseUnfinished(long[] keys, int base, int count) {
        settleBatch();
        for (int i = 0; i < count; i++) {
            if (round.fenced[i]) {
                store.fence().exit(keys[base + i]);
                round.fenced[i] = false;
            }
            if (round.fresh[i] != Address.NONE && round.open[i]) {
                round.release(i);
            }
            if (round.tracked[i]) {
                // Published or handed to the settle pass with its pending header: no longer the migration's to mark.
                round.untrack(i);
            }
        }
    }
}
