package io.pragh.bench.traversal;

import io.pragh.bench.shard.ShardPlacement;
import io.pragh.bench.traversal.deploy.BenchCluster;
import io.pragh.bench.traversal.deploy.ClusterSpec;
import io.pragh.bench.traversal.deploy.CompulsoryReads;
import io.pragh.bench.traversal.deploy.EmbeddedBenchCluster;
import io.pragh.bench.traversal.deploy.ProcessBenchCluster;
import io.pragh.bench.traversal.deploy.QueryPath;
import io.pragh.bench.traversal.history.HistoryCheck;
import io.pragh.bench.traversal.history.KeySample;
import io.pragh.bench.traversal.history.TraversalHistory;
import io.pragh.bench.workload.AdjacencyGraph;
import io.pragh.bench.workload.StartVertexDistribution;
import io.pragh.keys.KeyLayout;
import io.pragh.keys.Placement;
import io.pragh.store.StoreConfig;
import io.pragh.values.ValueRecord;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongPredicate;
import org.agrona.collections.LongHashSet;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Runs the traversal benchmark for one mode on a fresh cluster of the graph: load, warm-up, then for migrating
 * modes monitoring interval(s) each followed by its migration, then the measurement, printing progress once a
 * second. Orig, split and shard run without a location cache; split's monitors then count remote accesses in their
 * tables; shard tracks every access per shard and moves whole shards with its clients paused (the core's shard
 * mover does not take writes during a move), which costs the baseline nothing in the measurement. {@link #open}
 * hands the loaded cluster to a caller that drives the phases itself (the scenarios).
 *
 * <p>{@link #run} also records the history of about {@code --history-keys} keys of the scope's two-hop reads, chosen
 * by key hash ({@link TraversalHistory}): every GET the queries made of them, with the value it read, and every
 * edge insert into them, from the load through the measurement, migrations and read replicas running; once the
 * query threads stopped it checks the history for per-key linearizability and reports the check with the mode's row.
 * In this JVM only: over server processes the traversals run where the client cannot see what they read.
 *
 * <pre>{@code
 * TraversalRunner runner = new TraversalRunner(config, graph, System.out);
 * ModeResult r = runner.run(Mode.SPLIT_CACHE);
 * }</pre>
 */
public final class TraversalRunner {
    /** Value region room for PUT churn: replaced records wait out the reclaim lease before reuse. */
    static final long CHURN_BYTES = 64L << 20;

    private final TraversalConfig config;
    private final AdjacencyGraph graph;
    private final PrintStream out;
    private final int[] scopeVertices;
    /** What each mode's history goes through before its check: nothing, but for a test that plants a violation. */
    private final Consumer<TraversalHistory> beforeCheck;

    public TraversalRunner(TraversalConfig config, AdjacencyGraph graph, PrintStream out) {
        this(config, graph, out, h -> { });
    }

    /** With {@code beforeCheck}, which a test plants operations into a history with, to see the check report them. */
    TraversalRunner(TraversalConfig config, AdjacencyGraph graph, PrintStream out,
                    Consumer<TraversalHistory> beforeCheck) {
        this.beforeCheck = beforeCheck;
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

    /**
     * Warm-up, the mode's migration, then the measurement, on a fresh cluster: one row of the report, with the check
     * of its history when one is recorded (printed too, with the first violating key's history if any).
     */
    public ModeResult run(Mode mode) throws Exception {
        String tag = "[" + mode.reportName() + "]";
        TraversalHistory history = history(tag);
        ModeSession.Measurement m;
        try (ModeSession s = open(mode, history)) {
            m = s.runPhases();
        }
        if (history == null) {
            return m.result();
        }
        // The query threads stopped with the session: every operation of the history has been recorded.
        beforeCheck.accept(history);
        HistoryCheck check = history.check();
        out.println(tag + " " + check.describe());
        if (!check.linearizable()) {
            out.print(tag + " " + check.violation());
        }
        return m.result().withHistory(check);
    }

    /** The history {@link #run} records: null when {@code --history-keys} is 0 or the cluster is not in this JVM. */
    private TraversalHistory history(String tag) {
        if (config.historyKeys() == 0) {
            return null;
        }
        if (config.tcp()) {
            out.println(tag + " history: not recorded over --fabric tcp (the two-hop GETs run inside the server"
                + " processes, where the benchmark cannot see the values they read)");
            return null;
        }
        LongHashSet population = loadedReadKeys();
        KeySample sample = KeySample.of(config.historyKeys(), population.size());
        long sampled = 0;
        for (LongHashSet.LongIterator it = population.iterator(); it.hasNext(); ) {
            if (sample.observes(it.nextValue())) {
                sampled++;
            }
        }
        out.printf(Locale.ROOT, "%s history: recording the GETs and edge inserts of %d of the %d keys of the scope's"
            + " two-hop reads (by key hash, %.2f%% of all keys)%n", tag, sampled, population.size(),
            100 * sample.rate());
        return new TraversalHistory(sample, sampled, this::loadedValue, TraversalHistory.DEFAULT_MAX_READS);
    }

    /** The value the load PUT under {@code key}, or null. */
    private byte[] loadedValue(long key) {
        long v = KeyLayout.vid(key);
        if (KeyLayout.label(key) != TwoHopWorkload.LABEL || KeyLayout.kind(key) != KeyLayout.OUT
            || v >= graph.vertexCount() || graph.degree((int) v) == 0) {
            return null;
        }
        return adjacencyValue(graph, (int) v);
    }

    /**
     * A fresh cluster of the graph for {@code mode}, loaded, its query threads running on the configured scope;
     * the caller drives the phases and closes it.
     */
    public ModeSession open(Mode mode) throws Exception {
        return open(mode, null);
    }

    /** {@link #open(Mode)}, the query threads recording into {@code history} if not null. */
    private ModeSession open(Mode mode, TraversalHistory history) throws Exception {
        ClusterSpec spec = spec(mode);
        String tag = "[" + mode.reportName() + "]";
        BenchCluster cluster = config.tcp()
            ? ProcessBenchCluster.start(spec, config.clusterDir(), mode.reportName(), tag, out)
            : EmbeddedBenchCluster.start(spec);
        try {
            out.println(tag + " " + cluster.describe());
            long t0 = System.nanoTime();
            long keys = load(cluster);
            out.printf(Locale.ROOT, "%s loaded %d keys (%d adjacency entries) on %d machine(s) in %.1f s%n", tag, keys,
                graph.edgeCount(), spec.machines(), (System.nanoTime() - t0) / 1e9);
            StartVertices startVertices = new StartVertices(scopeVertices);
            TwoHopWorkload workload = new TwoHopWorkload(startVertices, graph, graph.verticesWithEdges(),
                StartVertexDistribution.of(config.dist(), config.scope()), config.getRatio(), config.fanout(),
                config.batchedGets(), config.seed(), history);
            if (history != null) {
                history.loaded(); // every loader PUT returned; the query threads start below
            }
            boolean census = Boolean.getBoolean("pragh.bench.census") && mode.split();
            // Before the first query: a window's first read of a value is told from a re-read by every read since.
            CompulsoryReads compulsory = census && cluster instanceof EmbeddedBenchCluster e
                ? CompulsoryReads.install(e) : null;
            ModeSession session = new ModeSession(config.phases(), mode, cluster, keys, workload, startVertices, out)
                .liveControl(config.liveControl()).shardPlan(config.shardPlan());
            return census ? session.census(loadedReads(), compulsory) : session;
        } catch (Exception | Error e) {
            cluster.close();
            throw e;
        }
    }

    /** Whether a key is among the loaded graph's two-hop reads from the scope (the read census's floor keys). */
    private LongPredicate loadedReads() {
        return loadedReadKeys()::contains;
    }

    /** The loaded graph's two-hop reads from the scope: the keys of the scope and of its first neighbours. */
    private LongHashSet loadedReadKeys() {
        LongHashSet keys = new LongHashSet();
        for (int s : scopeVertices) {
            keys.add(KeyLayout.key(s, TwoHopWorkload.LABEL, KeyLayout.OUT));
            for (int j = 0, n = Math.min(graph.degree(s), config.fanout()); j < n; j++) {
                keys.add(KeyLayout.key(graph.neighbour(s, j), TwoHopWorkload.LABEL, KeyLayout.OUT));
            }
        }
        return keys;
    }

    /** The vertices with edges, by id: the scope's pool (a scope is a prefix; a dynamic window a slice). */
    public int[] verticesWithEdges() {
        return graph.verticesWithEdges();
    }

    /**
     * The cluster of {@code mode}: one machine for ideal; shard placement for shard; a location cache for
     * split-cache (and ideal, where it is never used). Every machine is sized for its share of the graph (exactly,
     * per home) plus migrated-in values and PUT churn; a shard machine may end up owning every shard, so it is sized
     * for the whole graph.
     */
    ClusterSpec spec(Mode mode) {
        int machines = mode == Mode.IDEAL ? 1 : config.machines();
        boolean sharded = mode == Mode.SHARD;
        Placement hashed = Placement.hashed(machines);
        long[] keys = new long[machines];
        long[] bytes = new long[machines];
        long totalKeys = 0;
        long total = 0;
        for (int v = 0; v < graph.vertexCount(); v++) {
            int d = graph.degree(v);
            if (d > 0) {
                int home = hashed.home(KeyLayout.key(v, TwoHopWorkload.LABEL, KeyLayout.OUT));
                // Size classes round up by at most an eighth.
                long b = (ValueRecord.unitsFor(8L * d) << 3) * 9 / 8;
                keys[home]++;
                bytes[home] += b;
                totalKeys++;
                total += b;
            }
        }
        long maxKeys = sharded ? totalKeys : Arrays.stream(keys).max().orElse(0);
        long maxBytes = sharded ? total : Arrays.stream(bytes).max().orElse(0) + total / machines;
        long valueBytes = Math.max(StoreConfig.DEFAULT_CHUNK_BYTES >> 10, maxBytes + CHURN_BYTES);
        return new ClusterSpec(machines, maxKeys + maxKeys / 4 + 1024,
            valueBytes + (mode == Mode.SPLIT_CACHE_REPLICA ? ClusterSpec.DEFAULT_REPLICA_BYTES : 0),
            mode.cached() ? (long) config.cacheMb() << 20 : 0,
            sharded ? ShardPlacement.DEFAULT_SHARDS_PER_MACHINE : ClusterSpec.HASHED, config.remoteLatencyNs(),
            Math.max(1, (long) (config.intervalSeconds() * 1000)), config.minRate(), config.mechanism(),
            mode == Mode.SPLIT_CACHE_REPLICA ? ClusterSpec.DEFAULT_REPLICA_BYTES : 0);
    }

    /** The value of {@code v}'s adjacency list as loaded, one long per neighbour. */
    static byte[] adjacencyValue(AdjacencyGraph graph, int v) {
        int d = graph.degree(v);
        byte[] value = new byte[8 * d];
        UnsafeBuffer buf = new UnsafeBuffer(value);
        for (int i = 0; i < d; i++) {
            buf.putLong(8 * i, graph.neighbour(v, i));
        }
        return value;
    }

    /**
     * PUTs every adjacency list at its home from loader threads of their own: two in this JVM, and two per machine
     * over the client RPC, where each PUT waits for its round trip. Returns the number of keys.
     */
    private long load(BenchCluster cluster) {
        int loaders = config.tcp() ? 2 * cluster.machineCount() : 2;
        ExecutorService pool = Executors.newFixedThreadPool(loaders, r -> {
            Thread t = new Thread(r, "pragh-bench-loader");
            t.setDaemon(true);
            return t;
        });
        try {
            return load(cluster, loaders, pool);
        } finally {
            // After one loader failed the others may still be writing: the caller closes the cluster only once they
            // stopped (a PUT in flight ends within the request timeout).
            pool.shutdownNow();
            try {
                if (!pool.awaitTermination(60, TimeUnit.SECONDS)) {
                    out.println("pragh bench: loader threads still running after 60 s");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private long load(BenchCluster cluster, int loaders, ExecutorService pool) {
        List<CompletableFuture<Long>> parts = new ArrayList<>();
        for (int part = 0; part < loaders; part++) {
            int p = part;
            parts.add(CompletableFuture.supplyAsync(() -> {
                long n = 0;
                try (QueryPath path = cluster.openPath()) {
                    for (int v = p; v < graph.vertexCount(); v += loaders) {
                        if (graph.degree(v) == 0) {
                            continue;
                        }
                        path.put(KeyLayout.key(v, TwoHopWorkload.LABEL, KeyLayout.OUT), adjacencyValue(graph, v));
                        n++;
                    }
                }
                return n;
            }, pool));
        }
        return parts.stream().mapToLong(CompletableFuture::join).sum();
    }
}
