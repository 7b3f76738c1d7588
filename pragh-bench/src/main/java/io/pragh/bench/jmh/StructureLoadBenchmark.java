package io.pragh.bench.jmh;

import io.pragh.bench.pushdown.PraghGraphs;
import io.pragh.bench.pushdown.PushdownWorkload;
import io.pragh.gremlin.structure.BulkLoader;
import io.pragh.gremlin.structure.PraghGraph;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.tinkerpop.gremlin.structure.Graph;
import org.apache.tinkerpop.gremlin.tinkergraph.structure.TinkerGraph;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

/**
 * Loading a graph through the Structure API ({@code graph.addVertex}, {@code v.addEdge}) as any TinkerPop application
 * does: the RMAT graph of the pushdown comparison (scale {@code scale}, edge factor 16, seed 42), every vertex and
 * every adjacency entry, into a fresh PraghGraph ({@link PraghGraphs}' settings) or a fresh TinkerGraph, by
 * {@code threads} threads (TinkerGraph is not thread-safe for writes: run it with one). One load per iteration
 * (single-shot); the edge count of the loaded graph is checked after each, outside the timing, so a load that lost
 * edges fails the trial. Edges per second = the edges printed at setup / the reported time.
 *
 * <p>Systems: {@code pragh} acknowledges every add before it returns; {@code pragh-defaults} is the same on a graph
 * opened with no settings at all ({@code PraghGraph.open()}: regions not pre-touched, core's region sizes), what an
 * application gets; {@code pragh-writebehind} buffers adds and
 * writes them in batches ({@link PraghGraph#WRITE_BEHIND}, {@value #WRITE_BEHIND_EDGES} edges; the timed load ends
 * with {@link PraghGraph#flush}, so every edge is written and acknowledged); {@code pragh-bulk} loads the same
 * elements through {@link PraghGraph#bulkLoader()} (one thread); {@code tinkergraph} is the in-heap reference.
 *
 * <pre>{@code
 * ./pragh bench jmh StructureLoad -f 1 -wi 1 -i 3 -p scale=14 -p threads=1
 * ./pragh bench jmh StructureLoad -f 1 -wi 1 -i 3 -p system=pragh-defaults,tinkergraph
 * }</pre>
 *
 * <p>Each iteration prints its edges per second, and the trial prints their median ({@code edges/s median}), the
 * figure issue 13 asks for beside JMH's milliseconds.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(1)
@Warmup(iterations = 1)
@Measurement(iterations = 3)
@State(Scope.Benchmark)
public class StructureLoadBenchmark {
    /** Edges per write-behind batch of {@code pragh-writebehind}: the bulk loader's. */
    static final int WRITE_BEHIND_EDGES = BulkLoader.DEFAULT_BATCH_EDGES;

    @Param({"pragh", "pragh-defaults", "pragh-writebehind", "pragh-bulk", "tinkergraph"})
    public String system;
    @Param("14")
    public int scale;
    @Param("1")
    public int threads;

    private PushdownWorkload workload;
    private long edges;
    private Graph graph;
    /** Seconds of each measured (not warm-up) load of the trial. */
    private final List<Double> seconds = new ArrayList<>();
    private double lastSeconds;

    @Setup(Level.Trial)
    public void generate() {
        if ("tinkergraph".equals(system) && threads != 1) {
            throw new IllegalArgumentException("TinkerGraph is not thread-safe for writes: run it with threads=1");
        }
        if ("pragh-bulk".equals(system) && threads != 1) {
            throw new IllegalArgumentException("a bulk loader is used by one thread: run pragh-bulk with threads=1");
        }
        workload = new PushdownWorkload(scale, PushdownWorkload.SEED);
        for (int v = 0; v < workload.graph().vertexCount(); v++) {
            edges += workload.graph().degree(v);
        }
        System.out.printf(Locale.ROOT, "%nRMAT scale %d: %d vertices, %d edges to add through the Structure API%n",
            scale, workload.graph().vertexCount(), edges);
    }

    @Setup(Level.Iteration)
    public void open() {
        graph = switch (system) {
            case "pragh", "pragh-bulk" -> PraghGraphs.open();
            case "pragh-defaults" -> PraghGraph.open();
            case "pragh-writebehind" -> PraghGraphs.open(Map.of(PraghGraph.WRITE_BEHIND, WRITE_BEHIND_EDGES));
            case "tinkergraph" -> TinkerGraph.open();
            default -> throw new IllegalArgumentException("system is pragh, pragh-defaults, pragh-writebehind,"
                + " pragh-bulk or tinkergraph, not '" + system + "'");
        };
    }

    @Benchmark
    public double load() {
        long t0 = System.nanoTime();
        if ("pragh-bulk".equals(system)) {
            workload.loadInto(((PraghGraph) graph).bulkLoader());
        } else {
            workload.loadInto(graph, threads);
            if (graph instanceof PraghGraph p) {
                p.flush(); // write-behind: the load is done once every edge is written and acknowledged
            }
        }
        lastSeconds = (System.nanoTime() - t0) / 1e9;
        return lastSeconds;
    }

    @TearDown(Level.Iteration)
    public void checkAndClose(IterationParams iteration) throws Exception {
        try {
            long loaded = graph.traversal().E().count().next();
            if (loaded != edges) {
                throw new IllegalStateException(system + " holds " + loaded + " edges after the load, not " + edges);
            }
            if (iteration.getType() == IterationType.MEASUREMENT) {
                seconds.add(lastSeconds);
            }
            System.out.printf(Locale.ROOT, "%n%s: %d edges in %.3f s = %,.0f edges/s%n", system, edges, lastSeconds,
                edges / lastSeconds);
        } finally {
            graph.close();
        }
    }

    /** The median edges per second over the trial's measured loads. */
    @TearDown(Level.Trial)
    public void report() {
        List<Double> measured = new ArrayList<>(seconds);
        if (measured.isEmpty()) {
            return;
        }
        Collections.sort(measured);
        int n = measured.size();
        double median = n % 2 == 1 ? measured.get(n / 2) : (measured.get(n / 2 - 1) + measured.get(n / 2)) / 2;
        System.out.printf(Locale.ROOT, "%n%s scale %d threads %d: edges/s median %,.0f over %d loads (%d edges)%n",
            system, scale, threads, edges / median, n, edges);
    }
}
