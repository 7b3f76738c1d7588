package io.pragh.bench.jmh;

import io.pragh.bench.pushdown.PraghGraphs;
import io.pragh.bench.pushdown.PushdownWorkload;
import io.pragh.gremlin.structure.BulkLoader;
import io.pragh.gremlin.structure.PraghGraph;
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

/**
 * Loading a graph through the Structure API ({@code graph.addVertex}, {@code v.addEdge}) as any TinkerPop application
 * does: the RMAT graph of the pushdown comparison (scale {@code scale}, edge factor 16, seed 42), every vertex and
 * every adjacency entry, into a fresh PraghGraph ({@link PraghGraphs}' settings) or a fresh TinkerGraph, by
 * {@code threads} threads (TinkerGraph is not thread-safe for writes: run it with one). One load per iteration
 * (single-shot); the edge count of the loaded graph is checked after each, outside the timing, so a load that lost
 * edges fails the trial. Edges per second = the edges printed at setup / the reported time.
 *
 * <p>Systems: {@code pragh} acknowledges every add before it returns; {@code pragh-writebehind} buffers adds and
 * writes them in batches ({@link PraghGraph#WRITE_BEHIND}, {@value #WRITE_BEHIND_EDGES} edges; the timed load ends
 * with {@link PraghGraph#flush}, so every edge is written and acknowledged); {@code pragh-bulk} loads the same
 * elements through {@link PraghGraph#bulkLoader()} (one thread); {@code tinkergraph} is the in-heap reference.
 *
 * <pre>{@code
 * ./pragh bench jmh StructureLoad -f 1 -wi 1 -i 3 -p scale=14 -p threads=1
 * }</pre>
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

    @Param({"pragh", "pragh-writebehind", "pragh-bulk", "tinkergraph"})
    public String system;
    @Param("14")
    public int scale;
    @Param("1")
    public int threads;

    private PushdownWorkload workload;
    private long edges;
    private Graph graph;

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
            case "pragh-writebehind" -> PraghGraphs.open(Map.of(PraghGraph.WRITE_BEHIND, WRITE_BEHIND_EDGES));
            case "tinkergraph" -> TinkerGraph.open();
            default -> throw new IllegalArgumentException("system is pragh or tinkergraph, not '" + system + "'");
        };
    }

    @Benchmark
    public double load() {
        if ("pragh-bulk".equals(system)) {
            return workload.loadInto(((PraghGraph) graph).bulkLoader());
        }
        double seconds = workload.loadInto(graph, threads);
        if (graph instanceof PraghGraph p) {
            p.flush(); // write-behind: the load is done once every edge is written and acknowledged
        }
        return seconds;
    }

    @TearDown(Level.Iteration)
    public void checkAndClose() throws Exception {
        try {
            long loaded = graph.traversal().E().count().next();
            if (loaded != edges) {
                throw new IllegalStateException(system + " holds " + loaded + " edges after the load, not " + edges);
            }
        } finally {
            graph.close();
        }
    }
}
