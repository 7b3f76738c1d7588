package io.pragh.store;

import io.pragh.address.Address;
import io.pragh.cache.LocationCache;
import io.pragh.fabric.FabricException;
import io.pragh.fabric.Region;
import io.pragh.keys.KeyRegion;
import io.pragh.reclaim.Leases;
import io.pragh.values.ValueRecord;
import java.util.concurrent.locks.LockSupport;
import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One thread's view of its machine: LOOKUP and GET of paper Fig. 8 with their scratch buffers, so that a GET
 * allocates nothing. A session is not thread-safe; each worker, migration and delivery thread owns one.
 *
 * <pre>{@code
 * Session s = machine.session();
 * ValueView v = s.get(key);          // null when the key has no value
 * }</pre>
 */
public final class Session {
    /** A GET that keeps finding stale addresses this often is a bug, not contention: fail loudly. */
    private static final int MAX_ATTEMPTS = 1_000_000;
    /**
     * Times in a row the home's own address word, read afresh, may name the same invalid record before a GET gives
     * up with a {@link StaleAddressException}: a word that an update or migration replaced names a new record at
     * once, so a word that keeps naming memory without the key is not contention but memory lost or reused (a host
     * that restarted before the key's home put the value back).
     */
    static final int STALE_REPEATS = 3;

    /** Outcomes of {@link #lookUpHere} and {@link #lookUpInBucket}. */
    static final int FOUND = 0;
    static final int MISSING = 1;
    static final int READ_BUCKET = 2;
    /** Verdicts of {@link #check} on a copied record. */
    static final int ACCEPTED = 0;
    static final int SETTLING = 1;
    static final int REJECTED = 2;

    private final MachineStore machine;
    /** How long a GET waits for a record's pending invalidation before it gives up, retryably. */
    static final long PENDING_PATIENCE_NANOS = 5_000_000_000L;
    /** Re-reads of a pending bit with a yield between them before a GET parks between re-reads instead. */
    private static final int PENDING_YIELDS = 1_000;
    private static final long PENDING_PARK_NANOS = 100_000;

    private final UnsafeBuffer headerWord = new UnsafeBuffer(BufferUtil.allocateDirectAligned(8, 8));
    private final UnsafeBuffer bucket = new UnsafeBuffer(BufferUtil.allocateDirectAligned(KeyRegion.BUCKET_BYTES, 64));
    private UnsafeBuffer record = new UnsafeBuffer(BufferUtil.allocateDirectAligned(4096, 64));
    private final LocationCache.Hit hit = new LocationCache.Hit();
    private final ValueView view = new ValueView();

    private BatchGet batchGet;

    /** Receives the values of {@link #getAll}; the view is valid only during the call, null when absent. */
    @FunctionalInterface
    public interface ValueVisitor {
        void visit(int index, long key, ValueView value);
    }

    /** Receives the address words of {@link #locateAll}, each with the clock before it was read (its leases' start). */
    @FunctionalInterface
    public interface AddressVisitor {
        void visit(int index, long key, long address, long obtainedAtMillis);
    }

    /** Results of the last {@link #lookup}. */
    int home;
    long address;
    long slot;
    long obtainedAtMillis;
    boolean fromCache;
    /** The record the last update on this session published ({@link Address#NONE}: none, e.g. a delete), and its
     *  payload length: a durable update settles it once logged. */
    long published = Address.NONE;
    int publishedLength;

    /** This session's stripe of its machine's operation gate: a session is one thread's, so it rarely shares one. */
    final int gateStripe;

    Session(MachineStore machine) {
        this.machine = machine;
        this.gateStripe = machine.gate().stripe();
    }

    public MachineStore machine() {
        return machine;
    }

    /**
     * LOOKUP (Fig. 8, lines 19-27): the key's address word, from the local key region, the location cache, or one
     * one-sided read of the key's home bucket (which fills the cache).
     *
     * @return false when the key has no value
     */
    boolean lookup(long key, boolean useCache) {
        return lookup(key, useCache, false);
    }

    /**
     * LOOKUP for a GET when {@code ownReplica}: at the key's home, a read replica held here of a value that migrated
     * away is used (see {@link #useOwnReplica}). Updates and migrations never pass it: they act on the home's word.
     */
    boolean lookup(long key, boolean useCache, boolean ownReplica) {
        int found = lookUpHere(key, useCache, ownReplica);
        if (found != READ_BUCKET) {
            return found == FOUND;
        }
        long bucketOffset = machine.keys().homeBucketOffset(key);
        while (bucketOffset >= 0) {
            machine.endpoint().read(home, Region.KEYS, bucketOffset, bucket, 0, KeyRegion.BUCKET_BYTES);
            found = lookUpInBucket(key, bucket, 0, bucketOffset);
            if (found != READ_BUCKET) {
                if (found == MISSING && useCache) {
                    machine.cache().noteAbsent();
                }
                return found == FOUND;
            }
            bucketOffset = KeyRegion.overflowOf(bucket, 0, machine.keys().mainBuckets());
        }
        if (useCache) {
            machine.cache().noteAbsent(); // a GET's lookup (updates and migrations do not use the cache)
        }
        return false;
    }

    /**
     * The steps of LOOKUP that need no round trip, shared with {@link BatchGet}: the key's word in this machine's key
     * region when it is the key's home, else a live cache entry. The outcome is in {@link #home}, {@link #address},
     * {@link #slot}, {@link #obtainedAtMillis} and {@link #fromCache}; a miss leaves no stale word behind (a caller
     * may look at a miss's address: NONE or a tombstone).
     *
     * @return {@link #FOUND}, {@link #MISSING}, or {@link #READ_BUCKET} when only the home's bucket can tell (then
     *     {@link #obtainedAtMillis} is the clock before that read, the lease of what it finds)
     */
    int lookUpHere(long key, boolean useCache, boolean ownReplica) {
        home = machine.placement().home(key);
        fromCache = false;
        address = Address.NONE;
        if (home == machine.id()) {
            KeyRegion keys = machine.keys();
            slot = keys.find(key);
            machine.stats().local(KeyRegion.SLOT_BYTES);
            if (slot < 0) {
                return MISSING;
            }
            // The clock first: a stall between the two reads must shorten the address's lease, never stretch it.
            obtainedAtMillis = Leases.nowMillis();
            address = keys.address(slot);
            if (Address.isNone(address)) {
                return MISSING;
            }
            if (ownReplica && !Address.isTombstone(address) && Address.host(address, home) != machine.id()) {
                useOwnReplica(key);
            }
            return FOUND;
        }
        obtainedAtMillis = Leases.nowMillis();
        if (useCache && machine.cache().lookup(key, obtainedAtMillis, hit)) {
            machine.stats().local(KeyRegion.SLOT_BYTES);
            address = hit.address;
            slot = hit.slotOffset;
            obtainedAtMillis = hit.stampMillis;
            fromCache = true;
            return FOUND;
        }
        return READ_BUCKET;
    }

    /**
     * At the key's home, whose word names a value on another machine (migrated away): a read replica of it held here
     * is used instead, as any holder uses one. The home's own words are never cached, so a cache entry of a key homed
     * here can only be a replica ({@link Replicas}); it is read under the replica's lease, and the host invalidates
     * it before a write becomes visible exactly as on any other holder, so this adds no ordering of its own. The
     * slot stays the home's key slot (a CAS targets that, not the cache's copy of it).
     */
    private void useOwnReplica(long key) {
        if (machine.cache().lookup(key, obtainedAtMillis, hit) && Address.host(hit.address, home) == machine.id()) {
            address = hit.address;
            obtainedAtMillis = hit.stampMillis;
            fromCache = true;
        }
    }

    /**
     * The last step of LOOKUP, shared with {@link BatchGet}: the key's entry in a copy of its home bucket (at
     * {@code at} in {@code buckets}, read from {@code bucketOffset} after {@link #lookUpHere} answered
     * {@link #READ_BUCKET}); a live address found fills the cache.
     *
     * @return {@link #FOUND}, {@link #MISSING} (the entry holds no value), or {@link #READ_BUCKET} when the key is not
     *     in this bucket (the caller follows its overflow chain)
     */
    int lookUpInBucket(long key, UnsafeBuffer buckets, int at, long bucketOffset) {
        int entry = KeyRegion.findInBucket(buckets, at, key);
        if (entry < 0) {
            return READ_BUCKET;
        }
        address = buckets.getLong(at + entry);
        slot = bucketOffset + entry;
        if (Address.isNone(address)) {
            return MISSING;
        }
        machine.cache().insert(key, address, slot, obtainedAtMillis);
        return FOUND;
    }

    /** Public form of {@link #lookup} for the migration protocol; results via the accessors below. */
    public boolean locate(long key, boolean useCache) {
        machine.gate().enter(gateStripe);
        try {
            return lookup(key, useCache);
        } finally {
            machine.gate().exit(gateStripe);
        }
    }

    /** Home machine of the key of the last lookup. */
    public int home() {
        return home;
    }

    /** Address word found by the last lookup. */
    public long address() {
        return address;
    }

    /** Byte offset of that address word in the home's key region (what a CAS targets). */
    public long slot() {
        return slot;
    }

    /**
     * Whether the address of the last lookup may still be acted on ({@link Leases#addressHolds}). A reused record
     * cannot fool anyone however old the address (its generation differs); what this bounds is how long a record that
     * could not be invalidated (its machine stopped answering) stays readable through old addresses.
     */
    public boolean addressHolds() {
        return machine.config().leases().addressHolds(obtainedAtMillis);
    }

    /** Whether a copy through the last lookup's address that started at {@code copyStartMillis} can be trusted. */
    private boolean readHolds(long copyStartMillis) {
        return machine.config().leases().readHolds(obtainedAtMillis, copyStartMillis);
    }

    /**
     * The acceptance check of a copied record, shared with {@link BatchGet}: the copy at {@code at} in {@code copy}
     * must be the live record {@code address} names, holding {@code key}, copied within the leases of an address
     * obtained at {@code obtainedAt} ({@link Leases#readHolds}); else it is {@link #REJECTED} and the lookup is redone.
     * An accepted record whose publisher has not yet invalidated its predecessor (or, durable, whose home has not yet
     * logged it) is {@link #SETTLING}: it may be returned only once settled ({@link #awaitSettled}).
     */
    int check(DirectBuffer copy, int at, long address, long key, long obtainedAt, long copyStart) {
        if (!ValueRecord.isValid(copy, at, address, key)
            || !machine.config().leases().readHolds(obtainedAt, copyStart)) {
            return REJECTED;
        }
        return ValueRecord.isInvalidationPending(copy.getLong(at)) ? SETTLING : ACCEPTED;
    }

    /** Hands out an accepted record copied at {@code at}: {@code into} wraps its payload; the observer is told. */
    ValueView deliver(ValueView into, DirectBuffer copy, int at, long key, int keyHome, int host) {
        long header = copy.getLong(at);
        into.wrap(copy, at + ValueRecord.HEADER_BYTES, ValueRecord.payloadLengthOf(header),
            ValueRecord.version(copy, at, header));
        AccessObserver observer = machine.accessObserver();
        if (observer != null) {
            observer.onAccess(key, keyHome, host);
        }
        return into;
    }

    /** When the address of the last lookup was read from its key region (the start of its leases). */
    public long obtainedAtMillis() {
        return obtainedAtMillis;
    }

    /** Forgets a cached address found stale; a refresh by another thread is kept. */
    public void dropCached(long key, long staleAddress) {
        dropCached(key, home, staleAddress);
    }

    /**
     * Forgets a cached address of a key homed at {@code keyHome} found stale: the home's own words are not cached, but
     * a replica held at the home is (see {@link #useOwnReplica}).
     */
    void dropCached(long key, int keyHome, long staleAddress) {
        if (keyHome != machine.id() || Address.host(staleAddress, keyHome) == machine.id()) {
            machine.cache().invalidate(key, staleAddress);
        }
    }

    /**
     * GET (Fig. 8): the key's current value, copied into this session's buffer, or null when the key has no value.
     * A record that fails its header check (invalidated, or its slot reused: another generation), or whose copy took
     * longer than the reclaim lease (its memory may have been reused mid-copy), is dropped, and the lookup is redone.
     * A record whose publisher has not yet invalidated its predecessor is returned only once it has (see
     * {@link #awaitSettled}): GET is linearizable per key, so once any GET returned a value, no GET that starts later
     * returns an older one.
     *
     * @throws StaleAddressException (retryable) when the key's home keeps naming memory that does not hold the key
     * @throws InvalidationPendingException (retryable) when the newest record's predecessor stays valid too long
     * @throws io.pragh.fabric.FabricException (retryable) when the value's host is unreachable
     */
    public ValueView get(long key) {
        // Gated: the machine frees its memory only once no GET is inside (see MachineStore#close).
        machine.gate().enter(gateStripe);
        try {
            return read(key);
        } finally {
            machine.gate().exit(gateStripe);
        }
    }

    private ValueView read(long key) {
        long staleAddress = Address.NONE;
        int staleSeen = 0;
        for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
            if (!lookup(key, true, true)) {
                if (Address.isTombstone(address) && awaitDeleteFinished(key, address)) {
                    continue; // the DELETE finished (or gave way) while we waited: look again
                }
                return null;
            }
            int host = Address.host(address, home);
            int length = (int) Address.byteSize(address);
            ensureRecordCapacity(length);
            long offset = Address.byteOffset(address);
            long copyStart = Leases.nowMillis();
            if (host == machine.id()) {
                // Its published extent only, not its slack (see BatchGet#readValues).
                machine.stats().local(machine.values().region().getRecord(offset, record, 0, length,
                    ValueRecord.EXTENT));
            } else {
                try {
                    machine.endpoint().readRecord(host, Region.VALUES, offset, record, 0, length, ValueRecord.EXTENT);
                } catch (FabricException e) {
                    dropCached(key, address);
                    throw e;
                }
            }
            int verdict = check(record, 0, address, key, obtainedAtMillis, copyStart);
            if (verdict != REJECTED) {
                if (verdict == SETTLING && !awaitSettled(key, host, offset)) {
                    dropCached(key, address);
                    continue; // replaced while we waited: read the newer value
                }
                return deliver(view, record, 0, key, home, host);
            }
            if (!fromCache && readHolds(copyStart)) {
                if (address != staleAddress) {
                    staleAddress = address;
                    staleSeen = 0;
                }
                if (++staleSeen >= STALE_REPEATS) {
                    throw new StaleAddressException("GET of key " + key + " found its home's address word naming memory"
                        + " that does not hold the key (machine " + host + ", offset " + offset + ") " + staleSeen
                        + " times in a row; the value is being recovered or was lost with its host");
                }
            }
            dropCached(key, address);
        }
        throw new StaleAddressException("GET of key " + key + " found a stale address " + MAX_ATTEMPTS
            + " times in a row");
    }

    /**
     * Waits until the record just copied no longer has {@link ValueRecord#INVALIDATION_PENDING} set, i.e. until the
     * operation that published it has invalidated the record it replaced. Returning a record before that would let
     * a later GET elsewhere, through an older cached address, still find the replaced record valid and read an older
     * value after this newer one: waiting makes GET linearizable per key. A delete sets the same bit on the record
     * it removes before its CAS, so a GET that finds it waits, then finds the record invalidated and the key absent.
     * The wait is one more write of a running operation, so short, unless its machine was cut off mid-operation.
     *
     * @return true when the record is still the key's (bit cleared), false when it was invalidated meanwhile
     * @throws InvalidationPendingException (retryable) when the bit stays set for {@link #PENDING_PATIENCE_NANOS}
     */
    private boolean awaitSettled(long key, int host, long offset) {
        long expected = ValueRecord.settledForm(record.getLong(0)) & ~ValueRecord.LOCKED;
        long start = System.nanoTime();
        long deadline = start + PENDING_PATIENCE_NANOS;
        try {
            for (int round = 0; ; round++) {
                long header = readHeader(key, host, offset);
                // The lock bit says an update here has not taken effect yet: the record still holds what was copied.
                if ((header & ~ValueRecord.LOCKED) == expected) {
                    return addressHolds();
                }
                if (!ValueRecord.isInvalidationPending(header)) {
                    return false;
                }
                pause(key, round, deadline, "its value's newest record (machine " + host + ", offset " + offset
                    + ") still pending (its update has not invalidated the record it replaced yet, or, on a durable"
                    + " cluster, the key's home has not logged it yet)");
            }
        } finally {
            machine.countSettleWait(System.nanoTime() - start);
        }
    }

    /**
     * Waits while the record a DELETE removed (named by its {@code tombstone}) is still valid: on a durable cluster it
     * stays so until the key's home has logged the DELETE, and answering "absent" before that could be undone by a
     * restart. Elsewhere the wait is the DELETE's one remaining write.
     *
     * @return whether it waited at all (the caller then looks again: the key may have been re-inserted meanwhile)
     */
    private boolean awaitDeleteFinished(long key, long tombstone) {
        int host = Address.host(tombstone, home);
        long offset = Address.byteOffset(tombstone);
        long deadline = System.nanoTime() + PENDING_PATIENCE_NANOS;
        for (int round = 0; ; round++) {
            long header = readHeader(key, host, offset);
            if (!ValueRecord.isLive(header) || ValueRecord.generationOf(header) != Address.generation(tombstone)) {
                return round > 0;
            }
            pause(key, round, deadline, "its DELETE (of the record on machine " + host + ", offset " + offset
                + ") not yet finished");
        }
    }

    /** A record's header word, read with acquire semantics, locally or by one one-sided READ. */
    private long readHeader(long key, int host, long offset) {
        if (host == machine.id()) {
            // Acquire: pairs with the publisher's release of the cleared bit after its invalidation.
            return machine.values().region().getLongVolatile(offset);
        }
        try {
            machine.endpoint().read(host, Region.VALUES, offset, headerWord, 0, 8);
        } catch (FabricException e) {
            dropCached(key, address);
            throw e;
        }
        return headerWord.getLongVolatile(0);
    }

    /**
     * One pause of a GET waiting for another operation's last write.
     *
     * @throws InvalidationPendingException (retryable) past {@code deadline}
     */
    private void pause(long key, int round, long deadline, String waitingFor) {
        if (machine.isClosing()) {
            throw machine.gate().closedWhile("a GET of key " + key, null); // nobody will finish the operation now
        }
        if (System.nanoTime() > deadline) {
            throw new InvalidationPendingException("GET of key " + key + " found " + waitingFor + " after "
                + (PENDING_PATIENCE_NANOS / 1_000_000) + " ms; answering now could let a later read see an older"
                + " state");
        }
        // Yield, not spin: the publisher may be a thread waiting for this core. Then park: a bit that stays set
        // that long belongs to an operation stalled (held, cut off), and a yielding loop would burn a core
        // (sched_yield returns at once on an idle one) for the whole patience.
        if (round < PENDING_YIELDS) {
            Thread.yield();
        } else {
            LockSupport.parkNanos(PENDING_PARK_NANOS);
        }
    }

    /**
     * GETs {@code keys[from..from+count)} together: remote lookups in one batch, remote value reads in another, so a
     * traversal hop costs two round trips however many neighbours it reads. Visits every key once, in no promised
     * order, with its value or null.
     */
    public void getAll(long[] keys, int from, int count, ValueVisitor visitor) {
        if (batchGet == null) {
            batchGet = new BatchGet(machine, this);
        }
        machine.gate().enter(gateStripe);
        try {
            batchGet.getAll(keys, from, count, visitor);
        } finally {
            machine.gate().exit(gateStripe);
        }
    }

    /**
     * LOOKUP of {@code keys[from..from+count)} together, as {@link #getAll} does it (remote bucket reads in one batch
     * per 256 keys), without reading the values: for a reader that copies many values in a few large READs. A key
     * without a value is not visited; one whose DELETE is in flight is visited with {@link Address#NONE}. A copy
     * made through an address is trustworthy only if its header matches the address and the key
     * ({@link ValueRecord#isValid}) and the copy started within the address's leases
     * ({@code config().leases().readHolds(obtainedAt, copyStart)}).
     *
     * <p>Example: {@code session.locateAll(keys, 0, n, (i, key, address, at) -> gather(key, address));}
     */
    public void locateAll(long[] keys, int from, int count, AddressVisitor visitor) {
        if (batchGet == null) {
            batchGet = new BatchGet(machine, this);
        }
        machine.gate().enter(gateStripe);
        try {
            batchGet.locateAll(keys, from, count, visitor);
        } finally {
            machine.gate().exit(gateStripe);
        }
    }

    private void ensureRecordCapacity(int length) {
        if (record.capacity() < length) {
            int size = Integer.highestOneBit(length - 1) << 1;
            record = new UnsafeBuffer(BufferUtil.allocateDirectAligned(Math.max(size, length), 64));
        }
    }
}
