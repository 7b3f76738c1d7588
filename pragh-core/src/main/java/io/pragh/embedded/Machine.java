package io.pragh.embedded;

import io.pragh.PraghException;
import io.pragh.durability.Durability;
import io.pragh.fabric.FabricStats;
import io.pragh.fabric.MachineMemory;
import io.pragh.keys.KeyRegion;
import io.pragh.migration.MigrationThread;
import io.pragh.migration.Migrator;
import io.pragh.runtime.SpinYieldPark;
import io.pragh.runtime.WorkerPool;
import io.pragh.store.MachineStore;
import io.pragh.store.Mutators;
import io.pragh.store.Session;
import io.pragh.store.ValueView;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongConsumer;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One machine of a Pragh cluster: its store, its worker threads, its migration thread and (inside the store) its GC
 * thread. Every operation may be called from any thread on any machine; it reaches the right machines itself.
 *
 * <pre>{@code
 * Machine m = cluster.machine(0);
 * m.put(key, "hello".getBytes(UTF_8));
 * byte[] v = m.get(key);
 * m.migrate(key);                  // move the value here; the key stays at its home
 * }</pre>
 */
public final class Machine implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Machine.class);

    private final MachineStore store;
    private final WorkerPool workers;
    private final MigrationThread migration;
    private final long timeoutMillis;
    private final Durability durability;
    /** Set once {@link #quiesce} found nothing running; guarded by this. */
    private boolean quiet;
    private final HomeBatches batches;
    /** Updates from which {@link #updateAll} sends them by home machine rather than one message each. */
    static final int HOME_BATCH_MIN = 64;

    /**
     * One machine of a multi-process cluster: wraps a store already attached to its fabric (and recovered, if
     * durable) with worker threads and a migration thread. {@link EmbeddedCluster} uses this for each of its machines.
     *
     * <pre>{@code
     * MachineStore store = new MachineStore(id, machines, config, Placement.hashed(machines), mutators);
     * Durability d = Durability.open(dataDir, SyncPolicy.BATCH, 60_000, store);
     * store.attach(tcpFabric);
     * Machine m = Machine.start(store, d, 2, false, 30_000);
     * }</pre>
     *
     * @param durability the machine's log and snapshots, or null for memory only; closed with the machine
     */
    public static Machine start(MachineStore store, Durability durability, int workerThreads, boolean pin,
                                long timeoutMillis) {
        return new Machine(store, durability, workerThreads, pin, timeoutMillis);
    }

    Machine(MachineStore store, Durability durability, int workerThreads, boolean pin, long timeoutMillis) {
        this.store = store;
        this.durability = durability;
        this.workers = new WorkerPool("m" + store.id(), workerThreads, pin);
        this.migration = new MigrationThread(store);
        this.timeoutMillis = timeoutMillis;
        this.batches = new HomeBatches(store);
        migration.start();
    }

    public int id() {
        return store.id();
    }

    /** The data plane, for components that extend the machine (monitor, provider, server). */
    public MachineStore store() {
        return store;
    }

    /** This machine's log and snapshots, or null when it keeps everything in memory only. */
    public Durability durability() {
        return durability;
    }

    public FabricStats stats() {
        return store.stats();
    }

    /** The calling thread's session on this machine, for allocation-free GETs. */
    public Session session() {
        return store.session();
    }

    /** The key's value, or null when it has none: a copy (see {@link #view} for reading it where it lies). */
    public byte[] get(long key) {
        ValueView v = view(key);
        return v == null ? null : v.toBytes();
    }

    /**
     * The key's value without a copy: a flyweight over the calling thread's session buffer, valid until that thread's
     * next GET on this machine; null when the key has none.
     *
     * <pre>{@code
     * ValueView v = machine.view(key);
     * int entries = v == null ? 0 : v.length() / 16;
     * }</pre>
     */
    public ValueView view(long key) {
        try {
            return store.session().get(key);
        } catch (RuntimeException e) {
            throw closing(e, "a GET of key " + key);
        }
    }

    /** Stores a value; returns once acknowledged. */
    public void put(long key, byte[] value) {
        update(key, Mutators.SET, value);
    }

    /** Runs a registered mutator on the key's value at the value's host; returns once acknowledged. */
    public void update(long key, int mutatorId, byte[] arg) {
        CompletableFuture<Void> f = updateAsync(key, mutatorId, arg);
        try {
            await(f, "update of key " + key);
        } finally {
            if (!f.isDone()) {
                store.abandon(f); // timed out or interrupted: forget it, a late acknowledgement finds nothing
            }
        }
    }

    /**
     * Runs registered mutators on {@code count} keys at once: every update is issued before any is waited for, so
     * their round trips overlap rather than add up, and from {@value #HOME_BATCH_MIN} updates on they travel in one
     * message per home machine ({@link HomeBatches}). Returns once all are acknowledged; when one fails, the others
     * are still waited for (so none is left running unseen) and the first failure is thrown. Updates of one key in
     * one call may take effect in any order: give each key at most one, or only ones that commute.
     *
     * <pre>{@code
     * m.updateAll(new long[] {out, in}, new int[] {Mutators.APPEND, Mutators.APPEND}, new byte[][] {a, b}, 2);
     * }</pre>
     */
    public void updateAll(long[] keys, int[] mutatorIds, byte[][] args, int count) {
        List<CompletableFuture<Void>> issued = updateAllAsync(keys, mutatorIds, args, count);
        // One deadline for the lot: they all run at once, so together they get the time one update gets.
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        RuntimeException failure = null;
        for (CompletableFuture<Void> f : issued) {
            try {
                await(f, "an update of " + count + " issued together", deadline - System.nanoTime());
            } catch (RuntimeException e) {
                abandon(List.of(f));
                if (failure == null) {
                    failure = e;
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /**
     * Issues {@link #updateAll}'s updates without waiting: one future each (one per home machine's message from
     * {@value #HOME_BATCH_MIN} updates on). A caller that gives up on them passes them to {@link #abandon}.
     */
    public List<CompletableFuture<Void>> updateAllAsync(long[] keys, int[] mutatorIds, byte[][] args, int count) {
        if (count >= HOME_BATCH_MIN) {
            return batches.issue(keys, mutatorIds, args, count);
        }
        List<CompletableFuture<Void>> issued = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            issued.add(updateAsync(keys[i], mutatorIds[i], args[i]));
        }
        return issued;
    }

    /** Forgets updates a caller gave up on (timed out): a late acknowledgement of one finds nothing. */
    public void abandon(List<CompletableFuture<Void>> updates) {
        for (CompletableFuture<Void> f : updates) {
            if (!f.isDone()) {
                store.abandon(f);
                batches.abandon(f);
            }
        }
    }

    /** Updates of many keys in one message per home machine; {@link #updateAll} uses them for large batches. */
    public HomeBatches homeBatches() {
        return batches;
    }

    public CompletableFuture<Void> updateAsync(long key, int mutatorId, byte[] arg) {
        try {
            return store.update(key, mutatorId, new UnsafeBuffer(arg), 0, arg.length);
        } catch (RuntimeException e) {
            throw closing(e, "an update of key " + key);
        }
    }

    /**
     * What an operation that failed reports: its own exception, or, when the machine began to close meanwhile, a
     * {@link PraghException} saying so (the exception it hit, e.g. the fabric's "closed", as its cause).
     */
    private RuntimeException closing(RuntimeException e, String what) {
        if (!store.isClosing()
            || (e instanceof PraghException && String.valueOf(e.getMessage()).startsWith("machine " + id() + " "))) {
            return e;
        }
        return new PraghException("machine " + id() + " closed while " + what + " was in flight", e);
    }

    /** Deletes the key and its value; returns once acknowledged. Deleting an absent key succeeds. */
    public void delete(long key) {
        update(key, Mutators.DELETE, new byte[0]);
    }

    /** MIGRATE the key's value to this machine, on this machine's migration thread; returns what happened. */
    public Migrator.Outcome migrate(long key) {
        return await(migrateAsync(key), "migration of key " + key);
    }

    public CompletableFuture<Migrator.Outcome> migrateAsync(long key) {
        return migration.submit(key);
    }

    public MigrationThread migrationThread() {
        return migration;
    }

    /** Runs a task on one of this machine's worker threads. */
    public <T> CompletableFuture<T> submit(Callable<T> task) {
        return workers.submit(task);
    }

    /**
     * This machine's off-heap memory: what its regions reserve, and what keys, values and superseded values waiting
     * for their reclaim lease use of it.
     */
    public OffHeapUse offHeapUse() {
        MachineMemory memory = store.memory();
        long reserved = memory.keys().capacity() + memory.values().capacity() + memory.reclaim().capacity()
            + store.cache().bytes();
        long live = store.values().liveBytes();
        // Records posted to a ring but not yet taken by the GC thread are counted as garbage too: they are.
        long garbage = Math.min(live, store.reclaimer().awaitingReclaimBytes());
        return new OffHeapUse(reserved, store.keys().size() * KeyRegion.SLOT_BYTES, live - garbage, garbage);
    }

    /** Visits every key whose home is this machine and that has a value. */
    public void forEachHomeKey(LongConsumer visitor) {
        store.keys().forEach((key, address, slot) -> visitor.accept(key));
    }

    private <T> T await(CompletableFuture<T> f, String what) {
        return await(f, what, TimeUnit.MILLISECONDS.toNanos(timeoutMillis));
    }

    private <T> T await(CompletableFuture<T> f, String what, long nanos) {
        try {
            // An acknowledgement usually comes within microseconds: waiting for it in a park would add a wake-up.
            SpinYieldPark.spinYieldUntil(f::isDone);
            return f.get(Math.max(0, nanos), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            throw new PraghException(what + " was not acknowledged within " + timeoutMillis + " ms");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PraghException(what + " was interrupted");
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof RuntimeException r) {
                throw r;
            }
            throw new PraghException(what + " failed: " + c, c);
        }
    }

    /**
     * The first step of closing: new operations are refused ("machine N is closed"), updates waiting for an
     * acknowledgement fail. {@link EmbeddedCluster#close} calls it on every machine before closing the fabric.
     */
    public void beginClose() {
        store.beginClose();
    }

    /**
     * Everything of closing but freeing memory: {@link #beginClose}, then stops and joins this machine's threads
     * (workers, migration, durability, GC, leak scan) and waits until every operation admitted before has left.
     * A cluster quiesces every machine before it frees any, since a thread of one machine reads the others' memory.
     *
     * @return false when something was still running after {@link MachineStore#CLOSE_PATIENCE_MILLIS}
     */
    public synchronized boolean quiesce() {
        if (quiet) {
            return true;
        }
        beginClose();
        boolean stopped = workers.stop(MachineStore.CLOSE_PATIENCE_MILLIS);
        stopped &= migration.stop(MachineStore.CLOSE_PATIENCE_MILLIS);
        if (durability != null) {
            durability.close();
        }
        quiet = store.quiesce() && stopped;
        return quiet;
    }

    /**
     * Stops and joins this machine's threads, waits for operations in flight (they fail with a {@link PraghException}
     * saying the machine closed) and frees its memory; memory a thread might still touch is left allocated instead.
     */
    @Override
    public void close() {
        if (!quiesce()) {
            LOG.warn("machine {} did not quiesce; its memory stays allocated", id());
            return;
        }
        store.close();
    }
}
