package io.pragh.store;

import io.pragh.PraghException;
import io.pragh.address.Address;
import io.pragh.cache.LocationCache;
import io.pragh.fabric.Endpoint;
import io.pragh.fabric.Fabric;
import io.pragh.fabric.FabricStats;
import io.pragh.fabric.MachineMemory;
import io.pragh.fabric.MessageHandler;
import io.pragh.keys.KeyRegion;
import io.pragh.keys.Placement;
import io.pragh.memory.ChunkedRegion;
import io.pragh.reclaim.InvalidationFence;
import io.pragh.reclaim.Leases;
import io.pragh.reclaim.ReclaimRings;
import io.pragh.reclaim.Reclaimer;
import io.pragh.runtime.OperationGate;
import io.pragh.values.ValueRecord;
import io.pragh.values.ValueRegion;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The data plane of one machine: its key, value and reclaim regions, its location cache, its fabric endpoint, the
 * update protocol and the routing of two-sided messages. Threads (workers, migration, GC) are added around it by
 * {@code io.pragh.cluster.Machine}; this class owns only the GC thread, because reclaiming is part of the store's
 * memory contract.
 *
 * <pre>{@code
 * MachineStore store = new MachineStore(0, 4, StoreConfig.defaults(), Placement.hashed(4), Mutators.withBuiltins());
 * store.attach(fabric);
 * store.update(key, Mutators.SET, bytes, 0, bytes.capacity()).join();
 * }</pre>
 */
public final class MachineStore implements AutoCloseable {
    private static final UnsafeBuffer ZERO_WORD = new UnsafeBuffer(new byte[8]);
    private static final long BACK_PRESSURE_MARGIN_MILLIS = 2_000;
    /**
     * How long closing waits for operations and threads to leave the memory it frees: longer than any bounded wait
     * inside an operation (a pending invalidation's 5 s, a full region's back-pressure), so only a stuck thread
     * outlasts it, and then the memory is left allocated rather than freed under it.
     */
    public static final long CLOSE_PATIENCE_MILLIS = 60_000;

    private final int id;
    private final int machineCount;
    private final StoreConfig config;
    private final Placement placement;
    private final Mutators mutators;
    private final KeyRegion keys;
    private final ValueRegion values;
    private final ChunkedRegion reclaimRegion;
    private final LocationCache cache;
    private final InvalidationFence fence = new InvalidationFence();
    private final UpdateProtocol updates = new UpdateProtocol(this);
    private final UncertainUpdates uncertainUpdates = new UncertainUpdates(this, updates);
    private final ConcurrentHashMap<Long, CompletableFuture<Void>> pending = new ConcurrentHashMap<>();
    private final AtomicLong requestIds = new AtomicLong();
    private final AtomicReferenceArray<MessageHandler> extensions = new AtomicReferenceArray<>(256);
    private final ThreadLocal<Session> sessions = ThreadLocal.withInitial(this::newSession);
    private final AtomicLong malformedMessages = new AtomicLong();
    private final AtomicLong incarnations = new AtomicLong();
    /** Offsets of records migrations are copying into (see {@link #trackCopy}); guarded by itself. */
    private final org.agrona.collections.LongHashSet copiesInFlight = new org.agrona.collections.LongHashSet();
    private final java.util.concurrent.atomic.LongAdder forwardedToHost = new java.util.concurrent.atomic.LongAdder();
    private final java.util.concurrent.atomic.LongAdder refusedSends = new java.util.concurrent.atomic.LongAdder();
    /** Volatile: observers come and go while workers read; null (the usual case) costs one load per GET. */
    private volatile AccessObserver accessObserver;
    /** Set once before serving (null: in-memory only, updates are acknowledged as soon as they took effect). */
    private volatile UpdateLog updateLog;
    private Endpoint endpoint;
    private ReclaimRings reclaimRings;
    private Reclaimer reclaimer;
    private LeakScanner leakScanner;
    /** Admits operations of threads this store does not own until it closes (see {@link #close}). */
    private final OperationGate gate = new OperationGate();
    private volatile boolean closed;
    private volatile boolean freed;

    public MachineStore(int id, int machineCount, StoreConfig config, Placement placement, Mutators mutators) {
        Address.checkMachineCount(machineCount);
        Address.checkMachine(id);
        if (id >= machineCount) {
            throw new IllegalArgumentException("machine id " + id + " is outside 0.." + (machineCount - 1));
        }
        this.id = id;
        this.machineCount = machineCount;
        this.config = config;
        this.placement = placement;
        this.mutators = mutators;
        KeyRegion k = null;
        ValueRegion v = null;
        ChunkedRegion r = null;
        try {
            k = new KeyRegion(config.expectedKeys(), config.chunkBytes());
            v = new ValueRegion(config.valueBytes(), config.chunkBytes());
            r = ChunkedRegion.allocate("reclaim", ReclaimRings.regionBytes(machineCount, config.reclaimRingSlots()),
                config.chunkBytes());
            this.cache = new LocationCache(config.cacheBytes(), config.leases().cacheMillis());
        } catch (RuntimeException | Error e) {
            closeQuietly(k);
            closeQuietly(v);
            closeQuietly(r);
            throw e;
        }
        this.keys = k;
        this.values = v;
        this.reclaimRegion = r;
    }

    /**
     * How long a writer waits for a full value region to get memory back: the reclaim lease (garbage made just
     * before the region filled is freed by then) plus a margin for the GC thread's poll and a loaded machine.
     */
    static long backPressureNanos(Leases leases) {
        return TimeUnit.MILLISECONDS.toNanos(leases.reclaimMillis() + BACK_PRESSURE_MARGIN_MILLIS);
    }

    /** Registers this machine's memory with a fabric and starts its GC thread. */
    public void attach(Fabric fabric) {
        if (endpoint != null) {
            throw new IllegalStateException("machine " + id + " is already attached");
        }
        endpoint = fabric.attach(id, memory(), this::onMessage);
        reclaimer = new Reclaimer(id, reclaimRegion, machineCount, config.reclaimRingSlots(), values, config.leases());
        reclaimRings = new ReclaimRings(id, machineCount, config.reclaimRingSlots(), endpoint, reclaimRegion,
            reclaimer);
        values.applyBackPressure(reclaimer::awaitingReclaimBytes, backPressureNanos(config.leases()));
        reclaimer.start();
        leakScanner = new LeakScanner(this, config.leakScanMillis());
        if (config.leakScanMillis() > 0) {
            leakScanner.start();
        }
    }

    public MachineMemory memory() {
        return new MachineMemory(keys.region(), values.region(), reclaimRegion);
    }

    public int id() {
        return id;
    }

    public int machineCount() {
        return machineCount;
    }

    public StoreConfig config() {
        return config;
    }

    public Placement placement() {
        return placement;
    }

    public Mutators mutators() {
        return mutators;
    }

    public KeyRegion keys() {
        return keys;
    }

    public ValueRegion values() {
        return values;
    }

    public LocationCache cache() {
        return cache;
    }

    public Endpoint endpoint() {
        return endpoint;
    }

    public FabricStats stats() {
        return endpoint.stats();
    }

    public InvalidationFence fence() {
        return fence;
    }

    public ReclaimRings reclaimRings() {
        return reclaimRings;
    }

    public Reclaimer reclaimer() {
        return reclaimer;
    }

    /** Updates whose CAS outcome is still unknown because their home stopped answering (see {@link UpdateProtocol}). */
    public UncertainUpdates uncertainUpdates() {
        return uncertainUpdates;
    }

    /** The background leak scan (its thread runs only when {@link StoreConfig#leakScanMillis} is above 0). */
    public LeakScanner leakScanner() {
        return leakScanner;
    }

    /**
     * Makes this machine durable: every update of a key homed here is appended to {@code log} and acknowledged only
     * once the log says it is durable. Every machine of a cluster must be configured alike.
     */
    public void setUpdateLog(UpdateLog log) {
        this.updateLog = log;
    }

    /**
     * CAS of a key's address word at its home: a CPU CAS when this is the home and CPU atomics are coherent with the
     * fabric's, else a one-sided CAS (a loopback one on a NIC whose atomics are not coherent with the CPU's).
     */
    public boolean casAddress(int home, long slot, long expected, long desired) {
        if (home == id && endpoint.cpuAtomicsCoherent()) {
            return keys.compareAndSetAddress(slot, expected, desired);
        }
        return endpoint.compareAndSwap(home, io.pragh.fabric.Region.KEYS, slot, expected, desired) == expected;
    }

    /** Whether this machine may CAS its own address words with the CPU (see {@link #casAddress}). */
    public boolean localCasAllowed() {
        return endpoint == null || endpoint.cpuAtomicsCoherent();
    }

    /** Acknowledges an update the {@link UpdateLog} made durable. */
    public void acknowledge(int origin, long request) {
        complete(origin, request, null);
    }

    /** Fails an update with a reason its origin will see (e.g. the log could not write it). */
    public void refuse(int origin, long request, String reason) {
        complete(origin, request, reason);
    }

    /**
     * Fails an update that did not take effect, retryably (a {@link HostUnavailableException} at its origin): e.g.
     * the log refused it because the value it was applied to was lost with its host and has been restored since.
     */
    public void refuseRetryably(int origin, long request, String reason) {
        completeRetryable(origin, request, reason);
    }

    /** How long a host waits for its home to settle a logged record before it sends the LOG again. */
    private static final long LOG_RESEND_MILLIS = 1_000;

    /** Whether updates are made durable ({@link #setUpdateLog}): their new records then stay pending until logged. */
    boolean durable() {
        return updateLog != null;
    }

    /**
     * An update took effect here with {@code version}, publishing {@code fresh} (for a delete, {@code length} is
     * {@link ValueMutator#DELETE} and {@code fresh} the record it removed): acknowledge it, after making it durable at
     * the key's home when this cluster is durable. A durable update's new record stays
     * {@link ValueRecord#INVALIDATION_PENDING} (GETs wait for it, and nothing replaces or migrates it) until the home's
     * log has it: a GET must never observe a value that a restart, or a restore from the home's log after this host is
     * lost, could take back. The home clears the bit (one-sidedly, so that no thread here waits for a message) and then
     * acknowledges the origin; until it has, the LOG is sent again (recovery applies a version once, however often it
     * was logged). A durable delete's removed record stays valid and pending the same way (GETs that find its
     * tombstone wait for it), and the home invalidates it once logged, then prunes the tombstone.
     */
    void applied(int home, int origin, long request, long key, long version, int mutatorId, DirectBuffer arg,
                 int argOff, int argLen, long fresh, int length) {
        UpdateLog log = updateLog;
        if (log == null) {
            complete(origin, request, null);
        } else if (home == id) {
            logThenSettle(log, id, origin, request, key, version, mutatorId, arg, argOff, argLen, fresh, length);
        } else {
            UnsafeBuffer msg = StoreMessages.log(origin, request, key, version, mutatorId, arg, argOff, argLen, fresh,
                length);
            try {
                endpoint.send(home, msg, 0, msg.capacity());
            } catch (io.pragh.fabric.FabricException unreachable) {
                // Not an answer to the origin: the update took effect, and its record stays pending until logged, so
                // the LOG must go again until the home has it (the origin's own timeout ends its wait meanwhile).
                refusedSends.increment();
            }
            resendUntilSettled(home, msg, fresh, length);
        }
    }

    /**
     * Appends an update to this home's log; once the log has it, clears the pending bit of the record it published on
     * {@code host} and answers its origin. A retryable refusal (the key's value was restored from this log since the
     * update's host was lost, so this home's word no longer names the record) invalidates the record instead: its
     * origin is told it did not take effect, so nobody may read it through a cached address. Any other refusal (the
     * log failed) clears the bit too, as before logging existed, so that the key stays updatable.
     */
    private void logThenSettle(UpdateLog log, int host, int origin, long request, long key, long version,
                               int mutatorId, DirectBuffer arg, int argOff, int argLen, long fresh, int length) {
        long logRequest = requestIds.incrementAndGet();
        CompletableFuture<Void> logged = new CompletableFuture<>();
        pending.put(logRequest, logged);
        logged.whenComplete((ok, refused) -> {
            settleIfOpen(host, key, fresh, length, refused instanceof HostUnavailableException);
            if (refused == null) {
                complete(origin, request, null);
            } else if (refused instanceof HostUnavailableException) {
                completeRetryable(origin, request, refused.getMessage());
            } else {
                complete(origin, request, refused.getMessage());
            }
        });
        log.append(key, version, mutatorId, arg, argOff, argLen, id, logRequest);
    }

    /** Sends a LOG again every {@link #LOG_RESEND_MILLIS} while the record it publishes is pending here. */
    private void resendUntilSettled(int home, UnsafeBuffer msg, long fresh, int length) {
        CompletableFuture.delayedExecutor(LOG_RESEND_MILLIS, TimeUnit.MILLISECONDS).execute(() -> {
            int stripe = session().gateStripe;
            if (!gate.enter(stripe)) {
                return; // closing: a restart recovers from the home's log, without this record
            }
            try {
                long header = values.region().getLongVolatile(Address.byteOffset(fresh));
                if (!ValueRecord.isInvalidationPending(header) || !ValueRecord.isLiveAt(header, fresh)) {
                    return;
                }
                try {
                    endpoint.send(home, msg, 0, msg.capacity());
                } catch (io.pragh.fabric.FabricException unreachable) {
                    refusedSends.increment(); // the home is down or cut off: the next attempt may reach it
                }
            } finally {
                gate.exit(stripe);
            }
            resendUntilSettled(home, msg, fresh, length);
        });
    }

    /**
     * Clears a logged record's pending bit on {@code host} (or invalidates it), unless this machine is closing. For a
     * logged DELETE the record is the one it removed: invalidated (generation-checked, so a repeat is harmless) and
     * handed to its host's GC, then the tombstone is pruned here, at the key's home.
     */
    private void settleIfOpen(int host, long key, long address, int length, boolean invalidate) {
        int stripe = session().gateStripe;
        if (!gate.enter(stripe)) {
            return;
        }
        try {
            if (length == ValueMutator.DELETE) {
                if (invalidate(host, address)) {
                    reclaimRings.post(host, address);
                }
                keys.prune(key, Address.tombstone(address));
                return;
            }
            long header = ValueRecord.headerWord(length, address);
            long pending = header | ValueRecord.INVALIDATION_PENDING;
            if (!invalidate) {
                casHeader(host, Address.byteOffset(address), pending, header);
            } else if (casHeader(host, Address.byteOffset(address), pending, ValueRecord.invalidated(pending))
                == pending) {
                reclaimRings.post(host, address);
            }
        } catch (io.pragh.fabric.FabricException unreachable) {
            // The host keeps sending the LOG while its record is pending: the next one settles it.
        } finally {
            gate.exit(stripe);
        }
    }

    /** Installs (or, with null, removes) the observer of this machine's GETs. */
    public void setAccessObserver(AccessObserver observer) {
        this.accessObserver = observer;
    }

    /** The observer installed now, or null: whoever installs another for a while puts this one back after. */
    public AccessObserver accessObserver() {
        return accessObserver;
    }

    /** Updates this machine forwarded to the value's host because the value had migrated (check-and-forward). */
    public long forwardedUpdates() {
        return forwardedToHost.sum();
    }

    void countForwardToHost() {
        forwardedToHost.increment();
    }

    /** Messages dropped because they were malformed (each one also logged). */
    public long malformedMessages() {
        return malformedMessages.get();
    }

    /** A new session for the calling thread (not thread-safe). */
    public Session newSession() {
        return new Session(this);
    }

    /** The calling thread's own session. */
    public Session session() {
        return sessions.get();
    }

    /**
     * Updates a key cluster-wide: the update goes to the key's home (run here when this is the home) and on to
     * the value's host. The future completes once the update is acknowledged, exceptionally with the reason when it
     * was refused.
     */
    public CompletableFuture<Void> update(long key, int mutatorId, DirectBuffer arg, int argOff, int argLen) {
        mutators.get(mutatorId);
        Session s = session();
        enter(s.gateStripe);
        try {
            long request = requestIds.incrementAndGet();
            CompletableFuture<Void> done = new CompletableFuture<>();
            pending.put(request, done);
            int home = placement.home(key);
            try {
                if (home == id) {
                    updates.apply(s, id, request, key, mutatorId, arg, argOff, argLen, 0);
                } else {
                    sendUpdate(home, id, request, key, mutatorId, arg, argOff, argLen, 1);
                }
            } catch (RuntimeException e) {
                pending.remove(request);
                done.completeExceptionally(closed ? closedWhile("an update of key " + key, e) : e);
            }
            return done;
        } finally {
            gate.exit(s.gateStripe);
        }
    }

    /**
     * Installs a value as a record local to this machine, bypassing the update protocol: for bulk loading, snapshot
     * recovery and the shard baseline's moves. The caller guarantees that this machine is (or is about to become)
     * the key's home and that nobody updates the key meanwhile.
     *
     * @throws IllegalStateException when the key already has a value here
     */
    public void load(long key, long version, DirectBuffer value, int offset, int length) {
        int stripe = session().gateStripe;
        enter(stripe);
        try {
            loadInside(key, version, value, offset, length);
        } finally {
            gate.exit(stripe);
        }
    }

    private void loadInside(long key, long version, DirectBuffer value, int offset, int length) {
        ValueMutator set = mutators.get(Mutators.SET);
        long address = values.allocate(ValueRecord.unitsFor(length));
        observeVersion(version);
        long slot;
        try {
            // Pending until named: the leak scan leaves a record alone while its writer may still publish it.
            writeRecord(key, version, address, length, ValueRecord.INVALIDATION_PENDING, set, value, 0, -1, value,
                offset, length);
            // Loading happens before this machine serves (or, for shard moves, before its shard is routed here), so
            // no peer CAS can race this one: a CPU CAS is right even on a NIC with HCA-only atomics.
            slot = keys.insert(key, address, keys::compareAndSetAddress);
        } catch (RuntimeException | Error e) {
            values.release(address);
            throw e;
        }
        if (slot < 0) {
            values.release(address);
            throw new IllegalStateException("key " + key + " already has a value on machine " + id);
        }
        settled(address, length);
    }

    /**
     * Puts back, in one step, the value of a key homed here that was lost with the machine it had migrated to (paper
     * section 5: "the key-value pairs hosted by a surviving machine but migrated to a crashed machine will be reloaded
     * by the surviving machine"). A fresh local record holding {@code value} replaces {@code lostAddress} in the key's
     * address word by a single CAS, so an update racing the restore either still finds the lost address (and fails
     * retryably, its host being unreachable) or already finds the restored value: no update ever starts from a key
     * without a value. With a null {@code value} (the durable record says the key was deleted) the word is cleared
     * and the slot pruned instead.
     *
     * <p>The restored record gets a new incarnation's first version, above {@code durableVersion} and every version
     * this machine has seen, and, on a durable machine, is logged as a SET (or DELETE) at that version: an update
     * the crashed host applied but never got acknowledged, whose LOG message reaches this home late, then sorts
     * before the restore at replay and cannot leak into the replayed value. The record goes through
     * {@link UpdateLog#appendRestore}: a log that knows restores refuses, retryably, every later record of the key
     * below the restore's version, and the caller has it fence the key before reading {@code value}
     * ({@code Durability.durableValuesToRestore}), so no update missing from the restored value is acknowledged.
     *
     * <pre>{@code
     * boolean restored = store.restore(key, lostAddress, durable.version(), new UnsafeBuffer(durable.value()), 0,
     *     durable.value().length).get();
     * }</pre>
     *
     * @param lostAddress the address word naming the lost record (what recovery read from the key region)
     * @return completes with true once the value is installed (and durable, on a durable machine), with false at
     *     once when the word no longer holds {@code lostAddress} (another restore, or the key moved on)
     * @throws IllegalArgumentException when this machine is not the key's home or {@code lostAddress} is empty
     */
    public CompletableFuture<Boolean> restore(long key, long lostAddress, long durableVersion, DirectBuffer value,
                                              int offset, int length) {
        int stripe = session().gateStripe;
        enter(stripe);
        try {
            return restoreInside(key, lostAddress, durableVersion, value, offset, length);
        } finally {
            gate.exit(stripe);
        }
    }

    private CompletableFuture<Boolean> restoreInside(long key, long lostAddress, long durableVersion,
                                                     DirectBuffer value, int offset, int length) {
        if (placement.home(key) != id) {
            throw new IllegalArgumentException("machine " + id + " cannot restore key " + key + ": its home is machine "
                + placement.home(key));
        }
        if (lostAddress == Address.NONE) {
            throw new IllegalArgumentException("restore of key " + key + " needs the lost address, got none");
        }
        long slot = keys.find(key);
        if (slot < 0) {
            return CompletableFuture.completedFuture(false);
        }
        observeVersion(durableVersion);
        long version = nextFirstVersion();
        long desired = Address.NONE;
        if (value != null) {
            desired = values.allocate(ValueRecord.unitsFor(length));
            writeRecord(key, version, desired, length, ValueRecord.INVALIDATION_PENDING, mutators.get(Mutators.SET),
                value, offset, -1, value, offset, length);
        }
        // The lost record needs no invalidation or reclaim: its memory went with its host.
        if (!casAddress(id, slot, lostAddress, desired)) {
            if (desired != Address.NONE) {
                values.release(desired);
            }
            return CompletableFuture.completedFuture(false);
        }
        if (value == null) {
            keys.prune(key);
        } else {
            settled(desired, length);
        }
        UpdateLog log = updateLog;
        if (log == null) {
            return CompletableFuture.completedFuture(true);
        }
        long request = requestIds.incrementAndGet();
        CompletableFuture<Void> durable = new CompletableFuture<>();
        pending.put(request, durable);
        if (value == null) {
            log.appendRestore(key, version, Mutators.DELETE, ZERO_WORD, 0, 0, id, request);
        } else {
            log.appendRestore(key, version, Mutators.SET, value, offset, length, id, request);
        }
        return durable.thenApply(v -> true);
    }

    /**
     * Removes a key homed here together with its value, wherever the value lives: the address word is cleared by
     * CAS, the record invalidated and handed to its host's GC, and the slot pruned. For the shard baseline's moves
     * and for recovery; ordinary deletes go through {@link #update} with {@link Mutators#DELETE}.
     *
     * @return whether the key had a value
     */
    public boolean unload(long key) {
        int stripe = session().gateStripe;
        enter(stripe);
        try {
            return unloadInside(key);
        } finally {
            gate.exit(stripe);
        }
    }

    private boolean unloadInside(long key) {
        long slot = keys.find(key);
        while (slot >= 0) {
            long address = keys.address(slot);
            if (Address.isNone(address)) {
                keys.prune(key, address);
                return false;
            }
            if (casAddress(id, slot, address, Address.NONE)) {
                int host = Address.host(address, id);
                if (invalidate(host, address)) {
                    try {
                        reclaimRings.post(host, address);
                    } catch (PraghException ringStayedFull) {
                        // Counted by the rings as leaked; the key is unloaded all the same, and saying otherwise
                        // would report undone what took effect.
                    }
                }
                keys.prune(key);
                return true;
            }
        }
        return false;
    }

    /**
     * CAS of the header word of a value record on {@code host} (this machine or a peer): a CPU CAS here, a one-sided
     * CAS on a peer. Returns the word it found. A CPU CAS is enough here even on a NIC whose atomics are not coherent
     * with the CPU's: the only one-sided CAS of a header is a migration invalidating its source (after its CAS of the
     * home's word won), and the local CASes that can meet it are the leak scan's (which writes the same invalidated
     * header, so either order is fine) and a DELETE's pending flag (whose own CAS of the home's word then fails, and
     * which then finds the record invalidated).
     */
    public long casHeader(int host, long byteOffset, long expected, long desired) {
        if (host == id) {
            return values.region().compareAndExchangeLong(byteOffset, expected, desired);
        }
        return endpoint.compareAndSwap(host, io.pragh.fabric.Region.VALUES, byteOffset, expected, desired);
    }

    /** The header word of a value record on {@code host}, read locally or one-sidedly. */
    public long readHeader(int host, long byteOffset) {
        if (host == id) {
            return values.region().getLongVolatile(byteOffset);
        }
        UnsafeBuffer word = new UnsafeBuffer(new byte[8]);
        endpoint.read(host, io.pragh.fabric.Region.VALUES, byteOffset, word, 0, 8);
        return word.getLongVolatile(0);
    }

    /**
     * Invalidates the record {@code address} names on {@code host} (as seen from anywhere) by CAS on its header, as
     * long as it is still that allocation and live, pending bit or not: the generation-checked form of the paper's
     * "zero the size". Returns whether this call invalidated it; false when it was invalid already (someone else
     * invalidated it, and handed it to its GC) or the slot holds another allocation now.
     */
    public boolean invalidate(int host, long address) {
        long offset = Address.byteOffset(address);
        long header = readHeader(host, offset);
        while (ValueRecord.isLiveAt(header, address)) {
            long witness = casHeader(host, offset, header, ValueRecord.invalidated(header));
            if (witness == header) {
                return true;
            }
            header = witness;
        }
        return false;
    }

    /**
     * Clears the pending bit of a record this machine wrote and has just published (or whose predecessor it has just
     * invalidated), by CAS so that doing it twice is harmless: whoever sees it clear sees everything before it.
     */
    public void settled(long address, int length) {
        long header = ValueRecord.headerWord(length, address);
        casHeader(id, Address.byteOffset(address), header | ValueRecord.INVALIDATION_PENDING, header);
    }

    /**
     * Marks a record a migration allocated here and is about to fill with a one-sided READ of the source: the READ
     * overwrites its header with the source's (live, perhaps not pending), so until the migration has written its own
     * header, pending, the leak scan must be told to leave the record alone ({@link #copyInFlight}).
     */
    public void trackCopy(long offsetUnits) {
        synchronized (copiesInFlight) {
            copiesInFlight.add(offsetUnits);
        }
    }

    /** Ends {@link #trackCopy}: the record is pending now, or was released. */
    public void untrackCopy(long offsetUnits) {
        synchronized (copiesInFlight) {
            copiesInFlight.remove(offsetUnits);
        }
    }

    /** Whether a migration is copying into the record at {@code offsetUnits} (see {@link #trackCopy}). */
    public boolean copyInFlight(long offsetUnits) {
        synchronized (copiesInFlight) {
            return copiesInFlight.contains(offsetUnits);
        }
    }

    /**
     * {@link BulkInsert}'s way into the write-ahead log: logs a loaded record as a SET at {@code version}; the future
     * completes once it is durable, at once on a machine without a log.
     */
    CompletableFuture<Void> logLoaded(long key, long version, DirectBuffer value, int offset, int length) {
        UpdateLog log = updateLog;
        if (log == null) {
            return CompletableFuture.completedFuture(null);
        }
        long request = requestIds.incrementAndGet();
        CompletableFuture<Void> durable = new CompletableFuture<>();
        pending.put(request, durable);
        log.append(key, version, Mutators.SET, value, offset, length, id, request);
        return durable;
    }

    /** The first version of a key inserted now at this home: a fresh incarnation. */
    long nextFirstVersion() {
        return ValueRecord.firstVersion(incarnations.incrementAndGet());
    }

    /**
     * Keeps new incarnations above {@code version}'s: recovery calls it with every version the durable record holds,
     * deleted keys' included, so a key re-inserted after a restart sorts after its logged DELETE.
     *
     * <pre>{@code
     * store.observeVersion(loggedVersion);   // before the store serves
     * }</pre>
     */
    public void observeVersion(long version) {
        long incarnation = ValueRecord.incarnationOf(version);
        incarnations.accumulateAndGet(incarnation, Math::max);
    }

    /**
     * The newest incarnation this home has started or seen: every version it ever logged has an incarnation at or
     * below it. A snapshot keeps it, since the versions of keys deleted before the snapshot leave no other trace.
     */
    public long incarnation() {
        return incarnations.get();
    }

    /** Writes a complete record (header, key, version, the mutator's output) at a freshly allocated address. */
    void writeRecord(long key, long version, long address, int length, long headerFlags, ValueMutator mutator,
                     DirectBuffer cur, int curOff, int curLen, DirectBuffer arg, int argOff, int argLen) {
        long offset = Address.byteOffset(address);
        ChunkedRegion region = values.region();
        UnsafeBuffer chunk = region.chunkFor(offset);
        int index = region.indexInChunk(offset);
        chunk.putLong(index + ValueRecord.KEY_OFFSET, key);
        chunk.putLong(index + ValueRecord.VERSION_OFFSET, version);
        if (length > 0) {
            mutator.write(cur, curOff, curLen, arg, argOff, argLen, chunk, index + ValueRecord.HEADER_BYTES);
        }
        chunk.putLong(index, ValueRecord.headerWord(length, address) | headerFlags);
        // The record must be complete before any peer can find it through the address a CAS then publishes,
        // including peers that read it one-sidedly through a NIC or an I/O thread rather than this CPU.
        VarHandle.releaseFence();
    }

    /** Fails a still-pending request, e.g. when its caller gave up waiting. */
    public void abandon(CompletableFuture<Void> request) {
        pending.values().remove(request);
    }

    /** Registers the handler of an extension message type ({@link StoreMessages#FIRST_EXTENSION_TYPE} and up). */
    public void registerHandler(int type, MessageHandler handler) {
        if (type < StoreMessages.FIRST_EXTENSION_TYPE || type > 255) {
            throw new IllegalArgumentException("extension message type " + type + " is outside "
                + StoreMessages.FIRST_EXTENSION_TYPE + "..255");
        }
        if (!extensions.compareAndSet(type, null, handler)) {
            throw new IllegalStateException("message type " + type + " already has a handler on machine " + id);
        }
    }

    /** Sends an extension message (its first byte is its type). */
    public void send(int target, DirectBuffer message, int offset, int length) {
        endpoint.send(target, message, offset, length);
    }

    void complete(int origin, long request, String error) {
        complete(origin, request, error == null ? StoreMessages.ACK_OK : StoreMessages.ACK_FAILED, error);
    }

    /**
     * Refuses an update back to its origin as retryable: a machine it needed is unreachable, so it did not take
     * effect (a {@link HostUnavailableException} there).
     */
    void completeRetryable(int origin, long request, String why) {
        complete(origin, request, StoreMessages.ACK_RETRYABLE, why);
    }

    private void complete(int origin, long request, int status, String error) {
        if (origin == id) {
            CompletableFuture<Void> done = pending.remove(request);
            if (done != null) {
                if (status == StoreMessages.ACK_OK) {
                    done.complete(null);
                } else if (status == StoreMessages.ACK_RETRYABLE) {
                    done.completeExceptionally(new HostUnavailableException(error));
                } else {
                    done.completeExceptionally(new PraghException(error));
                }
            }
        } else {
            UnsafeBuffer ack = StoreMessages.ack(request, status, error);
            try {
                endpoint.send(origin, ack, 0, ack.capacity());
            } catch (io.pragh.fabric.FabricException e) {
                // The origin is unreachable: the acknowledgement is lost, as a dropped message would be, and the
                // origin's caller times out. Thrown on, it would stop whoever acknowledges (the log's thread).
                refusedSends.increment();
            }
        }
    }

    void sendUpdate(int target, int origin, long request, long key, int mutatorId, DirectBuffer arg, int argOff,
                    int argLen, int hops) {
        UnsafeBuffer msg = StoreMessages.update(origin, request, key, mutatorId, hops, arg, argOff, argLen);
        endpoint.send(target, msg, 0, msg.capacity());
    }

    void sendPrune(int home, long key, long tombstone) {
        UnsafeBuffer msg = StoreMessages.prune(key, tombstone);
        endpoint.send(home, msg, 0, msg.capacity());
    }

    private void onMessage(int from, DirectBuffer msg, int off, int len) {
        int stripe = session().gateStripe;
        if (!gate.enter(stripe)) {
            return; // closing: the machine is going away, and its callers are told so by the close
        }
        try {
            dispatch(from, msg, off, len);
        } catch (io.pragh.fabric.FabricException e) {
            // A message the handler sent on (a forward, a log record) was refused: for the protocol that is a message
            // lost, which it tolerates anyway (the waiting operation times out). Counted, not logged: under a
            // partition it happens all the time.
            refusedSends.increment();
        } finally {
            gate.exit(stripe);
        }
    }

    /**
     * Messages this store sent while handling another or acknowledging an update that the fabric refused (a peer
     * unreachable): lost, as the protocol allows; the operations waiting for them time out.
     */
    public long refusedSends() {
        return refusedSends.sum();
    }

    private void dispatch(int from, DirectBuffer msg, int off, int len) {
        if (len < 1) {
            malformed(from, "empty message");
            return;
        }
        int type = msg.getByte(off) & 0xFF;
        switch (type) {
            case StoreMessages.UPDATE -> onUpdate(from, msg, off, len);
            case StoreMessages.ACK -> onAck(from, msg, off, len);
            case StoreMessages.LOG -> onLog(from, msg, off, len);
            case StoreMessages.PRUNE -> {
                if (len != StoreMessages.PRUNE_LENGTH) {
                    malformed(from, "PRUNE of " + len + " bytes (expected " + StoreMessages.PRUNE_LENGTH + ")");
                } else if (placement.home(msg.getLong(off + StoreMessages.PRUNE_KEY)) == id
                    && Address.isNone(msg.getLong(off + StoreMessages.PRUNE_WORD))) {
                    keys.prune(msg.getLong(off + StoreMessages.PRUNE_KEY), msg.getLong(off + StoreMessages.PRUNE_WORD));
                }
            }
            default -> {
                MessageHandler h = type < extensions.length() ? extensions.get(type) : null;
                if (h == null) {
                    malformed(from, "message of unknown type " + type);
                } else {
                    h.onMessage(from, msg, off, len);
                }
            }
        }
    }

    private void onUpdate(int from, DirectBuffer msg, int off, int len) {
        String problem = StoreMessages.checkUpdate(msg, off, len, machineCount);
        if (problem != null) {
            malformed(from, problem);
            return;
        }
        updates.apply(session(), msg.getInt(off + StoreMessages.UPDATE_ORIGIN),
            msg.getLong(off + StoreMessages.UPDATE_REQUEST), msg.getLong(off + StoreMessages.UPDATE_KEY),
            msg.getInt(off + StoreMessages.UPDATE_MUTATOR), msg, off + StoreMessages.UPDATE_ARG,
            msg.getInt(off + StoreMessages.UPDATE_ARG_LENGTH), msg.getInt(off + StoreMessages.UPDATE_HOPS));
    }

    private void onLog(int from, DirectBuffer msg, int off, int len) {
        String problem = StoreMessages.checkLog(msg, off, len, machineCount);
        if (problem != null) {
            malformed(from, problem);
            return;
        }
        int origin = msg.getInt(off + StoreMessages.LOG_ORIGIN);
        long request = msg.getLong(off + StoreMessages.LOG_REQUEST);
        UpdateLog log = updateLog;
        if (log == null) {
            complete(origin, request, "machine " + id + " received an update to log but has no log configured");
            return;
        }
        logThenSettle(log, from, origin, request, msg.getLong(off + StoreMessages.LOG_KEY),
            msg.getLong(off + StoreMessages.LOG_VERSION), msg.getInt(off + StoreMessages.LOG_MUTATOR), msg,
            off + StoreMessages.LOG_ARG, msg.getInt(off + StoreMessages.LOG_ARG_LENGTH),
            msg.getLong(off + StoreMessages.LOG_PUBLISHED), msg.getInt(off + StoreMessages.LOG_PUBLISHED_LENGTH));
    }

    private void onAck(int from, DirectBuffer msg, int off, int len) {
        String problem = StoreMessages.checkAck(msg, off, len);
        if (problem != null) {
            malformed(from, problem);
            return;
        }
        int status = msg.getInt(off + StoreMessages.ACK_STATUS);
        complete(id, msg.getLong(off + StoreMessages.ACK_REQUEST), status,
            status == StoreMessages.ACK_OK ? null : StoreMessages.ackText(msg, off));
    }

    private void malformed(int from, String why) {
        malformedMessages.incrementAndGet();
        System.err.println("pragh: machine " + id + " dropped a malformed message from machine " + from + ": " + why);
    }

    /** Admits an operation of the calling thread, whose session has {@code stripe}; refuses once closing. */
    void enter(int stripe) {
        if (!gate.enter(stripe)) {
            throw closedError();
        }
    }

    void exit(int stripe) {
        gate.exit(stripe);
    }

    int newGateStripe() {
        return gate.stripe();
    }

    /** Whether {@link #beginClose} (or {@link #close}) has been called: operations are refused from then on. */
    public boolean isClosing() {
        return closed;
    }

    private PraghException closedError() {
        return new PraghException("machine " + id + " is closed");
    }

    /** What an operation that failed because its machine closed under it reports, with the failure as cause. */
    PraghException closedWhile(String what, Throwable cause) {
        return new PraghException("machine " + id + " closed while " + what + " was in flight", cause);
    }

    /**
     * The first step of closing: refuses new operations (they fail with "machine N is closed") and fails the
     * updates waiting for an acknowledgement. Operations already running go on; {@link #close} waits for them.
     */
    public void beginClose() {
        closed = true;
        gate.close();
        failPending();
    }

    private void failPending() {
        for (Long request : pending.keySet()) {
            CompletableFuture<Void> f = pending.remove(request);
            if (f != null) {
                f.completeExceptionally(new PraghException("machine " + id
                    + " closed before the update was acknowledged; it may or may not have taken effect"));
            }
        }
    }

    /**
     * Everything of closing but freeing: {@link #beginClose}, then stops and joins the GC and leak-scan threads and
     * waits until every admitted operation has left (a thread held in the fabric is let go when its fabric closes).
     *
     * @return true when nothing can touch this store's memory any more; false when a thread or an operation was
     *     still inside after {@link #CLOSE_PATIENCE_MILLIS} (it is named on stderr)
     */
    public boolean quiesce() {
        beginClose();
        boolean quiet = true;
        if (leakScanner != null) {
            quiet &= leakScanner.stop(CLOSE_PATIENCE_MILLIS);
        }
        if (reclaimer != null) {
            quiet &= reclaimer.stop(CLOSE_PATIENCE_MILLIS);
        }
        // Its thread settles uncertain CASes against this store's memory: stopped before anything is freed.
        uncertainUpdates.close();
        try {
            if (!gate.awaitDrained(CLOSE_PATIENCE_MILLIS, TimeUnit.MILLISECONDS)) {
                System.err.println("pragh: machine " + id + " still had " + gate.inside() + " operation(s) running "
                    + CLOSE_PATIENCE_MILLIS + " ms after it began to close");
                quiet = false;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            quiet = false;
        }
        failPending(); // registered by operations admitted before the gate closed
        return quiet;
    }

    /**
     * Closes the store: {@link #quiesce}, then frees its regions. Close the fabric it is attached to first (or
     * between {@link #beginClose} and this): a fabric whose peers or I/O threads still reach this memory must not
     * outlive it. Memory that a thread may still touch is never freed: if quiescing timed out, the regions are left
     * allocated (a leak, named on stderr) rather than freed under a running thread.
     */
    @Override
    public void close() {
        if (freed) {
            return;
        }
        if (!quiesce()) {
            System.err.println("pragh: machine " + id + " leaves its off-heap memory allocated: something still runs"
                + " in it");
            return;
        }
        freed = true;
        cache.close();
        keys.close();
        values.close();
        reclaimRegion.close();
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c != null) {
            try {
                c.close();
            } catch (Exception ignored) {
                // Already failing; the first error is the one worth reporting.
            }
        }
    }
}
