package io.pragh.bench.pushdown;

import io.pragh.bench.workload.AdjacencyGraph;
import io.pragh.bench.workload.RmatGenerator;
import io.pragh.runtime.DutyExecutor;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.IntConsumer;
import java.util.stream.IntStream;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import io.pragh.gremlin.structure.BulkLoader;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.Graph;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.structure.Vertex;

/**
 * The graph and queries of the pushdown comparison: the Graph500 RMAT graph of pragh-bench (undirected, each edge
 * stored as a Gremlin edge in both directions, duplicates folded), and {@value #SAMPLE} start vertices spread over the
 * degree range: the vertices with at least one edge ranked by (degree, id), taken at evenly spaced ranks from the
 * lowest degree to the highest. The same scale and seed always give the same graph, starts and counts.
 *
 * <pre>{@code
 * PushdownWorkload w = new PushdownWorkload(14, PushdownWorkload.SEED);
 * w.loadInto(graph, 1);
 * TwoHopCounts counts = w.count("PraghGraph", graph.traversal());
 * counts.requireSameAs(w.expectedCounts());
 * }</pre>
 */
public final class PushdownWorkload {
    /** Start vertices per comparison. */
    public static final int SAMPLE = 64;
    public static final long SEED = 42;
    public static final int DEFAULT_SCALE = 14;

    private final int scale;
    private final AdjacencyGraph graph;
    private final long[] starts;

    public PushdownWorkload(int scale, long seed) {
        this.scale = scale;
        this.graph = new RmatGenerator(scale, RmatGenerator.EDGE_FACTOR, seed).generate();
        this.starts = pickStarts(graph, SAMPLE);
    }

    static long[] pickStarts(AdjacencyGraph graph, int sample) {
        int[] candidates = graph.verticesWithEdges();
        if (candidates.length < sample) {
            throw new IllegalArgumentException("the graph has " + candidates.length + " vertices with edges, fewer than the "
                + sample + " start vertices the comparison needs: use a larger scale");
        }
        Integer[] ranked = IntStream.of(candidates).boxed().toArray(Integer[]::new);
        Arrays.sort(ranked, Comparator.<Integer>comparingInt(graph::degree).thenComparingInt(v -> v));
        long[] out = new long[sample];
        for (int i = 0; i < sample; i++) {
            out[i] = ranked[(int) ((long) i * (ranked.length - 1) / (sample - 1))];
        }
        return out;
    }

    public int scale() {
        return scale;
    }

    public AdjacencyGraph graph() {
        return graph;
    }

    /** The start vertices, lowest degree first; a copy. */
    public long[] starts() {
        return starts.clone();
    }

    /** The start vertex of query {@code i}, cycling through the sample. */
    public long start(int i) {
        return starts[Math.floorMod(i, starts.length)];
    }

    /**
     * The answers computed from the adjacency itself, independently of any graph database: the walks of length two
     * from {@code x} are the sum of its neighbours' degrees.
     */
    public TwoHopCounts expectedCounts() {
        long[] counts = new long[starts.length];
        for (int i = 0; i < starts.length; i++) {
            int x = (int) starts[i];
            for (int j = 0; j < graph.degree(x); j++) {
                counts[i] += graph.degree(graph.neighbour(x, j));
            }
        }
        return new TwoHopCounts("the RMAT adjacency", starts, counts);
    }

    /**
     * Adds every vertex (id = RMAT id, as a long) and every adjacency entry as an edge labelled
     * {@value Edge#DEFAULT_LABEL} through the structure API, as any TinkerPop application would. With more than one
     * thread, thread {@code t} adds the vertices and out-edges of the ids congruent to {@code t}: a graph whose
     * writes wait on acknowledgements (PraghGraph) loads several times faster; a graph that is not thread-safe for
     * writes (TinkerGraph) must be given one thread. Returns the seconds it took.
     */
    public double loadInto(Graph target, int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be >= 1, got " + threads);
        }
        long t0 = System.nanoTime();
        Vertex[] vertices = new Vertex[graph.vertexCount()];
        inParallel(threads, t -> {
            for (int v = t; v < vertices.length; v += threads) {
                vertices[v] = target.addVertex(T.id, (long) v);
            }
        });
        inParallel(threads, t -> {
            for (int v = t; v < vertices.length; v += threads) {
                for (int j = 0; j < graph.degree(v); j++) {
                    vertices[v].addEdge(Edge.DEFAULT_LABEL, vertices[graph.neighbour(v, j)]);
                }
            }
        });
        return (System.nanoTime() - t0) / 1e9;
    }

    /**
     * Loads the graph through a PraghGraph's bulk loader, the same vertices and edges in the same order as
     * {@link #loadInto(Graph, int)}, and closes it (so every edge is written); returns the seconds it took.
     */
    public double loadInto(BulkLoader loader) {
        long t0 = System.nanoTime();
        try (loader) {
            for (int v = 0; v < graph.vertexCount(); v++) {
                loader.addVertex(T.id, (long) v);
            }
            for (int v = 0; v < graph.vertexCount(); v++) {
                for (int j = 0; j < graph.degree(v); j++) {
                    loader.addEdge(v, Edge.DEFAULT_LABEL, graph.neighbour(v, j));
                }
            }
        }
        return (System.nanoTime() - t0) / 1e9;
    }

    /** Runs {@code part(0..threads-1)}, each on its own thread (the caller's when one), and rethrows the first failure. */
    private static void inParallel(int threads, IntConsumer part) {
        if (threads == 1) {
            part.accept(0);
            return;
        }
        // Joined by the close: no loader still writes into the graph once this returns, even after a failure.
        try (DutyExecutor pool = DutyExecutor.pool("bench-pushdown-loader")) {
            List<CompletableFuture<Void>> parts = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int id = t;
                parts.add(CompletableFuture.runAsync(() -> part.accept(id), pool));
            }
            for (CompletableFuture<Void> f : parts) {
                f.join();
            }
        } catch (CompletionException e) {
            throw new IllegalStateException("loading the graph failed: " + e.getCause(), e.getCause());
        }
    }

    /**
     * Writes the graph for a system in another JVM: a {@code "vertices N"} line, then one {@code "src dst"} line per
     * edge, in the order {@link #loadInto} adds them.
     */
    public void writeEdgeList(Path file) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        if (dir != null) {
            Files.createDirectories(dir);
        }
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            w.write("vertices " + graph.vertexCount() + "\n");
            for (int v = 0; v < graph.vertexCount(); v++) {
                for (int j = 0; j < graph.degree(v); j++) {
                    w.write(v + " " + graph.neighbour(v, j) + "\n");
                }
            }
        }
    }

    /** Runs {@code g.V(x).out().out().count()} for every start vertex. */
    public TwoHopCounts count(String system, GraphTraversalSource g) {
        long[] counts = new long[starts.length];
        for (int i = 0; i < starts.length; i++) {
            counts[i] = twoHopCount(g, starts[i]);
        }
        return new TwoHopCounts(system, starts, counts);
    }

    /** The measured query. */
    public static long twoHopCount(GraphTraversalSource g, long x) {
        return g.V(x).out().out().count().next();
    }
}
