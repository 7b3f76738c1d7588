package io.pragh.store;

import io.pragh.PraghException;
import io.pragh.address.Address;
import io.pragh.memory.ChunkedRegion;
import io.pragh.reclaim.Leases;
import io.pragh.values.ValueRecord;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import org.agrona.DirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The host's side of read replicas (docs/replicas.md): which machines hold a copy of a record hosted here, granted
 * on their request, and the writers' duty to make those copies unusable before an update becomes visible.
 *
 * <p>The orderings that keep GET linearizable per key:
 * <ol>
 *   <li>A grant adds the requester to the key's entry (under this object's lock), then CASes the record's header
 *       from a live, unlocked, settled header of the length and version the requester copied to the same header with
 *       {@link ValueRecord#REPLICATED}. An update locks the record by CAS from the header it read
 *       ({@link ValueRecord#LOCKED}): either the grant's CAS came first (the update's lock CAS then reads from it,
 *       so the update sees the entry) or the grant's CAS fails on the lock and the grant is refused.</li>
 *   <li>An update that holds the lock calls {@link #invalidateReplicas} before its new value can be read (before the
 *       new record's pending bit clears, before an append in place publishes its length, before a DELETE
 *       invalidates the record a tombstone leads readers to): each replica's header is invalidated by a
 *       generation-checked CAS on its holder (a refused request leaves its entry for the same reason, and a
 *       holder's late request never replaces the entry of a copy it asked for later: {@link ReplicaHolders}),
 *       whose GET then fails its header check and reads the key's word afresh. The CAS's winner hands the
 *       replica to its holder's GC. A holder that does not answer (or a CAS whose outcome is unknown) is waited
 *       out: no replica is used past its lease plus the reclaim lease.</li>
 *   <li>A machine that (re)starts with replicas on waits the same time before its first update becomes visible:
 *       replicas of its previous life are not in this registry.</li>
 *   <li>{@link ValueRecord#REPLICATED} tells a migration's target, which invalidates the source without asking this
 *       host, to keep the new record pending until no replica granted can be read. A key whose every copy ran out
 *       (each last asked for more than {@link #waitMillis} ago: dropped by its holder, or never renewed) is
 *       forgotten, and the bit cleared on its records ({@link #forgetRunOut}, the keeper thread), so that moving the
 *       value later does not wait 1.5 s for replicas nobody can read. Under this object's lock: a grant adds its
 *       entry under the lock before its CAS sets the bit, so a grant that sets it again after the clear was added
 *       afterwards and is in a new entry; one added before, whose CAS was late, ran out with its request stamp and
 *       only leaves the bit set (a wait that was not needed, never a missed one).</li>
 * </ol>
 *
 * <pre>{@code
 * store.replication().registry().invalidateReplicas(key);   // an update at the host, holding the record's lock
 * }</pre>
 */
public final class ReplicaRegistry {
    private final MachineStore machine;
    /** Per key: the copies (addresses as the home names them) granted or asked for since its last update. */
    private final Long2ObjectHashMap<ReplicaHolders> byKey = new Long2ObjectHashMap<>();
    /** Keys with replicas: a writer reads it without the lock (see {@link #invalidateReplicas}). */
    private volatile int keys;
    /**
     * Updates wait until this plus {@link #waitMillis} for replicas granted of values this machine did not know about:
     * its own start (replicas of a previous life), or the latest {@link #quarantine} (values put back here after
     * their host crashed); 0 when it starts with its cluster ({@link #firstLife}). Volatile: {@link #quarantine} runs
     * on a recovery thread while updates run; it only ever moves forward, so it is never reset.
     */
    private volatile long quarantineStartedAtMillis = Leases.nowMillis();
    private final LongAdder granted = new LongAdder();
    private final LongAdder refused = new LongAdder();
    private final LongAdder invalidated = new LongAdder();
    private final LongAdder leaseWaits = new LongAdder();
    private final LongAdder forgotten = new LongAdder();
    private final LongAdder migrationWaits = new LongAdder();
    private final LongAdder migrationWaitMillis = new LongAdder();

    ReplicaRegistry(MachineStore machine) {
        this.machine = machine;
    }

    /**
     * Handles a REPLICATE message of one record or several ({@link ReplicaMessages}, checked): grants each copy
     * {@code replica} on {@code from} of the record {@code source} hosted here if that record is still live, settled,
     * unlocked and of the copied length and version, and answers them all in one message, in their order.
     */
    void onRequests(int from, DirectBuffer msg, int off, int len) {
        int records = len / ReplicaMessages.REPLICATE_BYTES;
        UnsafeBuffer answers = new UnsafeBuffer(new byte[records * ReplicaMessages.ANSWER_BYTES]);
        for (int i = 0; i < records; i++) {
            int at = off + i * ReplicaMessages.REPLICATE_BYTES;
            long key = msg.getLong(at + ReplicaMessages.KEY);
            long replica = msg.getLong(at + ReplicaMessages.REPLICA);
            boolean ok = grant(from, key, msg.getLong(at + ReplicaMessages.SOURCE), replica,
                msg.getLong(at + ReplicaMessages.VERSION_WORD), msg.getInt(at + ReplicaMessages.LENGTH));
            (ok ? granted : refused).increment();
            ReplicaMessages.putAnswer(answers, i * ReplicaMessages.ANSWER_BYTES, key, replica,
                msg.getLong(at + ReplicaMessages.STAMP), ok);
        }
        machine.send(from, answers, 0, answers.capacity());
    }

    boolean grant(int from, long key, long source, long replica, long versionWord, int length) {
        ReplicaSettings settings = machine.replication().settings();
        int home = machine.placement().home(key);
        if (!settings.enabled() || Address.host(source, home) != machine.id()
            || from == machine.id()) {
            return false;
        }
        ChunkedRegion region = machine.values().region();
        long offset = Address.byteOffset(source);
        UnsafeBuffer chunk = region.chunkFor(offset);
        int index = region.indexInChunk(offset);
        add(key, from, replica, source);
        // Acquire: the key and version words below are the allocation's that this header names; the CAS re-checks it.
        long header = region.getLongVolatile(offset);
        while (ValueRecord.isLiveAt(header, source)
            && (header & (ValueRecord.INVALIDATION_PENDING | ValueRecord.LOCKED | ValueRecord.DELETING)) == 0
            && ValueRecord.payloadLengthOf(header) == length
            && chunk.getLong(index + ValueRecord.KEY_OFFSET) == key
            && chunk.getLong(index + ValueRecord.VERSION_OFFSET) == versionWord) {
            // Volatile CAS, after the entry was added under the lock: an update that locks the record later reads
            // from this CAS and so sees the entry. A CAS from R to R still orders the two.
            long witness = machine.regions().casHeader(machine.id(), offset, header, header | ValueRecord.REPLICATED);
            if (witness == header) {
                return true;
            }
            header = witness;
        }
        // The entry stays: it may be a renewal of a grant whose lease still runs, and an update holding the lock may
        // be about to invalidate the replicas it finds here. A copy already invalid only costs that update a CAS.
        return false;
    }

    /**
     * Makes every replica of {@code key} granted here unusable: called by an update at this host that holds the
     * key's record locked, before its result can be read. Waits out the leases of replicas whose holder does not
     * answer, and, for a while after this machine started, those of its previous life.
     */
    public void invalidateReplicas(long key) {
        ReplicaSettings settings = machine.replication().settings();
        if (!settings.enabled()) {
            return;
        }
        long quarantinedAt = quarantineStartedAtMillis;
        if (quarantinedAt != 0) {
            sleepUntil(quarantinedAt + waitMillis()); // returns at once once it passed
        }
        if (keys == 0) {
            return; // volatile: a grant that took effect before our lock CAS is visible (see the class comment)
        }
        ReplicaHolders holders;
        synchronized (this) {
            holders = byKey.remove(key);
            keys = byKey.size();
        }
        if (holders == null) {
            return;
        }
        for (int i = 0; i < holders.size(); i++) {
            int m = holders.machine(i);
            long replica = holders.address(i);
            try {
                if (machine.regions().invalidateCopy(m, replica, key)) {
                    invalidated.increment();
                    machine.reclaimRings().post(m, replica);
                }
            } catch (PraghException unreachableOrRingFull) {
                // The CAS may not have happened: the holder's lease is what makes the copy unusable now. (A full
                // ring after a won CAS only leaves the memory to its holder's leak scan.)
                leaseWaits.increment();
                sleepUntil(Leases.nowMillis() + waitMillis());
            }
        }
    }

    /**
     * This machine starts together with every other machine of its cluster: no machine holds a replica it granted,
     * so its updates need not wait out a previous life's leases. Called before the machine attaches.
     */
    void firstLife() {
        quarantineStartedAtMillis = 0;
    }

    /**
     * Values this machine did not host until now become its to update (a home putting back the values a crashed host
     * held, {@code io.pragh.durability.PeerLoss}): replicas of them granted by that host are not in this registry, so
     * every update here waits out their leases, until {@link #waitMillis} from now, as a restarted host's first
     * updates do. Called before the first of those values is put back.
     */
    public void quarantine() {
        if (machine.replication().settings().enabled()) {
            // Volatile, before the first value is put back: an update of a put-back value read the restore's
            // (volatile) CAS of its word, and so sees this.
            quarantineStartedAtMillis = Leases.nowMillis();
        }
    }

    /** How long a replica granted before now may still be read: its lease plus the reclaim lease (a copy in flight). */
    public long waitMillis() {
        return machine.replication().settings().leaseMillis() + machine.config().leases().reclaimMillis();
    }

    /**
     * A migration's new records wait until {@code deadlineMillis} ({@link Leases#nowMillis} time; one in the past
     * returns at once) for replicas of their sources (counted: {@link #migrationWaits}).
     */
    public void awaitUntil(long deadlineMillis) {
        long left = deadlineMillis - Leases.nowMillis();
        if (left > 0) {
            migrationWaits.increment();
            migrationWaitMillis.add(left);
            sleepUntil(deadlineMillis);
        }
    }

    /**
     * Forgets every key whose replicas all ran out by {@code nowMillis} (each last asked for more than
     * {@link #waitMillis} before it), and clears {@link ValueRecord#REPLICATED} on the records hosted here that
     * they were copies of, if live and neither locked, pending nor being deleted (a CAS: a concurrent lock, grant or
     * migration's invalidation makes it fail, and the bit is then left, which only costs a wait). Called by the
     * keeper thread every round.
     *
     * @return keys forgotten
     */
    public synchronized int forgetRunOut(long nowMillis) {
        if (keys == 0) {
            return 0;
        }
        long wait = waitMillis();
        int n = 0;
        Long2ObjectHashMap<ReplicaHolders>.ValueIterator it = byKey.values().iterator();
        while (it.hasNext()) {
            ReplicaHolders holders = it.next();
            if (!holders.allRanOut(nowMillis, wait)) {
                continue;
            }
            // Still under the lock: a grant adding a copy now waits, and its CAS then sets the bit again.
            for (int i = 0; i < holders.size(); i++) {
                clearReplicated(holders.source(i));
            }
            it.remove();
            n++;
        }
        keys = byKey.size();
        forgotten.add(n);
        return n;
    }

    /** Clears the bit on {@code source}, a record of this machine's ({@link #grant} adds no other). */
    private void clearReplicated(long source) {
        if (!machine.regions().localCasAllowed()) {
            // A loopback CAS may land after its issuer gave up (a fault), outside the lock, on a header a newer
            // grant set R on again (the same word): R would be lost with a copy readable. Leave R: only a wait.
            return;
        }
        long offset = Address.byteOffset(source);
        long header = machine.values().region().getLongVolatile(offset);
        while (ValueRecord.isLiveAt(header, source) && ValueRecord.isReplicated(header)
            && (header & (ValueRecord.INVALIDATION_PENDING | ValueRecord.LOCKED | ValueRecord.DELETING)) == 0) {
            long witness = machine.regions().casHeader(machine.id(), offset, header, header & ~ValueRecord.REPLICATED);
            if (witness == header) {
                return;
            }
            header = witness;
        }
    }

    private static void sleepUntil(long deadlineMillis) {
        long left;
        while ((left = deadlineMillis - Leases.nowMillis()) > 0) {
            LockSupport.parkNanos(left * 1_000_000L);
        }
    }

    private synchronized void add(long key, int from, long replica, long source) {
        ReplicaHolders holders = byKey.get(key);
        if (holders == null) {
            holders = new ReplicaHolders();
            byKey.put(key, holders);
        }
        holders.add(from, replica, source, Leases.nowMillis(), waitMillis());
        keys = byKey.size();
    }

    /** Keys with replicas granted here and not yet invalidated. */
    public int replicatedKeys() {
        return keys;
    }

    public long granted() {
        return granted.sum();
    }

    public long refused() {
        return refused.sum();
    }

    /** Replicas invalidated here by updates of their value. */
    public long invalidated() {
        return invalidated.sum();
    }

    /** Keys forgotten because every replica of theirs ran out ({@link #forgetRunOut}). */
    public long forgotten() {
        return forgotten.sum();
    }

    /** Migrations (rounds) whose new records waited for the replicas of their sources ({@link #awaitUntil}). */
    public long migrationWaits() {
        return migrationWaits.sum();
    }

    /** The time those waits were to last, in total, in milliseconds. */
    public long migrationWaitMillis() {
        return migrationWaitMillis.sum();
    }

    /** Updates that waited out a replica's lease because its holder did not answer. */
    public long leaseWaits() {
        return leaseWaits.sum();
    }
}
