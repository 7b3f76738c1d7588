package io.pragh.bench.traversal;

import io.pragh.bench.workload.AdjacencyGraph;
import io.pragh.bench.workload.StartVertexDistribution;
import io.pragh.cluster.EmbeddedCluster;
import io.pragh.coordinator.CoordinatorConfig;
import io.pragh.coordinator.Decisions;
import io.pragh.fabric.FabricStats;
import io.pragh.keys.KeyLayout;
import io.pragh.keys.Placement;
import io.pragh.monitor.MonitorConfig;
import io.pragh.reclaim.Leases;
import io.pragh.store.StoreConfig;
import io.pragh.values.ValueRecord;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Runs the traversal benchmark for one mode on a fresh cluster of the graph: load, warm-up, (for migrating modes)
 * one monitoring interval (two when deferred) and the migration, then the measurement, printing progress once a
 * second.
 *
 * <p>Orig and split run with the location cache reduced to one set whose entries expire after 1 ms, because the
 * core has no switch to turn it off (see the report); split then counts remote accesses in its monitors' tables.
 *
 * <pre>{@code
 * TraversalRunner runner = new TraversalRunner(config, graph, System.out);
 * ModeResult r = runner.run(Mode.SPLIT_CACHE);
 * }</pre>
 */
public final class TraversalRunner {
    /** The smallest cache the core accepts: one set of six ways. */
    static final long NO_CACHE_BYTES = 256;
    /** Value region room for PUT churn: replaced records wait out the reclaim lease before reuse. */
    static final long CHURN_BYTES = 64L << 20;

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
        this.scopeVertices = java.util.Arrays.copyOf(withEdges, config.scope());
    }

    /** {@link LocalityBound#remoteRateFloor} of this run's GETs. */
    public double remoteRateFloor() {
        return LocalityBound.remoteRateFloor(graph, scopeVertices,
            StartVertexDistribution.of(config.dist(), config.scope()), config.fanout(), config.machines());
    }

    public ModeResult run(Mode mode) throws Exception {
        if (mode == Mode.SHARD) {
            throw new UnsupportedOperationException("mode 'shard' is not available yet in this build");
        }
        int machines = mode == Mode.IDEAL ? 1 : config.machines();
        String tag = "[" + mode.reportName() + "]";
        try (EmbeddedCluster cluster = build(mode, machines)) {
            long t0 = System.nanoTime();
            long keys = load(cluster);
            out.printf(Locale.ROOT, "%s loaded %d keys (%d edges) on %d machine(s) in %.1f s%n", tag, keys,
                graph.edgeCount(), machines, (System.nanoTime() - t0) / 1e9);
            MigrationControl control = mode.migrates() ? new MigrationControl(cluster, monitorConfig(mode),
                CoordinatorConfig.defaults().withMechanism(config.mechanism())) : null;
            QueryThread.Workload w = new QueryThread.Workload(scopeVertices, graph.vertexCount(),
                StartVertexDistribution.of(config.dist(), config.scope()), config.getRatio(), config.fanout(),
                config.seed(), new Recorder(3), new LongAdder(), new LongAdder(), new LongAdder());
            List<QueryThread> clients = new ArrayList<>();
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < config.threads(); i++) {
                QueryThread q = new QueryThread(i, w, cluster, control == null ? null : control.monitors());
                Thread t = new Thread(q, "pragh-bench-query-" + i);
                t.setDaemon(true);
                clients.add(q);
                threads.add(t);
            }
            threads.forEach(Thread::start);
            try {
                phase(tag, "warm-up", config.warmupSeconds(), w, clients);
                if (control != null) {
                    monitorAndMigrate(tag, control, w, clients);
                }
                w.latencies().getIntervalHistogram();
                long q0 = w.queries().sum();
                long p0 = w.puts().sum();
                long f0 = w.forwardedPuts().sum();
                FabricStats.Snapshot s0 = cluster.stats();
                long m0 = System.nanoTime();
                phase(tag, "measurement", config.durationSeconds(), w, clients);
                double seconds = (System.nanoTime() - m0) / 1e9;
                FabricStats.Snapshot s1 = cluster.stats();
                Histogram h = w.latencies().getIntervalHistogram();
                long queries = w.queries().sum() - q0;
                long migrated = control == null ? 0 : control.migratedKeys();
                return new ModeResult(queries / seconds, ms(h.getValueAtPercentile(50)),
                    ms(h.getValueAtPercentile(99)), ms(h.getValueAtPercentile(99.9)),
                    s1.minus(s0).remoteAccessRate(), migrated, (double) migrated / keys,
                    control == null ? 0 : control.migratedBytes(), w.forwardedPuts().sum() - f0,
                    w.puts().sum() - p0, queries);
            } finally {
                clients.forEach(QueryThread::stop);
                for (Thread t : threads) {
                    t.join(10_000);
                }
            }
        }
    }

    private MonitorConfig monitorConfig(Mode mode) {
        return MonitorConfig.defaults().withIntervalMillis(Math.max(1, (long) (config.intervalSeconds() * 1000)))
            .withRemoteCountedInTable(mode == Mode.SPLIT);
    }

    private void monitorAndMigrate(String tag, MigrationControl control, QueryThread.Workload w,
                                   List<QueryThread> clients) throws Exception {
        control.start();
        // Eager decides after one interval; deferred needs a second one, in which homes count their own accesses.
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
            checkClients(clients);
        }
    }

    private void phase(String tag, String name, double seconds, QueryThread.Workload w, List<QueryThread> clients)
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
            checkClients(clients);
            long t = System.nanoTime();
            long q = w.queries().sum();
            out.printf(Locale.ROOT, "%s %-22s %5.1f/%.1f s %12.0f q/s%n", tag, name, (t - start) / 1e9, seconds,
                (q - lastQueries) / ((t - lastT) / 1e9));
            lastQueries = q;
            lastT = t;
        }
    }

    private static void checkClients(List<QueryThread> clients) {
        for (QueryThread q : clients) {
            if (q.failure() != null) {
                throw new IllegalStateException("a query thread failed: " + q.failure(), q.failure());
            }
        }
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }

    private static long recordBytes(int degree) {
        return ValueRecord.unitsFor(8L * degree) << 3;
    }

    /** Sizes every machine for its share of the graph (exactly, per home), plus migrated-in values and PUT churn. */
    private EmbeddedCluster build(Mode mode, int machines) {
        Placement placement = Placement.hashed(machines);
        long[] keys = new long[machines];
        long[] bytes = new long[machines];
        long total = 0;
        for (int v = 0; v < graph.vertexCount(); v++) {
            int d = graph.degree(v);
            if (d > 0) {
                int home = placement.home(KeyLayout.key(v, TwoHopQuery.LABEL, KeyLayout.OUT));
                keys[home]++;
                // Size classes round up by at most an eighth.
                long b = recordBytes(d) * 9 / 8;
                bytes[home] += b;
                total += b;
            }
        }
        long maxKeys = java.util.Arrays.stream(keys).max().orElse(0);
        long maxBytes = java.util.Arrays.stream(bytes).max().orElse(0);
        long valueBytes = Math.max(StoreConfig.DEFAULT_CHUNK_BYTES >> 10, maxBytes + total / machines + CHURN_BYTES);
        // Queries run on client threads through the home machine's session, so the workers stay idle: never pin them.
        EmbeddedCluster.Builder b = EmbeddedCluster.builder().machines(machines).workersPerMachine(1).pinThreads(false)
            .keysPerMachine(maxKeys + maxKeys / 4 + 1024).valueBytesPerMachine(valueBytes)
            .remoteLatencyNs(config.remoteLatencyNs());
        if (mode == Mode.ORIG || mode == Mode.SPLIT) {
            b.cacheBytes(NO_CACHE_BYTES).leases(1, Leases.DEFAULT_RECLAIM_MILLIS);
        } else {
            b.cacheBytes((long) config.cacheMb() << 20);
        }
        return b.build();
    }

    /** PUTs every out-list at its home, from two loader threads; returns the number of keys. */
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
                    long key = KeyLayout.key(v, TwoHopQuery.LABEL, KeyLayout.OUT);
                    cluster.homeOf(key).put(key, value);
                    n++;
                }
                return n;
            }));
        }
        return parts.stream().mapToLong(CompletableFuture::join).sum();
    }
}
