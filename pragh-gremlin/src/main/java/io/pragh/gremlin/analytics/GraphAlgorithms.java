package io.pragh.gremlin.analytics;

import io.pragh.gremlin.storage.GraphKeys;
import io.pragh.gremlin.structure.PraghGraph;
import org.apache.tinkerpop.gremlin.structure.Direction;
import org.apache.tinkerpop.gremlin.structure.Vertex;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * BFS and PageRank over a {@link PraghGraph}'s out-edges of one label (or of every label when the label is null),
 * with the definitions of the core's far-memory analytics ({@code io.pragh.analytics.GraphAnalytics}): BFS is
 * level-synchronous and gives every reached vertex its distance in hops; PageRank runs {@code iterations} rounds of
 * {@code r' = (1 - d) / N + d * (sum over in-neighbours u of r(u) / outdegree(u) + dangling mass / N)} from
 * {@code 1 / N}, over all N vertices of the graph, each parallel edge counted. Neighbours are read through the
 * graph's store (a vertex's home answers), so both run on an embedded graph and on a cluster's front end.
 *
 * <p>Example:
 * <pre>{@code
 * GraphAlgorithms algorithms = GraphAlgorithms.register(graph);     // and g.call("pragh.bfs", [...]) serves
 * Map<Long, Long> hops = algorithms.bfs(1L, "knows");                // vertex -> hops from vertex 1
 * Map<Long, Double> ranks = algorithms.pageRank("knows", 20, 0.85);  // vertex -> rank
 * }</pre>
 */
public final class GraphAlgorithms {
    /** {@code g.call("pragh.bfs", [source: ..., label: ..., property: ...])} ({@link BfsService}). */
    public static final String BFS_SERVICE = "pragh.bfs";
    /** {@code g.call("pragh.pagerank", [iterations: ..., damping: ..., label: ..., property: ...])}. */
    public static final String PAGERANK_SERVICE = "pragh.pagerank";

    private final PraghGraph graph;

    public GraphAlgorithms(final PraghGraph graph) {
        this.graph = graph;
    }

    /** Registers {@code g.call("pragh.bfs", [...])} and {@code g.call("pragh.pagerank", [...])} on {@code graph}. */
    public static GraphAlgorithms register(final PraghGraph graph) {
        final GraphAlgorithms algorithms = new GraphAlgorithms(graph);
        graph.getServiceRegistry().registerService(new BfsService(algorithms));
        graph.getServiceRegistry().registerService(new PageRankService(algorithms));
        return algorithms;
    }

    PraghGraph graph() {
        return graph;
    }

    /**
     * Every vertex reachable from {@code source} along out-edges of {@code label} (every label when null), with its
     * distance in hops, in the order reached.
     *
     * @throws IllegalArgumentException when the graph has no vertex {@code source}
     */
    public Map<Long, Long> bfs(final long source, final String label) {
        if (!graph.vertices(source).hasNext()) {
            throw new IllegalArgumentException("BFS needs a vertex of the graph to start from; there is no vertex "
                + source);
        }
        final Map<Long, Long> level = new LinkedHashMap<>();
        level.put(source, 0L);
        List<Long> frontier = List.of(source);
        for (long depth = 1; !frontier.isEmpty(); depth++) {
            final List<Long> next = new ArrayList<>();
            for (final long vid : frontier) {
                for (final long n : out(vid, label)) {
                    if (level.putIfAbsent(n, depth) == null) {
                        next.add(n);
                    }
                }
            }
            frontier = next;
        }
        return level;
    }

    /**
     * The PageRank of every vertex of the graph along out-edges of {@code label} (every label when null) after
     * {@code iterations} rounds with damping {@code damping} (see the class comment).
     */
    public Map<Long, Double> pageRank(final String label, final int iterations, final double damping) {
        if (iterations < 0 || !(damping >= 0 && damping <= 1)) {
            throw new IllegalArgumentException("PageRank needs iterations >= 0 and damping in [0, 1]; got "
                + iterations + " and " + damping);
        }
        final long[] vids = allVertices();
        final int n = vids.length;
        final Map<Long, Integer> index = new HashMap<>(n * 2);
        for (int i = 0; i < n; i++) {
            index.put(vids[i], i);
        }
        // Each list read once: an iteration then walks arrays, not the store.
        final int[][] out = new int[n][];
        for (int i = 0; i < n; i++) {
            final long[] neighbours = out(vids[i], label);
            out[i] = new int[neighbours.length];
            for (int e = 0; e < neighbours.length; e++) {
                final Integer j = index.get(neighbours[e]);
                if (j == null) {
                    throw new IllegalStateException("vertex " + vids[i] + " has an edge to " + neighbours[e]
                        + ", which is not a vertex of the graph");
                }
                out[i][e] = j;
            }
        }
        double[] rank = new double[n];
        Arrays.fill(rank, n == 0 ? 0 : 1.0 / n);
        for (int it = 0; it < iterations; it++) {
            final double[] next = new double[n];
            double dangling = 0;
            for (int u = 0; u < n; u++) {
                if (out[u].length == 0) {
                    dangling += rank[u];
                    continue;
                }
                final double share = rank[u] / out[u].length;
                for (final int v : out[u]) {
                    next[v] += share;
                }
            }
            for (int v = 0; v < n; v++) {
                next[v] = (1 - damping) / n + damping * (next[v] + dangling / n);
            }
            rank = next;
        }
        final Map<Long, Double> ranks = new LinkedHashMap<>(n * 2);
        for (int i = 0; i < n; i++) {
            ranks.put(vids[i], rank[i]);
        }
        return ranks;
    }

    /** The out-neighbours of {@code vid} along {@code label} (every label when null), one per edge. */
    private long[] out(final long vid, final String label) {
        final Iterator<Vertex> it = label == null ? graph.vertexHandle(vid).vertices(Direction.OUT)
            : graph.vertexHandle(vid).vertices(Direction.OUT, label);
        long[] buf = new long[8];
        int n = 0;
        while (it.hasNext()) {
            if (n == buf.length) {
                buf = Arrays.copyOf(buf, n * 2);
            }
            buf[n++] = PraghGraph.toVid(it.next().id());
        }
        return Arrays.copyOf(buf, n);
    }

    private long[] allVertices() {
        final List<Long> vids = new ArrayList<>();
        graph.store().forEachKey(GraphKeys.VERTEX, key -> vids.add(GraphKeys.vid(key)));
        return vids.stream().mapToLong(Long::longValue).sorted().toArray();
    }
}
