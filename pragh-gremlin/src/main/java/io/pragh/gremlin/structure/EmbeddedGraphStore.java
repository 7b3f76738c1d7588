package io.pragh.gremlin.structure;

import io.pragh.embedded.EmbeddedCluster;
import io.pragh.coordinator.CoordinatorConfig;
import io.pragh.monitor.MonitorConfig;
import io.pragh.embedded.Machine;
import io.pragh.embedded.OffHeapUse;
import io.pragh.gremlin.storage.GraphKeys;
import io.pragh.gremlin.storage.NameDictionary;
import io.pragh.PraghException;
import io.pragh.store.Mutators;
import io.pragh.store.StoreConfig;
import org.apache.commons.configuration2.Configuration;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.function.LongConsumer;

/**
 * A {@link GraphStore} on an {@link EmbeddedCluster} in this JVM. Client calls go through a gateway machine (machine 0,
 * where Gremlin Server and embedded callers sit); work handed to {@link #callOnHome} runs on a worker of the key's
 * home machine and its GETs are issued by that machine.
 *
 * <p>Configuration keys (all optional): {@code pragh.machines} (4), {@code pragh.workersPerMachine} (2),
 * {@code pragh.valueBytesPerMachine}, {@code pragh.keysPerMachine}, {@code pragh.cacheBytesPerMachine},
 * {@code pragh.reclaimRingSlots}, {@code pragh.remoteLatencyNs} (core defaults), {@code pragh.migration} (false:
 * split migration by itself, a monitor per machine and a coordinator; {@code ./pragh serve} turns it on) and
 * {@code pragh.migrationIntervalMillis} (the monitor's interval, 10 s) and {@code pragh.pretouch} (false: regions
 * become resident only as data arrives; a benchmark sets it so that it never times a first-touch page fault) and
 * {@code pragh.hugePages} (false: the regions on 4 KiB pages; true asks for transparent huge pages, see
 * {@code io.pragh.memory.HugePages}).
 *
 * <p>Example: {@code GraphStore store = EmbeddedGraphStore.open(new MapConfiguration(Map.of("pragh.machines", 2)));}
 */
public final class EmbeddedGraphStore implements GraphStore {
    public static final String WORKERS = "pragh.workersPerMachine";
    public static final String VALUE_BYTES = "pragh.valueBytesPerMachine";
    public static final String KEYS = "pragh.keysPerMachine";
    public static final String REMOTE_LATENCY_NS = "pragh.remoteLatencyNs";
    public static final String CACHE_BYTES = "pragh.cacheBytesPerMachine";
    public static final String RECLAIM_RING_SLOTS = "pragh.reclaimRingSlots";
    public static final String MIGRATION = "pragh.migration";
    public static final String MIGRATION_INTERVAL_MILLIS = "pragh.migrationIntervalMillis";
    public static final String PRETOUCH = "pragh.pretouch";
    public static final String HUGE_PAGES = "pragh.hugePages";

    /** The machine whose worker is running this thread's {@link #callOnHome} work, if any. */
    /** Set before the cluster closes, read by other graphs' sweepers on their own threads: volatile. */
    private volatile boolean closed;
    private final ThreadLocal<Machine> onMachine = new ThreadLocal<>();
    private final EmbeddedCluster cluster;
    private final Machine gateway;
    private final NameDictionary names;

    private EmbeddedGraphStore(final EmbeddedCluster cluster) {
        this.cluster = cluster;
        this.gateway = cluster.machine(0);
        // The sole writer of the dictionary record, so a hop over every edge label reads no record. Safe because every
        // add to the record goes through this one object: the cluster is new and private to this store (no other
        // process has its machines, no other store is built over it), every graph over the store takes its dictionary
        // from names(), and work that callOnHome runs on another machine's worker uses the graph, hence this object,
        // too; each add is read back and applied here before intern returns, before any record can carry the id.
        this.names = NameDictionary.soleWriter(new StoreDictionaryRecord(this));
    }

    /** A new embedded cluster sized by {@code conf}, with the provider's mutators registered. */
    public static EmbeddedGraphStore open(final Configuration conf) {
        final EmbeddedCluster.Builder b = EmbeddedCluster.builder()
            .machines(conf.getInt(PraghGraph.MACHINES, PraghGraph.DEFAULT_MACHINES))
            .workersPerMachine(conf.getInt(WORKERS, 2))
            .pretouch(conf.getBoolean(PRETOUCH, false));
        StoreConfig sizes = StoreConfig.defaults().withHugePages(conf.getBoolean(HUGE_PAGES, false));
        if (conf.containsKey(VALUE_BYTES)) {
            sizes = sizes.withValueBytes(conf.getLong(VALUE_BYTES));
        }
        if (conf.containsKey(KEYS)) {
            sizes = sizes.withKeys(conf.getLong(KEYS));
        }
        if (conf.containsKey(CACHE_BYTES)) {
            sizes = sizes.withCacheBytes(conf.getLong(CACHE_BYTES));
        }
        if (conf.containsKey(RECLAIM_RING_SLOTS)) {
            sizes = sizes.withReclaimRingSlots(conf.getInt(RECLAIM_RING_SLOTS));
        }
        b.config(sizes);
        if (conf.containsKey(REMOTE_LATENCY_NS)) {
            b.remoteLatencyNs(conf.getLong(REMOTE_LATENCY_NS));
        }
        if (conf.getBoolean(MIGRATION, false)) {
            b.automaticMigration(MonitorConfig.defaults().withIntervalMillis(
                conf.getLong(MIGRATION_INTERVAL_MILLIS, MonitorConfig.DEFAULT_INTERVAL_MILLIS)), CoordinatorConfig.defaults());
        }
        return build(b);
    }

    /**
     * A store on the cluster {@code b} builds, with the provider's mutators registered: for a caller that sets what
     * the configuration keys do not (a placement, further mutators), as the RDF benchmark does for its modes. The
     * store owns the cluster: closing it closes the cluster.
     *
     * <p>Example: {@code GraphStore s = EmbeddedGraphStore.build(EmbeddedCluster.builder().machines(8));}
     */
    public static EmbeddedGraphStore build(final EmbeddedCluster.Builder b) {
        MutatorAdapter.registerAll((mutator, id) -> b.mutator(id, mutator));
        return new EmbeddedGraphStore(b.build());
    }

    public EmbeddedCluster cluster() {
        return cluster;
    }

    private Machine machine() {
        final Machine m = onMachine.get();
        return m != null ? m : gateway;
    }

    @Override
    public byte[] get(final long key) {
        return machine().get(key);
    }

    @Override
    public boolean contains(final long key) {
        return machine().view(key) != null;
    }

    @Override
    public void getAllViews(final long[] keys, final int count, final IndexedViews visitor) {
        machine().session().getAll(keys, 0, count, (index, key, value) -> visitor.accept(index, value));
    }

    @Override
    public void put(final long key, final byte[] value) {
        machine().put(key, value);
    }

    @Override
    public void append(final long key, final byte[] bytes) {
        machine().update(key, Mutators.APPEND, bytes);
    }

    @Override
    public void update(final long key, final int mutatorId, final byte[] argument) {
        machine().update(key, mutatorId, argument);
    }

    @Override
    public void updateAll(final UpdateBatch batch) {
        machine().updateAll(batch.keys(), batch.mutators(), batch.arguments(), batch.size());
    }

    @Override
    public void delete(final long key) {
        machine().delete(key);
    }

    @Override
    public void forEachKey(final int kind, final LongConsumer action) {
        GraphKeys.checkKind(kind);
        for (int m = 0; m < cluster.machineCount(); m++) {
            cluster.machine(m).forEachHomeKey(key -> {
                if (GraphKeys.kind(key) == kind) {
                    action.accept(key);
                }
            });
        }
    }

    @Override
    public <T> T callOnHome(final long key, final Callable<T> work) {
        final Machine home = cluster.homeOf(key);
        if (onMachine.get() == home) {
            return call(work);
        }
        return awaitWork(home.submit(() -> {
            onMachine.set(home);
            try {
                return work.call();
            } finally {
                onMachine.remove();
            }
        }), "work on machine " + home.id());
    }

    /** Waits for work handed to a machine's worker; its own failure is rethrown as it was. */
    private static <T> T awaitWork(final Future<T> work, final String what) {
        try {
            return work.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PraghException("interrupted while waiting for " + what);
        } catch (ExecutionException e) {
            final Throwable cause = e.getCause();
            if (cause instanceof RuntimeException) {
                throw (RuntimeException) cause;
            }
            throw new PraghException(what + " failed: " + cause, cause);
        }
    }

    private static <T> T call(final Callable<T> work) {
        try {
            return work.call();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new PraghException("work failed: " + e, e);
        }
    }

    /**
     * The dictionary of every graph over this store, the record's only writer (see the constructor): it reads the
     * record only after its own adds. Writing the dictionary key through {@link #cluster()}'s machines directly would
     * go unseen.
     */
    @Override
    public NameDictionary names() {
        return names;
    }

    @Override
    public OffHeapUse offHeapUse() {
        return cluster.offHeapUse();
    }

    @Override
    public java.util.List<io.pragh.store.MachineStore> localMachines() {
        final java.util.List<io.pragh.store.MachineStore> out = new java.util.ArrayList<>();
        for (int m = 0; m < cluster.machineCount(); m++) {
            out.add(cluster.machine(m).store());
        }
        return out;
    }

    @Override
    public int machines() {
        return cluster.machineCount();
    }

    @Override
    public void close() {
        closed = true;
        cluster.close();
    }

    @Override
    public boolean isClosed() {
        return closed;
    }
}
