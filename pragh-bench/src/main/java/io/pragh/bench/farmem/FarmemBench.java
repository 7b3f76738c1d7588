package io.pragh.bench.farmem;

import io.pragh.analytics.GraphAnalytics;
import io.pragh.analytics.ScanOptions;
import io.pragh.bench.workload.AdjacencyGraph;
import io.pragh.bench.workload.RmatGenerator;
import io.pragh.embedded.EmbeddedCluster;
import io.pragh.keys.KeyLayout;
import io.pragh.store.Mutators;
import io.pragh.tier.TierBytes;
import io.pragh.tier.Tiering;
import io.pragh.tier.TieringConfig;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.ToLongFunction;

/**
 * {@code ./pragh bench farmem}: for every far-memory ratio, a fresh embedded cluster (compute machines and memory
 * nodes on the in-process fabric, its remote operations charged the emulated latency) is loaded with an RMAT graph's
 * adjacency lists; the tier then gets a budget of {@code 1 - ratio} of the value bytes per compute machine and moves
 * the rest out in rounds; BFS (from the highest-degree vertex) and PageRank are timed with chunked far reads and
 * with the on-demand baseline. Ratio 0 is the all-local reference. At the sweep ratio, chunked runs at every chunk
 * size. Times are medians of the timed runs, after two warm-up runs and, before the first ratio, an untimed pass
 * over every scan path on a cluster of its own (so the JIT does not bill the all-local reference); at a ratio, the
 * runs of chunked and on-demand alternate, so their ratio is measured side by side.
 *
 * <pre>{@code
 * ./pragh bench farmem --scale 14 --out target/farmem
 * }</pre>
 */
public final class FarmemBench {
    static final String ALL_LOCAL = "all-local";
    static final String CHUNKED = "chunked";
    static final String ON_DEMAND = "on-demand";

    /**
     * One timed point: the median wall time of a run and, beside it, the median CPU time of a run on the compute
     * machines' workers and the calling thread, which a loaded host's other jobs do not inflate (a descheduled thread
     * accrues none; the on-demand READs' emulated latency is spun, so it counts).
     */
    record Point(String algorithm, String mode, double ratio, double farShare, int chunkBytes, double seconds,
                 long farReadsPerRun, double cpuSeconds, long farBytesPerRun) {
    }

    private final FarmemConfig config;
    private final PrintStream out;

    FarmemBench(FarmemConfig config, PrintStream out) {
        this.config = config;
        this.out = out;
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 1 && (args[0].equals("--help") || args[0].equals("-h"))) {
            out.println(FarmemConfig.USAGE);
            return 0;
        }
        FarmemConfig config;
        try {
            config = FarmemConfig.parse(args);
        } catch (IllegalArgumentException e) {
            err.println("pragh bench farmem: " + e.getMessage());
            err.println("(./pragh bench farmem --help lists the flags)");
            return 2;
        }
        new FarmemReport(config, out).write(new FarmemBench(config, out).measure());
        return 0;
    }

    /** Every point of the ratio runs, then those of the chunk sweep (mode {@code chunked}, at the sweep ratio). */
    Results measure() {
        AdjacencyGraph graph = new RmatGenerator(config.scale(), RmatGenerator.EDGE_FACTOR, 42).generate();
        int source = 0;
        for (int v = 0; v < graph.vertexCount(); v++) {
            source = graph.degree(v) > graph.degree(source) ? v : source;
        }
        out.printf(Locale.ROOT, "RMAT scale %d: %,d vertices, %,d edges; BFS from vertex %d (degree %d)%n",
            config.scale(), graph.vertexCount(), graph.edgeCount(), source, graph.degree(source));
        List<Double> ratios = new ArrayList<>(config.ratios());
        if (!ratios.contains(0.0)) {
            ratios.add(0, 0.0); // the all-local reference is always measured
        }
        warmUp(graph, source);
        List<Point> points = new ArrayList<>();
        List<Point> sweep = new ArrayList<>();
        for (double ratio : ratios) {
            try (EmbeddedCluster cluster = cluster(graph)) {
                load(cluster, graph);
                double farShare = spill(cluster, ratio);
                List<String> modes = ratio == 0 ? List.of(ALL_LOCAL) : List.of(CHUNKED, ON_DEMAND);
                List<GraphAnalytics> analytics = new ArrayList<>();
                for (String mode : modes) {
                    analytics.add(new GraphAnalytics(cluster, ScanOptions.defaults().withChunkBytes(config.chunkBytes())
                        .withMode(mode.equals(ON_DEMAND) ? ScanOptions.FarReads.ON_DEMAND : ScanOptions.FarReads.CHUNKED)));
                }
                points.addAll(timeSideBySide(analytics, modes, source, ratio, farShare));
                if (ratio == config.sweepRatio()) {
                    for (int chunk : config.chunkSizes()) {
                        sweep.addAll(timeSideBySide(List.of(new GraphAnalytics(cluster,
                            ScanOptions.defaults().withChunkBytes(chunk))), List.of(CHUNKED), source, ratio, farShare));
                    }
                }
            }
        }
        return new Results(graph.vertexCount(), graph.edgeCount(), source, points, sweep);
    }

    /**
     * Runs every scan path (local, chunked, on-demand) untimed on a cluster of its own at ratio 0.5, so that the JIT
     * has compiled them before the first timed point: otherwise the all-local reference, measured first, would pay
     * for it alone.
     */
    private void warmUp(AdjacencyGraph graph, long source) {
        out.println("warm-up, untimed:");
        try (EmbeddedCluster cluster = cluster(graph)) {
            load(cluster, graph);
            spill(cluster, 0.5);
            for (ScanOptions.FarReads mode : ScanOptions.FarReads.values()) {
                GraphAnalytics analytics = new GraphAnalytics(cluster, ScanOptions.defaults().withMode(mode));
                for (int i = 0; i < 3; i++) {
                    analytics.bfs(source, 0);
                    analytics.pageRank(0, config.iterations(), 0.85);
                }
            }
        }
        out.println("(warm-up done: every scan path ran three times, untimed)");
    }

    /** What {@link #measure} found. */
    record Results(long vertices, long edges, long source, List<Point> points, List<Point> sweep) {
    }

    private EmbeddedCluster cluster(AdjacencyGraph graph) {
        long valueBytes = 4 * (graph.edgeCount() * 8 + graph.vertexCount() * 64L) / config.machines() + (16 << 20);
        long memoryBytes = 2 * (graph.edgeCount() * 8 + graph.vertexCount() * 64L) / config.memoryNodes() + (16 << 20);
        return EmbeddedCluster.builder().machines(config.machines()).memoryNodes(config.memoryNodes(), memoryBytes)
            .workersPerMachine(1).keysPerMachine(graph.vertexCount()).valueBytesPerMachine(valueBytes)
            .remoteLatencyNs(config.remoteLatencyNs()).pinThreads(false)
            .tiering(TieringConfig.defaults().withIntervalMillis(TieringConfig.MANUAL)).build();
    }

    /** PUTs every out-list at its home, a batch of updates per compute machine at a time. */
    private static void load(EmbeddedCluster cluster, AdjacencyGraph graph) {
        int batch = 1024;
        long[] keys = new long[batch];
        int[] ids = new int[batch];
        Arrays.fill(ids, Mutators.SET);
        byte[][] values = new byte[batch][];
        int n = 0;
        for (int v = 0; v < graph.vertexCount(); v++) {
            int degree = graph.degree(v);
            if (degree == 0) {
                continue;
            }
            ByteBuffer b = ByteBuffer.allocate(8 * degree).order(ByteOrder.nativeOrder());
            for (int i = 0; i < degree; i++) {
                b.putLong(graph.neighbour(v, i));
            }
            keys[n] = KeyLayout.key(v, 0, KeyLayout.OUT);
            values[n++] = b.array();
            if (n == batch) {
                cluster.machine(0).updateAll(keys, ids, values, n);
                n = 0;
            }
        }
        if (n > 0) {
            cluster.machine(0).updateAll(keys, ids, values, n);
        }
    }

    /** Gives the tier a budget of {@code 1 - ratio} of the mean value bytes and runs rounds; the far share reached. */
    private double spill(EmbeddedCluster cluster, double ratio) {
        Tiering tiering = cluster.tiering();
        long local = 0;
        for (int m = 0; m < cluster.computeMachineCount(); m++) {
            local += tiering.localBytes(m);
        }
        if (ratio > 0) {
            tiering.localBudgetBytes((long) ((1 - ratio) * local / cluster.computeMachineCount()));
            for (int round = 0; round < 5 && tiering.runRound() > 0; round++) {
                // until a round moves nothing
            }
        }
        tiering.runRound(); // the census the metrics show
        TierBytes b = tiering.bytes();
        double share = b.total() == 0 ? 0 : (double) b.far() / b.total();
        out.printf(Locale.ROOT, "ratio %.2f: %,d value bytes local, %,d far (far share %.3f), %d moved out%n", ratio,
            b.local(), b.far(), share, tiering.demoted());
        return share;
    }

    /** BFS, then PageRank, each timed in every one of {@code modes} (the analytics at the same index). */
    private List<Point> timeSideBySide(List<GraphAnalytics> analytics, List<String> modes, long source, double ratio,
                                       double farShare) {
        List<Point> points = new ArrayList<>();
        points.addAll(time("bfs", analytics, a -> a.bfs(source, 0).size(), modes, ratio, farShare));
        points.addAll(time("pagerank", analytics, a -> a.pageRank(0, config.iterations(), 0.85).vertices(), modes,
            ratio, farShare));
        return points;
    }

    /**
     * Times {@code run} in each mode, the modes' runs interleaved (run i of every mode, then run i + 1): on a shared
     * host a slow spell then slows every mode alike instead of the one whose block it fell on, so the ratio of the
     * medians is measured side by side, not block after block.
     */
    private List<Point> time(String algorithm, List<GraphAnalytics> analytics, ToLongFunction<GraphAnalytics> run,
                             List<String> modes, double ratio, double farShare) {
        int n = analytics.size();
        long[] reached = new long[n];
        long[] reads0 = new long[n];
        long[] bytes0 = new long[n];
        for (int m = 0; m < n; m++) {
            reached[m] = run.applyAsLong(analytics.get(m));
            run.applyAsLong(analytics.get(m)); // two warm-up runs: the first ratio's cluster also warms the JIT
            reads0[m] = analytics.get(m).farReads();
            bytes0[m] = analytics.get(m).farBytes();
        }
        double[][] seconds = new double[n][config.runs()];
        double[][] cpu = new double[n][config.runs()];
        List<Thread> workers = computeWorkers();
        for (int i = 0; i < config.runs(); i++) {
            for (int m = 0; m < n; m++) {
                long c0 = cpuNanos(workers);
                long t0 = System.nanoTime();
                long again = run.applyAsLong(analytics.get(m));
                seconds[m][i] = (System.nanoTime() - t0) / 1e9;
                cpu[m][i] = (cpuNanos(workers) - c0) / 1e9;
                if (again != reached[m]) {
                    throw new IllegalStateException(algorithm + " " + modes.get(m) + " reached " + again
                        + " vertices, " + reached[m] + " before");
                }
            }
        }
        List<Point> points = new ArrayList<>();
        for (int m = 0; m < n; m++) {
            GraphAnalytics a = analytics.get(m);
            Arrays.sort(seconds[m]);
            Arrays.sort(cpu[m]);
            Point p = new Point(algorithm, modes.get(m), ratio, farShare, a.options().chunkBytes(),
                seconds[m][config.runs() / 2], (a.farReads() - reads0[m]) / config.runs(), cpu[m][config.runs() / 2],
                (a.farBytes() - bytes0[m]) / config.runs());
            out.printf(Locale.ROOT, "  %-8s %-9s ratio %.2f chunk %7d: %8.4f s, CPU %8.4f s  (%,d far READs a run of"
                + " %,d bytes, %,d vertices)%n", algorithm, modes.get(m), ratio, p.chunkBytes(), p.seconds(),
                p.cpuSeconds(), p.farReadsPerRun(), p.farBytesPerRun(), reached[m]);
            points.add(p);
        }
        return points;
    }

    /** The compute machines' worker threads (named by {@link io.pragh.runtime.WorkerPool}) and this one. */
    private List<Thread> computeWorkers() {
        List<Thread> workers = new ArrayList<>(List.of(Thread.currentThread()));
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            for (int m = 0; m < config.machines(); m++) {
                if (t.getName().startsWith("pragh-m" + m + "-worker-")) {
                    workers.add(t);
                }
            }
        }
        return workers;
    }

    private static long cpuNanos(List<Thread> threads) {
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        long sum = 0;
        for (Thread t : threads) {
            sum += Math.max(0, mx.getThreadCpuTime(t.getId()));
        }
        return sum;
    }
}
