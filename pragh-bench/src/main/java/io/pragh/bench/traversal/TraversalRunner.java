package io.pragh.bench.traversal;

import io.pragh.cluster.MigrationControl;

import io.pragh.bench.workload.AdjacencyGraph;
import io.pragh.bench.workload.StartVertexDistribution;
import io.pragh.cluster.EmbeddedCluster;
import io.pragh.coordinator.CoordinatorConfig;
import io.pragh.coordinator.Decisions;
import io.pragh.fabric.FabricStats;
import io.pragh.keys.KeyLayout;
import io.pragh.keys.Placement;
import io.pragh.monitor.MonitorConfig;
import io.pragh.shard.ShardAccessCounts;
import io.pragh.shard.ShardMover;
import io.pragh.shard.ShardPlacement;
import io.pragh.store.StoreConfig;
import io.pragh.values.ValueRecord;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Runs the traversal benchmark for one mode on a fresh cluster of the graph: load, warm-up, then for migrating
 * modes monitoring interval(s) each followed by its migration, then the measurement, printing progress once a
 * second. Orig, split and shard run without a location cache; split's monitors then count remote accesses in their
 * tables; shard tracks every access per shard and moves whole shards with its clients paused (the core's shard
 * mover does not take writes during a move), which costs the baseline nothing in the measurement.
 *
 * <pre>{@code
 * TraversalRunner runner = new TraversalRunner(config, graph, System.out);
 * ModeResult r = runner.run(Mode.SPLIT_CACHE);
 * }</pre>
 */
public final class TraversalRunner {
    /** Value region room for PUT churn: replaced records wait out the reclaim lease before reuse. */
    static final long CHURN_BYTES = 64L << 20;

    /** What a migration phase moved. */
    private record Moved(long keys, long bytes) {
        static final Moved NOTHING = new Moved(0, 0);
    }

    private final TraversalConfig config;
    private final AdjacencyGraph graph;
    private final PrintStream out;
    private final int[] scopeVertices;

    public TraversalRunner(TraversalConfig config, AdjacencyGraph graph, PrintStream out) {
        this.config = config;
        this.graph = graph;
        this.out = out;
        int[] withEdges = graph.verticesWithEdges();
        if (withEdges.length < config.scope()) {
            throw new IllegalArgumentException("--scope " + config.scope() + " exceeds the " + withEdges.length
                + " vertices with edges at scale " + config.scale());
        }
        this.scopeVertices = Arrays.copyOf(withEdges, config.scope());
    }

    /** {@link LocalityBound#remoteRateFloor} of this run's GETs. */
    public double remoteRateFloor() {
        return LocalityBound.remoteRateFloor(graph, scopeVertices,
            StartVertexDistribution.of(config.dist(), config.scope()), config.fanout(), config.machines());
    }

    public ModeResult run(Mode mode) throws Exception {
        int machines = mode == Mode.IDEAL ? 1 : config.machines();
        String tag = "[" + mode.reportName() + "]";
        ShardPlacement shards = mode == Mode.SHARD
            ? new ShardPlacement(machines, ShardPlacement.DEFAULT_SHARDS_PER_MACHINE) : null;
        try (EmbeddedCluster cluster = build(mode, machines, shards)) {
            long t0 = System.nanoTime();
            long keys = load(cluster);
            out.printf(Locale.ROOT, "%s loaded %d keys (%d adjacency entries) on %d machine(s) in %.1f s%n", tag, keys,
                graph.edgeCount(), machines, (System.nanoTime() - t0) / 1e9);
            QueryThread.Workload w = new QueryThread.Workload(scopeVertices, graph.vertexCount(),
                StartVertexDistribution.of(config.dist(), config.scope()), config.getRatio(), config.fanout(),
                config.batchedGets(),
                config.seed(), new Recorder(3), new LongAdder(), new LongAdder());
            Clients clients = new Clients(w, cluster, config.threads());
            clients.start();
            try {
                phase(tag, "warm-up", config.warmupSeconds(), w, clients);
                Moved moved = switch (mode) {
                    case SPLIT, SPLIT_CACHE -> splitMigration(tag, cluster, w, clients);
                    case SHARD -> shardMigration(tag, cluster, shards, w, clients);
                    default -> Moved.NOTHING;
                };
                w.latencies().getIntervalHistogram();
                long q0 = w.queries().sum();
                long p0 = w.puts().sum();
                long f0 = forwardedUpdates(cluster);
                FabricStats.Snapshot s0 = cluster.stats();
                long m0 = System.nanoTime();
                phase(tag, "measurement", config.durationSeconds(), w, clients);
                double seconds = (System.nanoTime() - m0) / 1e9;
                FabricStats.Snapshot s1 = cluster.stats();
                Histogram h = w.latencies().getIntervalHistogram();
                long queries = w.queries().sum() - q0;
                return new ModeResult(queries / seconds, ms(h.getValueAtPercentile(50)),
                    ms(h.getValueAtPercentile(99)), ms(h.getValueAtPercentile(99.9)),
                    s1.minus(s0).remoteAccessRate(), moved.keys(), (double) moved.keys() / keys, moved.bytes(),
                    forwardedUpdates(cluster) - f0, w.puts().sum() - p0, queries);
            } finally {
                clients.stop();
            }
        }
    }

    /** Monitoring intervals (one eager, two deferred by default), each followed by the migrations it approved. */
    private Moved splitMigration(String tag, EmbeddedCluster cluster, QueryThread.Workload w, Clients clients)
        throws Exception {
        MonitorConfig monitorConfig = MonitorConfig.defaults()
            .withIntervalMillis(Math.max(1, (long) (config.intervalSeconds() * 1000)));
        MigrationControl control = new MigrationControl(cluster, monitorConfig,
            CoordinatorConfig.defaults().withMechanism(config.mechanism()));
        control.start();
        for (int i = 1; i <= config.intervals(); i++) {
            phase(tag, "monitoring interval " + i, config.intervalSeconds(), w, clients);
            Decisions d = control.endInterval();
            out.printf(Locale.ROOT, "%s interval %d: %d migrations approved, %d keys to track, %d to untrack%n", tag, i,
                d.approvals().size(), d.track().size(), d.untrack().size());
            long t0 = System.nanoTime();
            long before = control.migratedKeys();
            long moved = control.awaitMigrations(120_000) - before;
            out.printf(Locale.ROOT, "%s migration: %d values moved in %.2f s while queries ran (%d bytes in all)%n",
                tag, moved, (System.nanoTime() - t0) / 1e9, control.migratedBytes());
            clients.check();
        }
        return new Moved(control.migratedKeys(), control.migratedBytes());
    }

    /** One interval of full per-shard tracking, then the optimal plan applied with the clients paused. */
    private Moved shardMigration(String tag, EmbeddedCluster cluster, ShardPlacement shards, QueryThread.Workload w,
                                 Clients clients) throws Exception {
        ShardAccessCounts counts = new ShardAccessCounts(shards);
        for (int m = 0; m < cluster.machineCount(); m++) {
            cluster.machine(m).store().setAccessObserver(counts.observerFor(m));
        }
        phase(tag, "monitoring interval", config.intervalSeconds(), w, clients);
        for (int m = 0; m < cluster.machineCount(); m++) {
            cluster.machine(m).store().setAccessObserver(null);
        }
        clients.stop();
        long t0 = System.nanoTime();
        ShardMover mover = new ShardMover(cluster, shards);
        int moved = mover.apply(counts.plan());
        out.printf(Locale.ROOT, "%s migration: %d of %d shards (%d keys, %d bytes) moved in %.2f s, clients paused%n",
            tag, moved, shards.shards(), mover.keysMoved(), mover.bytesMoved(), (System.nanoTime() - t0) / 1e9);
        clients.start();
        return new Moved(mover.keysMoved(), mover.bytesMoved());
    }

    private void phase(String tag, String name, double seconds, QueryThread.Workload w, Clients clients)
        throws InterruptedException {
        long start = System.nanoTime();
        long end = start + (long) (seconds * 1e9);
        long lastQueries = w.queries().sum();
        long lastT = start;
        while (true) {
            long now = System.nanoTime();
            if (now >= end) {
                break;
            }
            Thread.sleep(Math.max(1, Math.min(1000, (end - now) / 1_000_000)));
            clients.check();
            long t = System.nanoTime();
            long q = w.queries().sum();
            out.printf(Locale.ROOT, "%s %-22s %5.1f/%.1f s %12.0f q/s%n", tag, name, (t - start) / 1e9, seconds,
                (q - lastQueries) / ((t - lastT) / 1e9));
            lastQueries = q;
            lastT = t;
        }
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }

    /**
     * Sizes every machine for its share of the graph (exactly, per home) plus migrated-in values and PUT churn; a
     * shard machine may end up owning every shard, so it is sized for the whole graph.
     */
    private EmbeddedCluster build(Mode mode, int machines, ShardPlacement shards) {
        Placement hashed = Placement.hashed(machines);
        long[] keys = new long[machines];
        long[] bytes = new long[machines];
        long totalKeys = 0;
        long total = 0;
        for (int v = 0; v < graph.vertexCount(); v++) {
            int d = graph.degree(v);
            if (d > 0) {
                int home = hashed.home(KeyLayout.key(v, QueryThread.LABEL, KeyLayout.OUT));
                // Size classes round up by at most an eighth.
                long b = (ValueRecord.unitsFor(8L * d) << 3) * 9 / 8;
                keys[home]++;
                bytes[home] += b;
                totalKeys++;
                total += b;
            }
        }
        long maxKeys = shards != null ? totalKeys : Arrays.stream(keys).max().orElse(0);
        long maxBytes = shards != null ? total : Arrays.stream(bytes).max().orElse(0) + total / machines;
        long valueBytes = Math.max(StoreConfig.DEFAULT_CHUNK_BYTES >> 10, maxBytes + CHURN_BYTES);
        // Queries run on client threads through the home machine's session, so the workers stay idle: never pin them.
        EmbeddedCluster.Builder b = EmbeddedCluster.builder().machines(machines).workersPerMachine(1).pinThreads(false)
            .keysPerMachine(maxKeys + maxKeys / 4 + 1024).valueBytesPerMachine(valueBytes)
            .remoteLatencyNs(config.remoteLatencyNs())
            .cacheBytes(mode == Mode.SPLIT_CACHE || mode == Mode.IDEAL ? (long) config.cacheMb() << 20 : 0);
        if (shards != null) {
            b.placement(shards);
        }
        // --fabric tcp: every machine on its own loopback TCP fabric, owned and closed by the cluster.
        return config.tcp() ? LoopbackTcpFabrics.cluster(b, machines, "[" + mode.reportName() + "]", out) : b.build();
    }

    /** PUTs every adjacency list at its home, from two loader threads; returns the number of keys. */
    private long load(EmbeddedCluster cluster) {
        int loaders = 2;
        List<CompletableFuture<Long>> parts = new ArrayList<>();
        for (int part = 0; part < loaders; part++) {
            int p = part;
            parts.add(CompletableFuture.supplyAsync(() -> {
                long n = 0;
                for (int v = p; v < graph.vertexCount(); v += loaders) {
                    int d = graph.degree(v);
                    if (d == 0) {
                        continue;
                    }
                    byte[] value = new byte[8 * d];
                    UnsafeBuffer buf = new UnsafeBuffer(value);
                    for (int i = 0; i < d; i++) {
                        buf.putLong(8 * i, graph.neighbour(v, i));
                    }
                    long key = KeyLayout.key(v, QueryThread.LABEL, KeyLayout.OUT);
                    cluster.homeOf(key).put(key, value);
                    n++;
                }
                return n;
            }));
        }
        return parts.stream().mapToLong(CompletableFuture::join).sum();
    }

    /** The query threads of one mode; stopped and started again (a new generation) around a shard move. */
    private static final class Clients {
        private final QueryThread.Workload w;
        private final EmbeddedCluster cluster;
        private final int count;
        private final List<QueryThread> queries = new ArrayList<>();
        private final List<Thread> threads = new ArrayList<>();
        private int generation;

        Clients(QueryThread.Workload w, EmbeddedCluster cluster, int count) {
            this.w = w;
            this.cluster = cluster;
            this.count = count;
        }

        void start() {
            for (int i = 0; i < count; i++) {
                QueryThread q = new QueryThread(i, generation, w, cluster);
                Thread t = new Thread(q, "pragh-bench-query-" + generation + "-" + i);
                t.setDaemon(true);
                queries.add(q);
                threads.add(t);
                t.start();
            }
            generation++;
        }

        void stop() throws InterruptedException {
            queries.forEach(QueryThread::stop);
            for (Thread t : threads) {
                t.join(10_000);
            }
            check();
            queries.clear();
            threads.clear();
        }

        void check() {
            for (QueryThread q : queries) {
                if (q.failure() != null) {
                    throw new IllegalStateException("a query thread failed: " + q.failure(), q.failure());
                }
            }
        }
    }

    /** Updates the homes forwarded to a migrated value's host (the store counts them where it forwards). */
    private static long forwardedUpdates(EmbeddedCluster cluster) {
        long n = 0;
        for (int m = 0; m < cluster.machineCount(); m++) {
            n += cluster.machine(m).store().forwardedUpdates();
        }
        return n;
    }
}
