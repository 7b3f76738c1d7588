package io.pragh.server.node;

import io.pragh.fabric.FabricException;
import io.pragh.migration.Migrator;
import io.pragh.monitor.Monitor;
import io.pragh.store.MachineStore;
import io.pragh.tier.Tiering;
import io.pragh.tier.TieringConfig;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The far-memory tier in a server process. A compute machine with a local budget runs the same rounds as an embedded
 * cluster's tier ({@link Tiering}) over its own store and monitor: values come back with a MIGRATE on its own
 * migration thread; a value goes out with a TIER_MOVE message to the memory node, which MIGRATEs it there (MIGRATE
 * pulls: only the target can run it) and answers with TIER_DONE and the outcome, so a round waits for its moves as
 * an embedded one does and the budget is exceeded by at most what was written during a round. Every machine answers
 * TIER_MOVE; only compute machines with a budget send it.
 *
 * <p>The room of a memory node is not visible from here: each compute machine counts on an equal share of a memory
 * node's value region (all machines of a cluster file have the same store sizes), less what it moved there and has
 * not brought back (its far bytes after the last round, spread evenly: the round fills the roomiest node first). A
 * memory node that is full after all refuses the MIGRATE, which the tier counts as failed.
 *
 * <pre>
 *  TIER_MOVE | 22 (1) | key (8)                                     compute machine to memory node
 *  TIER_DONE | 23 (1) | outcome (1: 0 migrated, 1 not moved, 2 failed) | key (8)    back
 * </pre>
 *
 * <pre>{@code
 * ServerTiering t = ServerTiering.start(store, coordination, config.tiering().settings(), computeMachines, timeoutMs);
 * t.tiering().runRound();
 * }</pre>
 */
public final class ServerTiering implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ServerTiering.class);

    static final int TIER_MOVE = 22;
    static final int TIER_DONE = 23;
    private static final int MOVE_LENGTH = 9;
    private static final int DONE_LENGTH = 10;
    private static final byte MIGRATED = 0;
    private static final byte NOT_MOVED = 1;
    private static final byte FAILED = 2;

    private final MachineStore store;
    private final MigrationCoordination coordination;
    private final long timeoutMillis;
    /** A memory node's answers, by key: one tier move of a key is in flight at a time (a round waits for its own). */
    private final ConcurrentHashMap<Long, CompletableFuture<Migrator.Outcome>> pending = new ConcurrentHashMap<>();
    private final AtomicLong malformed = new AtomicLong();
    private final Tiering tiering;

    private ServerTiering(MachineStore store, MigrationCoordination coordination, TieringConfig config,
                          int computeMachines, long timeoutMillis) {
        this.store = store;
        this.coordination = coordination;
        this.timeoutMillis = timeoutMillis;
        store.registerHandler(TIER_MOVE, this::onMove);
        store.registerHandler(TIER_DONE, this::onDone);
        if (config.bounded() && store.id() < computeMachines) {
            Monitor monitor = coordination.monitor();
            // Counting held values needs the monitor to see this machine's GETs, also under the manual trigger.
            store.setAccessObserver(monitor);
            int memoryNodes = store.machineCount() - computeMachines;
            long share = store.values().region().capacity() / computeMachines;
            Tiering.MemoryNodes nodes = new Tiering.MemoryNodes() {
                @Override
                public int count() {
                    return memoryNodes;
                }

                @Override
                public int id(int n) {
                    return computeMachines + n;
                }

                @Override
                public long room(int n) {
                    // The round spreads values over the roomiest nodes: this machine's far bytes, evenly.
                    return share - ServerTiering.this.tiering.bytes(0).far() / memoryNodes;
                }
            };
            this.tiering = new Tiering(config, new MachineStore[] {store}, new Monitor[] {monitor}, nodes, this::move);
        } else {
            this.tiering = null;
        }
    }

    /**
     * Answers TIER_MOVE on any machine and, on a compute machine when {@code config} has a budget, starts its rounds
     * (every {@link TieringConfig#intervalMillis}; {@link TieringConfig#MANUAL}: only on {@code tiering().runRound()}).
     */
    public static ServerTiering start(MachineStore store, MigrationCoordination coordination, TieringConfig config,
                                      int computeMachines, long timeoutMillis) {
        ServerTiering t = new ServerTiering(store, coordination, config, computeMachines, timeoutMillis);
        if (t.tiering != null && config.intervalMillis() != TieringConfig.MANUAL) {
            t.tiering.start();
        }
        return t;
    }

    /** This machine's tier, or null when it runs none (a memory node, or no budget in the cluster file). */
    public Tiering tiering() {
        return tiering;
    }

    /** TIER_MOVE and TIER_DONE messages dropped because they were malformed or answered nothing pending. */
    public long malformedMessages() {
        return malformed.get();
    }

    private CompletableFuture<Migrator.Outcome> move(int target, long key) {
        if (target == store.id()) {
            return coordination.migrate(key);
        }
        CompletableFuture<Migrator.Outcome> f = new CompletableFuture<>();
        if (pending.putIfAbsent(key, f) != null) {
            return CompletableFuture.failedFuture(new IllegalStateException("key " + key + " is already moving"));
        }
        f.orTimeout(timeoutMillis, TimeUnit.MILLISECONDS).whenComplete((o, e) -> pending.remove(key, f));
        UnsafeBuffer msg = new UnsafeBuffer(new byte[MOVE_LENGTH]);
        msg.putByte(0, (byte) TIER_MOVE);
        msg.putLong(1, key);
        try {
            store.send(target, msg, 0, MOVE_LENGTH);
        } catch (FabricException e) {
            f.completeExceptionally(e);
        }
        return f;
    }

    /** On a memory node: MIGRATE the key here, then tell the machine that asked how it went. */
    private void onMove(int from, DirectBuffer msg, int off, int len) {
        if (len != MOVE_LENGTH) {
            malformed.incrementAndGet();
            LOG.warn("machine {} dropped a malformed TIER_MOVE from machine {}", store.id(), from);
            return;
        }
        long key = msg.getLong(off + 1);
        coordination.migrate(key).whenComplete((outcome, failure) -> {
            UnsafeBuffer done = new UnsafeBuffer(new byte[DONE_LENGTH]);
            done.putByte(0, (byte) TIER_DONE);
            done.putByte(1, failure != null ? FAILED : outcome == Migrator.Outcome.MIGRATED ? MIGRATED : NOT_MOVED);
            done.putLong(2, key);
            try {
                store.send(from, done, 0, DONE_LENGTH);
            } catch (FabricException e) {
                // Lost as any message may be: the asking round times the move out and a later round sees the value.
                LOG.warn("machine {} could not answer a tier move of key {} to machine {}: {}", store.id(), key, from,
                    e.getMessage());
            }
        });
    }

    private void onDone(int from, DirectBuffer msg, int off, int len) {
        CompletableFuture<Migrator.Outcome> f = len == DONE_LENGTH ? pending.get(msg.getLong(off + 2)) : null;
        if (f == null) {
            malformed.incrementAndGet();
            LOG.warn("machine {} dropped a TIER_DONE from machine {} that answers no move", store.id(), from);
            return;
        }
        byte outcome = msg.getByte(off + 1);
        if (outcome == FAILED) {
            f.completeExceptionally(new IllegalStateException("memory node " + from + " failed to migrate the value"));
        } else {
            f.complete(outcome == MIGRATED ? Migrator.Outcome.MIGRATED : Migrator.Outcome.ALREADY_LOCAL);
        }
    }

    @Override
    public void close() {
        if (tiering != null) {
            tiering.close();
        }
    }
}
