package io.pragh.embedded;

import io.pragh.address.Address;
import io.pragh.coordinator.CoordinatorConfig;
import io.pragh.monitor.MonitorConfig;
import io.pragh.durability.SyncPolicy;
import java.nio.file.Path;
import io.pragh.fabric.Fabric;
import io.pragh.fabric.FabricStats;
import io.pragh.fabric.inprocess.InProcessFabric;
import io.pragh.keys.Placement;
import io.pragh.reclaim.Leases;
import io.pragh.runtime.WorkerPool;
import io.pragh.store.MachineStore;
import io.pragh.store.Mutators;
import io.pragh.store.ReplicaSettings;
import io.pragh.store.StoreConfig;
import io.pragh.store.ValueMutator;
import io.pragh.tier.MachineRole;
import io.pragh.tier.Tiering;
import io.pragh.tier.TieringConfig;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntFunction;

/**
 * A whole Pragh cluster inside one JVM: N machines, each with its own off-heap regions, location cache, worker
 * threads, migration thread and GC thread, connected by the in-process fabric (one-sided operations touch peers'
 * memory directly, charged an emulated RDMA latency). This is the API a JVM application embeds. A benchmark may
 * instead give every machine a fabric of its own ({@link Builder#fabricPerMachine}), e.g. a TCP fabric on a loopback
 * port, so the same embedded cluster runs over real sockets.
 *
 * <pre>{@code
 * try (EmbeddedCluster cluster = EmbeddedCluster.builder().machines(4).build()) {
 *     Machine m0 = cluster.machine(0);
 *     long alice = KeyLayout.key(1, 0, KeyLayout.VERTEX);
 *     m0.put(alice, "alice".getBytes(StandardCharsets.UTF_8));
 *     AdjacencyLists graph = cluster.graph();
 *     graph.addEdge(1, 0, 2);                                  // 1 -[label 0]-> 2
 *     graph.addEdge(2, 0, 3);
 *     long[] twoHop = graph.kHop(1, 0, 2, 100).join();       // {3}, run on vertex 1's home machine
 *     cluster.machine(3).migrate(KeyLayout.key(2, 0, KeyLayout.OUT)); // value moves, key stays home
 * }
 * }</pre>
 */
public final class EmbeddedCluster implements AutoCloseable {
    /** Fabric of each machine; the same instance for every machine unless built with a fabric per machine. */
    private final Fabric[] fabrics;
    private final Machine[] machines;
    private final Placement placement;
    private final AdjacencyLists graph;
    private final MigrationControl migrationControl;
    private final int computeMachines;
    private final Tiering tiering;
    private final MachineRestarts restarts;

    private EmbeddedCluster(Builder b) {
        int total = b.machines + b.memoryNodes;
        Address.checkMachineCount(total);
        this.computeMachines = b.machines;
        this.fabrics = new Fabric[total];
        if (b.fabricPerMachine == null) {
            Arrays.fill(fabrics, MachineAssembly.sharedFabric(total, b.remoteLatencyNs));
        }
        this.placement = MachineAssembly.placement(b.placement, b.machines, b.memoryNodes);
        this.machines = new Machine[total];
        boolean pin = b.pin != null ? b.pin : WorkerPool.pinningPays(b.machines * b.workersPerMachine);
        this.restarts = new MachineRestarts(b, pin);
        try {
            for (int i = 0; i < total; i++) {
                if (b.fabricPerMachine != null) {
                    fabrics[i] = Objects.requireNonNull(b.fabricPerMachine.apply(i),
                        "fabricPerMachine returned no fabric for machine " + i);
                }
                machines[i] = MachineAssembly.assemble(b, i, total, fabrics[i], placement, pin, false);
            }
        } catch (RuntimeException | Error e) {
            close();
            throw e;
        }
        this.graph = new AdjacencyLists(this);
        if (b.monitorConfig != null) {
            this.migrationControl = new MigrationControl(this, b.monitorConfig, b.coordinatorConfig);
            migrationControl.startAutomatic();
        } else {
            this.migrationControl = null;
        }
        this.tiering = b.tiering == null ? null : FarMemory.startTiering(this, b.tiering, migrationControl);
    }

    /** The far-memory tier's duty, or null when the cluster was built without {@link Builder#tiering}. */
    public Tiering tiering() {
        return tiering;
    }

    /**
     * Restarts memory node {@code id} as its process dying and starting again would ({@link MachineRestarts}): its
     * values are put back at their homes from their logs, the tier spills to the new, empty node from its next round.
     * Example: {@code cluster.restartMemoryNode(cluster.computeMachineCount())} (the first memory node).
     */
    public Machine restartMemoryNode(int id) {
        return restarts.restartMemoryNode(this, machines, id);
    }

    /** Compute machines: ids {@code 0..computeMachineCount()-1}; memory nodes follow them. */
    public int computeMachineCount() {
        return computeMachines;
    }

    /** Whether machine {@code id} computes (homes keys, runs queries) or is a memory node (hosts values only). */
    public MachineRole role(int id) {
        machine(id); // range check with the usual message
        return id < computeMachines ? MachineRole.COMPUTE : MachineRole.MEMORY;
    }

    /** The automatic migration control plane, or null when the cluster was built without one. */
    public MigrationControl migrationControl() {
        return migrationControl;
    }

    public static Builder builder() {
        return new Builder();
    }

    public int machineCount() {
        return machines.length;
    }

    /** Off-heap memory of every machine, summed (see {@link Machine#offHeapUse}). */
    public OffHeapUse offHeapUse() {
        OffHeapUse sum = OffHeapUse.NONE;
        for (Machine m : machines) {
            sum = sum.plus(m.offHeapUse());
        }
        return sum;
    }

    public Machine machine(int id) {
        if (id < 0 || id >= machines.length) {
            throw new IllegalArgumentException("machine " + id + " is outside 0.." + (machines.length - 1));
        }
        return machines[id];
    }

    /** Home machine of a key: a hash of its vertex id. */
    public int home(long key) {
        return placement.home(key);
    }

    public Placement placement() {
        return placement;
    }

    public Machine homeOf(long key) {
        return machines[placement.home(key)];
    }

    /** Machine 0's fabric: the one fabric of every machine, unless built with {@link Builder#fabricPerMachine}. */
    public Fabric fabric() {
        return fabrics[0];
    }

    /** The fabric machine {@code id} is attached to. */
    public Fabric fabric(int id) {
        machine(id); // range check with the usual message
        return fabrics[id];
    }

    /** Graph operations (edges, k-hop traversals) over this cluster. */
    public AdjacencyLists graph() {
        return graph;
    }

    /** Access counts summed over every machine. */
    public FabricStats.Snapshot stats() {
        FabricStats.Snapshot sum = FabricStats.Snapshot.ZERO;
        for (Machine m : machines) {
            if (m != null) {
                sum = sum.plus(m.stats().snapshot());
            }
        }
        return sum;
    }

    public void resetStats() {
        for (Machine m : machines) {
            m.stats().reset();
        }
    }

    /** Runs a task on every machine's worker and waits for all. */
    public List<CompletableFuture<Void>> onEveryMachine(java.util.function.Consumer<Machine> task) {
        List<CompletableFuture<Void>> all = new ArrayList<>();
        for (Machine m : machines) {
            all.add(m.submit(() -> {
                task.accept(m);
                return null;
            }));
        }
        return all;
    }

    /**
     * Stops every thread (the fabrics' included) and frees all off-heap memory. Operations in flight, on any thread,
     * fail with a {@link io.pragh.PraghException} saying their machine closed; none runs on freed memory
     * ({@link OrderlyShutdown} says in which order, and why).
     */
    @Override
    public void close() {
        if (tiering != null) {
            tiering.close();
        }
        if (migrationControl != null) {
            migrationControl.close();
        }
        if (OrderlyShutdown.close(machines, fabrics)) {
            restarts.closeRetired(); // every thread of the cluster stopped: none can touch the old nodes' memory
        }
    }

    /**
     * Sizes, leases and threads of an embedded cluster. Defaults: 4 machines, 2 workers each, 256 MiB of values and
     * 1 Mi keys per machine, a 128 MiB location cache, leases of 5 s (cache) and 500 ms (reclaim), the in-process
     * fabric's default emulated latency, pinning when the host has a core for every worker.
     */
    public static final class Builder {
        int machines = 4;
        int workersPerMachine = 2;
        StoreConfig config = StoreConfig.defaults();
        private long remoteLatencyNs = InProcessFabric.DEFAULT_REMOTE_LATENCY_NS;
        Boolean pin;
        long operationTimeoutMillis = 30_000;
        final Mutators mutators = Mutators.withBuiltins();
        private Placement placement;
        Path dataDirectory;
        SyncPolicy syncPolicy = SyncPolicy.BATCH;
        long snapshotEveryMillis = 60_000;
        private MonitorConfig monitorConfig;
        private CoordinatorConfig coordinatorConfig;
        private IntFunction<? extends Fabric> fabricPerMachine;
        ReplicaSettings replicas = ReplicaSettings.OFF;
        boolean pretouch;
        private int memoryNodes;
        long memoryNodeValueBytes = -1;
        private TieringConfig tiering;

        /**
         * Adds {@code n} memory nodes after the compute machines ({@link #machines}): they home no key and run no
         * query, and hold the values the far-memory tier moves out ({@link #tiering}). Each has
         * {@code valueBytes} of value region (-1: as much as a compute machine).
         */
        public Builder memoryNodes(int n, long valueBytes) {
            if (n < 0) {
                throw new IllegalArgumentException("memoryNodes must be >= 0, got " + n);
            }
            this.memoryNodes = n;
            this.memoryNodeValueBytes = valueBytes;
            return this;
        }

        /**
         * Runs the far-memory tier: every compute machine keeps at most {@link TieringConfig#localBudgetBytes} of
         * values local, cold ones going to the memory nodes first (needs {@link #memoryNodes}).
         *
         * <pre>{@code
         * EmbeddedCluster.builder().machines(2).memoryNodes(1, 1L << 30)
         *     .tiering(TieringConfig.defaults().withLocalBudgetBytes(64L << 20)).build();
         * }</pre>
         */
        public Builder tiering(TieringConfig config) {
            this.tiering = Objects.requireNonNull(config, "config");
            return this;
        }

        /**
         * Attaches machine {@code i} to {@code factory.apply(i)} instead of one in-process fabric shared by all, e.g. a
         * TCP fabric per machine on its own loopback port, each already told its peers' addresses. The factory is
         * called once per machine, in id order, while the cluster is built; the cluster owns what it returns and
         * closes every distinct fabric once on {@link EmbeddedCluster#close} (or when the build fails).
         * {@link #remoteLatencyNs} is not used: the latency is whatever the given fabrics have.
         *
         * <pre>{@code
         * TcpFabric[] tcp = ...;                       // one per machine, bound, peers' ports known
         * EmbeddedCluster c = EmbeddedCluster.builder().machines(tcp.length).fabricPerMachine(i -> tcp[i]).build();
         * }</pre>
         */
        public Builder fabricPerMachine(IntFunction<? extends Fabric> factory) {
            this.fabricPerMachine = Objects.requireNonNull(factory, "factory");
            return this;
        }

        /**
         * Turns on split migration by itself: a monitor on every machine and a coordinator that approves migrations
         * on instant reports and at the end of every monitoring interval ({@link MigrationControl#startAutomatic}).
         */
        public Builder automaticMigration(MonitorConfig monitor, CoordinatorConfig coordinator) {
            this.monitorConfig = monitor;
            this.coordinatorConfig = coordinator;
            return this;
        }

        /**
         * Makes the cluster durable in {@code dir} (one sub-directory per machine): every update is logged at its
         * key's home and acknowledged once durable under {@code policy}; a cluster built again on the same directory
         * recovers every acknowledged update.
         */
        public Builder durability(Path dir, SyncPolicy policy, long snapshotEveryMillis) {
            this.dataDirectory = dir;
            this.syncPolicy = policy;
            this.snapshotEveryMillis = snapshotEveryMillis;
            return this;
        }

        /** Replaces hash placement, e.g. by the benchmark's shard-to-machine table (pragh-bench's shard baseline). */
        public Builder placement(Placement p) {
            this.placement = p;
            return this;
        }

        public Builder machines(int n) {
            Address.checkMachineCount(n);
            this.machines = n;
            return this;
        }

        public Builder workersPerMachine(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("workersPerMachine must be >= 1, got " + n);
            }
            this.workersPerMachine = n;
            return this;
        }

        public Builder config(StoreConfig c) {
            this.config = c;
            return this;
        }

        public Builder keysPerMachine(long n) {
            config = config.withKeys(n);
            return this;
        }

        public Builder valueBytesPerMachine(long n) {
            config = config.withValueBytes(n);
            return this;
        }

        public Builder cacheBytes(long n) {
            config = config.withCacheBytes(n);
            return this;
        }

        public Builder leases(long cacheMillis, long reclaimMillis) {
            config = config.withLeases(new Leases(cacheMillis, reclaimMillis));
            return this;
        }

        /** Read replicas of contended values (docs/replicas.md): bytes each machine may hold, and their lease. */
        public Builder replicas(long bytesPerMachine, long leaseMillis) {
            replicas = new ReplicaSettings(bytesPerMachine, leaseMillis);
            return this;
        }

        public Builder remoteLatencyNs(long ns) {
            if (ns < 0) {
                throw new IllegalArgumentException("remoteLatencyNs must be >= 0, got " + ns);
            }
            this.remoteLatencyNs = ns;
            return this;
        }

        /**
         * Makes every page of every machine's regions resident while the cluster is built, as a benchmark wants so
         * that it never times a first-touch page fault. Off by default: regions then cost resident memory only as
         * data arrives.
         */
        public Builder pretouch(boolean pretouch) {
            this.pretouch = pretouch;
            return this;
        }

        /**
         * Asks for transparent huge pages under every machine's key and value regions and location cache
         * ({@link io.pragh.memory.HugePages}, where the kernel offers them): fewer TLB misses on random lookups, at
         * the price of memory becoming resident 2 MiB at a time. Off by default; a benchmark that pre-touches its
         * regions loses nothing by it.
         */
        public Builder hugePages(boolean hugePages) {
            config = config.withHugePages(hugePages);
            return this;
        }

        public Builder pinThreads(boolean pinThreads) {
            this.pin = pinThreads;
            return this;
        }

        public Builder operationTimeoutMillis(long ms) {
            if (ms <= 0) {
                throw new IllegalArgumentException("operationTimeoutMillis must be > 0, got " + ms);
            }
            this.operationTimeoutMillis = ms;
            return this;
        }

        /** Registers a provider's value mutator (ids from {@link Mutators#FIRST_PROVIDER_ID}) on every machine. */
        public Builder mutator(int id, ValueMutator mutator) {
            mutators.register(id, mutator);
            return this;
        }

        public EmbeddedCluster build() {
            if (tiering != null && memoryNodes == 0) {
                throw new IllegalArgumentException("tiering needs memory nodes to move values to: set memoryNodes");
            }
            return new EmbeddedCluster(this);
        }
    }
}
