package io.pragh.gremlin.analytics;

import io.pragh.analytics.ScanOptions;
import io.pragh.gremlin.storage.Adjacency;
import io.pragh.gremlin.storage.GraphKeys;
import io.pragh.gremlin.structure.PraghGraph;
import org.agrona.collections.LongArrayList;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * BFS and PageRank over a {@link PraghGraph}'s out-edges of one label (or of every label when the label is null),
 * with the definitions of the core's far-memory analytics ({@code io.pragh.analytics.GraphAnalytics}): BFS is
 * level-synchronous and gives every reached vertex its distance in hops; PageRank runs {@code iterations} rounds of
 * {@code r' = (1 - d) / N + d * (sum over in-neighbours u of r(u) / outdegree(u) + dangling mass / N)} from
 * {@code 1 / N}, over all N vertices of the graph, each parallel edge counted. Lists are read as the core's
 * far-memory analytics read them ({@link OutLists}): in place where they are local to a machine this process runs,
 * and in large chunked one-sided READs per host where they live elsewhere (a memory node the tier spilled them to),
 * so both run on an embedded graph and on a cluster's front end. {@link #farReads} and {@link #farValues} say how
 * many READs took how many far lists.
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
    private final ScanOptions options;
    /** Summed over every run: written by the run's thread, read by any (tests, metrics). */
    private final AtomicLong farReads = new AtomicLong();
    private final AtomicLong farValues = new AtomicLong();

    /** Over {@code graph}, far lists read in chunks of {@link ScanOptions#DEFAULT_CHUNK_BYTES}. */
    public GraphAlgorithms(final PraghGraph graph) {
        this(graph, ScanOptions.defaults());
    }

    /**
     * Over {@code graph}, reading lists that live on other machines as {@code options} say: chunked (the default:
     * sorted by host and offset, coalesced into READs of up to {@link ScanOptions#chunkBytes}, a batch of
     * {@link ScanOptions#depth} in flight while the one before is visited) or one READ per list on demand.
     */
    public GraphAlgorithms(final PraghGraph graph, final ScanOptions options) {
        this.graph = graph;
        this.options = options;
    }

    /** Registers {@code g.call("pragh.bfs", [...])} and {@code g.call("pragh.pagerank", [...])} on {@code graph}. */
    public static GraphAlgorithms register(final PraghGraph graph) {
        return register(graph, ScanOptions.defaults());
    }

    /** As {@link #register(PraghGraph)}, reading far lists as {@code options} say. */
    public static GraphAlgorithms register(final PraghGraph graph, final ScanOptions options) {
        final GraphAlgorithms algorithms = new GraphAlgorithms(graph, options);
        graph.getServiceRegistry().registerService(new BfsService(algorithms));
        graph.getServiceRegistry().registerService(new PageRankService(algorithms));
        return algorithms;
    }

    PraghGraph graph() {
        return graph;
    }

    /** One-sided READs of lists on other machines every run so far issued (a chunk counts one). */
    public long farReads() {
        return farReads.get();
    }

    /** Lists every run so far read from other machines' memory (in chunks, or one READ each on demand). */
    public long farValues() {
        return farValues.get();
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
        final OutLists lists = lists(label);
        long[] frontier = {source};
        int size = 1;
        for (long depth = 1; size > 0; depth++) {
            final long d = depth;
            final LongArrayList next = new LongArrayList();
            lists.of(frontier, size, (vid, buf, off, entries) -> {
                for (int i = 0; i < entries; i++) {
                    final long n = buf.getLong(off + Adjacency.neighbourOffset(i), ByteOrder.LITTLE_ENDIAN);
                    if (level.putIfAbsent(n, d) == null) {
                        next.addLong(n);
                    }
                }
            });
            frontier = next.toLongArray();
            size = frontier.length;
        }
        tally(lists);
        return level;
    }

    /** The lists of {@code label}'s out-edges (every label's when null) as this graph's options read them. */
    private OutLists lists(final String label) {
        return new OutLists(graph.store(), options, label == null ? graph.edgeLabelIds() : graph.edgeLabelIds(label));
    }

    private void tally(final OutLists lists) {
        farReads.addAndGet(lists.farReads());
        farValues.addAndGet(lists.farValues());
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
        // Each list read once, in one scan (far lists in chunks): an iteration then walks arrays, not the store.
        final int[][] out = new int[n][];
        final OutLists lists = lists(label);
        lists.ofAll(vids, (vid, buf, off, entries) -> {
            final Integer i = index.get(vid);
            if (i == null) {
                throw new IllegalStateException("the graph has edges out of " + vid + ", which is not a vertex of it");
            }
            // A vertex's lists of several labels are joined: the edges of all of them count.
            final int[] have = out[i] == null ? new int[0] : out[i];
            final int[] joined = Arrays.copyOf(have, have.length + entries);
            for (int e = 0; e < entries; e++) {
                final long neighbour = buf.getLong(off + Adjacency.neighbourOffset(e), ByteOrder.LITTLE_ENDIAN);
                final Integer j = index.get(neighbour);
                if (j == null) {
                    throw new IllegalStateException("vertex " + vid + " has an edge to " + neighbour
                        + ", which is not a vertex of the graph");
                }
                joined[have.length + e] = j;
            }
            out[i] = joined;
        });
        tally(lists);
        for (int i = 0; i < n; i++) {
            if (out[i] == null) {
                out[i] = new int[0];
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

    private long[] allVertices() {
        final List<Long> vids = new ArrayList<>();
        graph.store().forEachKey(GraphKeys.VERTEX, key -> vids.add(GraphKeys.vid(key)));
        return vids.stream().mapToLong(Long::longValue).sorted().toArray();
    }
}
