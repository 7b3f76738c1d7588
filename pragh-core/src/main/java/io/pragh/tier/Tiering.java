package io.pragh.tier;

import io.pragh.PraghException;
import io.pragh.migration.Migrator;
import io.pragh.monitor.Monitor;
import io.pragh.runtime.DutyThread;
import io.pragh.store.MachineStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Supplier;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.collections.LongArrayList;

/**
 * The tiering duty of a cluster: every round, for each compute machine, a census of its values
 * ({@link ValueCensus}), a plan ({@link WorkingSetPartition}) and its MIGRATEs, run by the ordinary migration
 * protocol: out to the memory node with the most room, back on the machine itself. A round waits for its moves, so a
 * machine's local value bytes exceed its budget by at most what was written since the round began. Counts decay
 * once a round.
 *
 * <pre>{@code
 * Tiering t = new Tiering(config, computeStores, monitors, memoryStores, (target, key) -> machine(target).migrateAsync(key));
 * t.start();                 // a round every config.intervalMillis(); or call runRound() yourself
 * TierBytes b = t.bytes(0);  // machine 0's values by tier after the last round
 * }</pre>
 */
public final class Tiering implements AutoCloseable {
    private static final long ROUND_PATIENCE_MILLIS = 120_000;

    /** Runs one MIGRATE of {@code key} on machine {@code target}. */
    @FunctionalInterface
    public interface Mover {
        CompletableFuture<Migrator.Outcome> migrate(int target, long key);
    }

    /**
     * Where the tier may move values: the memory nodes' ids and the room each has left. In an embedded cluster their
     * stores are at hand ({@link #Tiering(TieringConfig, MachineStore[], Monitor[], MachineStore[], Mover)}); a
     * server process sees only its own store and estimates the room of the memory nodes across the network.
     */
    public interface MemoryNodes {
        int count();

        /** Machine id of memory node {@code n}. */
        int id(int n);

        /** Bytes memory node {@code n} can still take, as well as this machine knows. */
        long room(int n);
    }

    /** Replaced whole when the budget changes; read once per round. */
    private volatile TieringConfig config;
    private final MachineStore[] compute;
    private final Monitor[] monitors;
    /** The memory nodes' stores when they are in this process (else null): {@link #replaceMemoryNode} swaps them. */
    private final MachineStore[] memory;
    private final MemoryNodes nodes;
    private final boolean[] isMemoryNode;
    private final Mover mover;
    private final Long2LongHashMap[] lastVersions;
    /** Written by the round, read by metrics on any thread. */
    private final AtomicReferenceArray<TierBytes> bytes;
    private final AtomicLong demoted = new AtomicLong();
    private final AtomicLong promoted = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong rounds = new AtomicLong();
    private DutyThread thread;

    /**
     * @param compute  the compute machines' stores, index = position in {@code monitors}
     * @param monitors their monitors; each is told to count its held values here
     * @param memory   the memory nodes' stores (values go to the one with the most room)
     */
    public Tiering(TieringConfig config, MachineStore[] compute, Monitor[] monitors, MachineStore[] memory, Mover mover) {
        this(config, compute, monitors, memory.clone(), null, mover);
    }

    /**
     * A tier whose memory nodes are out of this process: a server process's, over its own store only.
     *
     * <pre>{@code
     * Tiering t = new Tiering(config, new MachineStore[] {store}, new Monitor[] {monitor}, remoteNodes, mover);
     * }</pre>
     */
    public Tiering(TieringConfig config, MachineStore[] compute, Monitor[] monitors, MemoryNodes memory, Mover mover) {
        this(config, compute, monitors, null, memory, mover);
    }

    private Tiering(TieringConfig config, MachineStore[] compute, Monitor[] monitors, MachineStore[] stores,
                    MemoryNodes remote, Mover mover) {
        if (compute.length != monitors.length) {
            throw new IllegalArgumentException(compute.length + " compute machines but " + monitors.length + " monitors");
        }
        this.config = config;
        this.compute = compute.clone();
        this.monitors = monitors.clone();
        this.memory = stores;
        this.mover = mover;
        this.nodes = remote != null ? remote : new MemoryNodes() {
            @Override
            public int count() {
                return memory.length;
            }

            @Override
            public int id(int n) {
                return memory[n].id();
            }

            @Override
            public long room(int n) {
                return memory[n].values().region().capacity() - memory[n].values().liveBytes();
            }
        };
        int machines = 0;
        for (MachineStore s : compute) {
            machines = Math.max(machines, s.id() + 1);
        }
        for (int n = 0; n < nodes.count(); n++) {
            machines = Math.max(machines, nodes.id(n) + 1);
        }
        this.isMemoryNode = new boolean[machines];
        for (int n = 0; n < nodes.count(); n++) {
            isMemoryNode[nodes.id(n)] = true;
        }
        this.lastVersions = new Long2LongHashMap[compute.length];
        this.bytes = new AtomicReferenceArray<>(compute.length);
        for (int i = 0; i < compute.length; i++) {
            lastVersions[i] = new Long2LongHashMap(-1);
            bytes.set(i, TierBytes.NONE);
            monitors[i].countHeldValues();
        }
    }

    public TieringConfig config() {
        return config;
    }

    /** Sets every compute machine's local value budget from the next round on ({@link TieringConfig#UNBOUNDED}: off). */
    public void localBudgetBytes(long bytes) {
        config = config.withLocalBudgetBytes(bytes);
    }

    /** Starts a round every {@link TieringConfig#intervalMillis} on a thread of its own. */
    public synchronized void start() {
        if (thread != null) {
            return;
        }
        long interval = TimeUnit.MILLISECONDS.toNanos(config.intervalMillis());
        thread = DutyThread.periodic("tiering", interval, this::runRound);
        thread.start();
    }

    /**
     * Runs {@code restart} between two rounds (none of the tier's MIGRATEs is in flight meanwhile) and spills to the
     * store it returns, memory node {@code id}'s after a restart, from the next round on.
     *
     * <pre>{@code
     * tiering.replaceMemoryNode(2, () -> restartedMachine.store());
     * }</pre>
     */
    public synchronized void replaceMemoryNode(int id, Supplier<MachineStore> restart) {
        if (memory == null) {
            throw new IllegalStateException("this tier's memory nodes are in other processes: nothing to replace here");
        }
        for (int n = 0; n < memory.length; n++) {
            if (memory[n].id() == id) {
                MachineStore fresh = restart.get();
                if (fresh.id() != id) {
                    throw new IllegalArgumentException("memory node " + id + " restarted as machine " + fresh.id());
                }
                memory[n] = fresh;
                return;
            }
        }
        throw new IllegalArgumentException("machine " + id + " is not one of this tier's memory nodes");
    }

    /**
     * One round on every compute machine: census, plan, moves (waited for), decay. Returns the values moved.
     *
     * @throws PraghException when the moves did not finish within two minutes
     */
    public synchronized int runRound() {
        int moved = 0;
        for (int m = 0; m < compute.length; m++) {
            moved += round(m);
        }
        rounds.incrementAndGet();
        return moved;
    }

    private int round(int m) {
        TieringConfig config = this.config;
        ValueCensus census = ValueCensus.take(compute[m], monitors[m], isMemoryNode, lastVersions[m]);
        lastVersions[m] = census.versions;
        WorkingSetPartition plan = WorkingSetPartition.plan(census, config);
        List<CompletableFuture<Migrator.Outcome>> outs = new ArrayList<>();
        List<CompletableFuture<Migrator.Outcome>> ins = new ArrayList<>();
        LongArrayList promote = plan.promote();
        for (int i = 0; i < promote.size(); i++) {
            ins.add(mover.migrate(compute[m].id(), promote.getLong(i)));
        }
        long[] room = new long[nodes.count()];
        for (int n = 0; n < room.length; n++) {
            room[n] = nodes.room(n);
        }
        LongArrayList demote = plan.demote();
        for (int i = 0; i < demote.size(); i++) {
            int n = roomiest(room);
            long size = plan.demoteSizes().getLong(i);
            if (n < 0 || room[n] < size) {
                failed.incrementAndGet(); // every memory node is full: the value stays, the budget is exceeded
                continue;
            }
            room[n] -= size;
            outs.add(mover.migrate(nodes.id(n), demote.getLong(i)));
        }
        demoted.addAndGet(await(outs));
        promoted.addAndGet(await(ins));
        // What the metrics show is where values are once the moves are done, so a census of its own.
        bytes.set(m, ValueCensus.take(compute[m], monitors[m], isMemoryNode, census.versions).bytes(config.hotAccesses()));
        monitors[m].decayHeld();
        return outs.size() + ins.size();
    }

    private static int roomiest(long[] room) {
        int best = -1;
        for (int n = 0; n < room.length; n++) {
            if (best < 0 || room[n] > room[best]) {
                best = n;
            }
        }
        return best;
    }

    private long await(List<CompletableFuture<Migrator.Outcome>> moves) {
        long done = 0;
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ROUND_PATIENCE_MILLIS);
        for (CompletableFuture<Migrator.Outcome> f : moves) {
            try {
                if (f.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)
                    == Migrator.Outcome.MIGRATED) {
                    done++;
                }
            } catch (java.util.concurrent.TimeoutException e) {
                throw new PraghException("tiering moves did not finish within " + ROUND_PATIENCE_MILLIS + " ms");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new PraghException("tiering round was interrupted");
            } catch (java.util.concurrent.ExecutionException e) {
                failed.incrementAndGet(); // the value stays where it was; a later round tries again
            }
        }
        return done;
    }

    /** Compute machine {@code index}'s values by tier and place once its last round's moves were done. */
    public TierBytes bytes(int index) {
        return bytes.get(index);
    }

    /** Every compute machine's {@link #bytes}, summed. */
    public TierBytes bytes() {
        TierBytes sum = TierBytes.NONE;
        for (int i = 0; i < bytes.length(); i++) {
            sum = sum.plus(bytes.get(i));
        }
        return sum;
    }

    /** Bytes of live value records in compute machine {@code index}'s local memory now: what its budget bounds. */
    public long localBytes(int index) {
        return ValueCensus.take(compute[index], monitors[index], isMemoryNode, new Long2LongHashMap(-1)).localBytes();
    }

    public long demoted() {
        return demoted.get();
    }

    public long promoted() {
        return promoted.get();
    }

    /** Moves that failed or found no memory node with room. */
    public long failed() {
        return failed.get();
    }

    public long rounds() {
        return rounds.get();
    }

    @Override
    public void close() {
        DutyThread t;
        synchronized (this) {
            t = thread;
            thread = null;
        }
        if (t != null) {
            t.close();
        }
    }
}
