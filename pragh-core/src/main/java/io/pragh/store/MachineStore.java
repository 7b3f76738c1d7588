package io.pragh.store;

import io.pragh.address.Address;
import io.pragh.cache.LocationCache;
import io.pragh.fabric.Endpoint;
import io.pragh.fabric.Fabric;
import io.pragh.fabric.FabricStats;
import io.pragh.fabric.MachineMemory;
import io.pragh.fabric.MessageHandler;
import io.pragh.keys.KeyRegion;
import io.pragh.keys.Placement;
import io.pragh.reclaim.InvalidationFence;
import io.pragh.reclaim.ReclaimRings;
import io.pragh.reclaim.Reclaimer;
import io.pragh.values.ValueRegion;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.LongAdder;
import org.agrona.DirectBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The data plane of one machine, and its lifecycle: attaching to a fabric, admitting operations through its gate and
 * closing. The duties it puts together live in their own classes: the memory it owns and the word-level operations on
 * it ({@link StoreRegions}), the acknowledgement of updates and their LOG/settle path ({@code UpdateAcknowledgements}),
 * the routing of two-sided messages ({@code MessageRouter}), the update protocol ({@code UpdateProtocol}), values
 * installed outside it ({@code DirectInstalls}), and the GC thread with the reclaim rings and the leak scan
 * ({@code StoreReclamation}: the store owns those threads because reclaiming is part of its memory contract). The
 * other threads (workers, migration) are added around it by {@code io.pragh.embedded.Machine}.
 *
 * <pre>{@code
 * MachineStore store = new MachineStore(0, 4, StoreConfig.defaults(), Placement.hashed(4), Mutators.withBuiltins());
 * store.attach(fabric);
 * store.update(key, Mutators.SET, bytes, 0, bytes.capacity()).join();
 * }</pre>
 */
public final class MachineStore implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MachineStore.class);

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
    private final StoreRegions regions;
    private final InvalidationFence fence = new InvalidationFence();
    private final UpdateProtocol updates = new UpdateProtocol(this);
    /** These two are built in the constructor, not here: their threads are named for the id, set there. */
    private final UncertainUpdates uncertainUpdates;
    private final DeferredUpdates deferredUpdates;
    private final UpdateAcknowledgements acks;
    private final MessageRouter router;
    private final DirectInstalls installs;
    private final ThreadLocal<Session> sessions = ThreadLocal.withInitial(this::newSession);
    private final Incarnations incarnations = new Incarnations();
    private final LongAdder forwardedToHost = new LongAdder();
    private final LongAdder settleWaits = new LongAdder();
    private final LongAdder settleWaitNanos = new LongAdder();
    private final Replication replication = new Replication(this);
    private final PutBackFence putBacks = new PutBackFence(this);
    /** Volatile: observers come and go while workers read; null (the usual case) costs one load per GET. */
    private volatile AccessObserver accessObserver;
    private Endpoint endpoint;
    /** The GC thread, reclaim rings and leak scan, from {@link #attach} on. */
    private StoreReclamation reclamation;
    /** Admits operations of threads this store does not own until it closes (see {@link #close}). */
    private final StoreGate gate;
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
        this.gate = new StoreGate(id);
        this.regions = new StoreRegions(id, machineCount, config);
        this.acks = new UpdateAcknowledgements(this);
        this.uncertainUpdates = new UncertainUpdates(this, updates);
        this.deferredUpdates = new DeferredUpdates(this, updates);
        this.router = new MessageRouter(this, updates, acks);
        this.installs = new DirectInstalls(this, regions, acks);
    }

    /** Registers this machine's memory with a fabric and starts its GC thread ({@link StoreReclamation}). */
    public void attach(Fabric fabric) {
        if (endpoint != null) {
            throw new IllegalStateException("machine " + id + " is already attached");
        }
        endpoint = fabric.attach(id, memory(), router::onMessage);
        regions.attach(endpoint);
        reclamation = StoreReclamation.start(this, regions, endpoint);
        replication.start();
        putBacks.startLifter(); // a restart's reload, before attach, may have put values back
    }

    /**
     * Declares that this machine starts with its cluster, not into one that ran before: no other machine can hold an
     * address or replica of a previous life of it, so its first updates skip the waits a restarted machine owes those
     * ({@link Replication#startsWithItsCluster}, {@link PutBackFence}). Before attach.
     */
    public void startsWithItsCluster() {
        replication.startsWithItsCluster();
        putBacks.firstLife();
    }

    /** Values put back at home from the log, held there while older records of them may still be read elsewhere. */
    public PutBackFence putBacks() {
        return putBacks;
    }

    /** Read replicas of contended values, both sides (docs/replicas.md); their settings are set before attach. */
    public Replication replication() {
        return replication;
    }

    public MachineMemory memory() {
        return regions.memory();
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
        return regions.keys();
    }

    public ValueRegion values() {
        return regions.values();
    }

    public LocationCache cache() {
        return regions.cache();
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
        return reclamation == null ? null : reclamation.rings();
    }

    public Reclaimer reclaimer() {
        return reclamation == null ? null : reclamation.reclaimer();
    }

    /** Updates whose CAS outcome is still unknown because their home stopped answering (see {@link UpdateProtocol}). */
    public UncertainUpdates uncertainUpdates() {
        return uncertainUpdates;
    }

    /** Updates delivered by message that had to wait, applied again off the delivery thread. */
    public DeferredUpdates deferredUpdates() {
        return deferredUpdates;
    }

    /** The background leak scan (its thread runs only when {@link StoreConfig#leakScanMillis} is above 0). */
    public LeakScanner leakScanner() {
        return reclamation == null ? null : reclamation.leakScanner();
    }

    /**
     * Makes this machine durable: every update of a key homed here is appended to {@code log} and acknowledged only
     * once the log says it is durable. Every machine of a cluster must be configured alike.
     */
    public void setUpdateLog(UpdateLog log) {
        acks.setUpdateLog(log);
    }

    /** See {@link StoreRegions#invalidate}: whether this call invalidated the record {@code address} names. */
    public boolean invalidate(int host, long address) {
        return regions.invalidate(host, address);
    }

    /**
     * Acknowledges an update the {@link UpdateLog} made durable. Never waits for a peer: what the acknowledgement
     * tells other machines is sent from a thread of its own per peer, so the log's thread goes on with its next batch.
     */
    public void acknowledge(int origin, long request) {
        acks.answer(origin, request, StoreMessages.ACK_OK, null);
    }

    /** Fails an update with a reason its origin will see (e.g. the log could not write it); never waits for a peer. */
    public void refuse(int origin, long request, String reason) {
        acks.answer(origin, request, StoreMessages.ACK_FAILED, reason);
    }

    /**
     * Fails retryably an update that did not take effect (its value was lost with its host and restored since); never
     * waits for a peer.
     */
    public void refuseRetryably(int origin, long request, String reason) {
        acks.answer(origin, request, StoreMessages.ACK_RETRYABLE, reason);
    }

    /**
     * Acknowledgements (ACKs, and the log's answers) that named no request this machine waits for: a repeat, one whose
     * caller gave up waiting, or one addressed to a previous incarnation of this machine id; dropped.
     */
    public long strayAcknowledgements() {
        return acks.strayAcknowledgements();
    }

    /** Fails a still-pending request, e.g. when its caller gave up waiting. */
    public void abandon(CompletableFuture<Void> request) {
        acks.abandon(request);
    }

    /** Registers the handler of an extension message type ({@link StoreMessages#FIRST_EXTENSION_TYPE} and up). */
    public void registerHandler(int type, MessageHandler handler) {
        router.register(type, handler);
    }

    /** Sends an extension message (its first byte is its type). */
    public void send(int target, DirectBuffer message, int offset, int length) {
        endpoint.send(target, message, offset, length);
    }

    /**
     * Sends an extension message without ever waiting for {@code target} on the calling thread: for an answer sent
     * where updates' acknowledgements complete, which on a durable machine is its log's thread (a peer that takes no
     * bytes would hold up every later record there). On a durable machine the message goes from the peer's lane (in
     * order with what else this machine tells that peer from there; an answer, which nothing sends again, so dropped as
     * a lost message only when the peer has not taken a quarter of a million tasks), on an in-memory one at once. The message belongs to this call from then on.
     *
     * <pre>{@code
     * CompletableFuture.allOf(updates).whenComplete((v, t) -> store.sendLater(origin, answer, 0, answer.capacity()));
     * }</pre>
     */
    public void sendLater(int target, DirectBuffer message, int offset, int length) {
        acks.sendLater(target, message, offset, length);
    }

    /**
     * What this durable machine's log has made durable and not yet told {@code peer} (settles and answers queued on
     * the peer's lane, the one being sent not counted); 0 on an in-memory machine.
     */
    public int queuedPeerSends(int peer) {
        return acks.queuedPeerSends(peer);
    }

    /** Messages the fabric refused (a peer unreachable): lost, as the protocol allows; their waiters time out. */
    public long refusedSends() {
        return router.refusedSends();
    }

    /** Messages dropped because they were malformed (each one also logged). */
    public long malformedMessages() {
        return router.malformedMessages();
    }

    /** Installs (or, with null, removes) the observer of this machine's GETs. */
    public void setAccessObserver(AccessObserver observer) {
        this.accessObserver = observer;
    }

    /** The observer installed now, or null: whoever installs another for a while puts this one back after. */
    public AccessObserver accessObserver() {
        return accessObserver;
    }

    /** Installs (or, with null, removes) the observer of this machine's committed updates ({@link CommitObserver}). */
    public void setCommitObserver(CommitObserver observer) {
        acks.setCommitObserver(observer);
    }

    /** Updates this machine forwarded to the value's host because the value had migrated (check-and-forward). */
    public long forwardedUpdates() {
        return forwardedToHost.sum();
    }

    void countForwardToHost() {
        forwardedToHost.increment();
    }

    /**
     * GETs here that copied a record still pending (its update, or a migration waiting out its source's replicas,
     * had not settled it) and waited for it: a diagnostic of whether queries stall on writes and moves.
     */
    public long settleWaits() {
        return settleWaits.sum();
    }

    /** The time those GETs waited, in all, in nanoseconds. */
    public long settleWaitNanos() {
        return settleWaitNanos.sum();
    }

    /** Counted off the GET's fast path: only a GET that found a pending record comes here. */
    void countSettleWait(long nanos) {
        settleWaits.increment();
        settleWaitNanos.add(nanos);
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
        incarnations.observe(version);
    }

    /** The newest incarnation this home started or saw (a snapshot keeps it: deleted keys leave no other trace). */
    public long incarnation() {
        return incarnations.newest();
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
     * Updates a key cluster-wide: at the key's home (here when this is the home), then at the value's host. The
     * future completes once the update is acknowledged, exceptionally with the reason when it was refused.
     */
    public CompletableFuture<Void> update(long key, int mutatorId, DirectBuffer arg, int argOff, int argLen) {
        mutators.get(mutatorId);
        Session s = session();
        gate.enter(s.gateStripe);
        try {
            CompletableFuture<Void> done = new CompletableFuture<>();
            long request = acks.register(done);
            int home = placement.home(key);
            try {
                if (home == id) {
                    updates.apply(s, id, request, key, mutatorId, arg, argOff, argLen, 0);
                } else {
                    router.sendUpdate(home, id, request, key, mutatorId, arg, argOff, argLen, 1);
                }
            } catch (RuntimeException e) {
                acks.forget(request);
                done.completeExceptionally(gate.isClosing() ? gate.closedWhile("an update of key " + key, e) : e);
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
        gate.enter(stripe);
        try {
            installs.load(key, version, value, offset, length);
        } finally {
            gate.exit(stripe);
        }
    }

    /**
     * Puts back, in one step, the value of a key homed here that was lost with the machine it had migrated to: a
     * fresh local record replaces {@code lostAddress} in the key's address word by a single CAS (with a null
     * {@code value}, the durable record says the key was deleted: the word is cleared instead), and on a durable
     * machine the restore is logged under a new incarnation. The race with updates and the log's part are explained
     * at {@code DirectInstalls.restore}.
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
        gate.enter(stripe);
        try {
            return installs.restore(key, lostAddress, durableVersion, value, offset, length);
        } finally {
            gate.exit(stripe);
        }
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
        gate.enter(stripe);
        try {
            return installs.unload(key);
        } finally {
            gate.exit(stripe);
        }
    }

    /** The memory this machine owns, and the word-level operations on it (CAS of address and header words). */
    public StoreRegions regions() {
        return regions;
    }

    UpdateAcknowledgements acks() {
        return acks;
    }

    MessageRouter router() {
        return router;
    }

    StoreGate gate() {
        return gate;
    }

    Incarnations incarnations() {
        return incarnations;
    }

    /** Whether {@link #beginClose} (or {@link #close}) has been called: operations are refused from then on. */
    public boolean isClosing() {
        return gate.isClosing();
    }

    /**
     * The first step of closing: refuses new operations (they fail with "machine N is closed") and fails the
     * updates waiting for an acknowledgement. Operations already running go on; {@link #close} waits for them.
     */
    public void beginClose() {
        gate.close();
        acks.failPending();
    }

    /**
     * Everything of closing but freeing: {@link #beginClose}, then stops and joins the GC and leak-scan threads and
     * waits until every admitted operation has left (a thread held in the fabric is let go when its fabric closes).
     *
     * @return true when nothing can touch this store's memory any more; false when a thread or an operation was
     *     still inside after {@link #CLOSE_PATIENCE_MILLIS} (it is named in the log)
     */
    public boolean quiesce() {
        beginClose();
        replication.stop(); // its keeper reads and CASes this store's memory
        boolean quiet = putBacks.stop(CLOSE_PATIENCE_MILLIS); // its lifter CASes headers here
        quiet &= reclamation == null || reclamation.stop(CLOSE_PATIENCE_MILLIS);
        // Its thread settles uncertain CASes against this store's memory: stopped before anything is freed.
        uncertainUpdates.close();
        // Its updates hold the gate while they wait: stopped before the gate is drained (the rest are refused).
        deferredUpdates.close();
        // Its LOGs read this store's memory: stopped before anything is freed.
        acks.close();
        quiet &= gate.awaitDrained(CLOSE_PATIENCE_MILLIS);
        acks.failPending(); // registered by operations admitted before the gate closed
        return quiet;
    }

    /**
     * Closes the store: {@link #quiesce}, then frees its regions. Close the fabric it is attached to first (or
     * between {@link #beginClose} and this): a fabric whose peers or I/O threads still reach this memory must not
     * outlive it. Memory that a thread may still touch is never freed: if quiescing timed out, the regions are left
     * allocated (a leak, named in the log) rather than freed under a running thread.
     */
    @Override
    public void close() {
        if (freed) {
            return;
        }
        if (!quiesce()) {
            LOG.warn("machine {} leaves its off-heap memory allocated: something still runs in it", id);
            return;
        }
        freed = true;
        regions.free();
    }
}
