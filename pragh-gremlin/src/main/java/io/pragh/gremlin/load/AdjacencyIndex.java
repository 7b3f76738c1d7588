package io.pragh.gremlin.load;

import io.pragh.gremlin.storage.GraphKeys;
import io.pragh.keys.Placement;
import org.agrona.collections.Long2LongHashMap;

/**
 * The edges of an {@link EdgeBuffer} grouped by vertex and label, as compressed sparse rows: for each label, the
 * edges leaving each vertex and the edges entering it, in the order they were added, so each adjacency value can be
 * written whole. Vertices get dense numbers: their ids themselves when the ids are dense enough (an RMAT graph's),
 * else numbers from a hash map. Built with counting sorts, O(edges + vertices) per label; a load with many labels
 * pays a pass over the edges per label.
 *
 * <p>Example: {@code AdjacencyIndex idx = AdjacencyIndex.build(edges, placement); int[] outs = idx.out(0);}
 */
final class AdjacencyIndex {
    final EdgeBuffer edges;
    /** Dense vertex number of each edge's out- and in-vertex. */
    private final int[] outDense;
    private final int[] inDense;
    /** Vertex id by dense number; null when they are equal. */
    private final long[] vids;
    final int vertexCount;
    /** Home machine by dense number; -1 for numbers no edge names. */
    final byte[] home;
    private final Rows[] out;
    private final Rows[] in;

    /** One label's rows: {@code edges[start[v] .. start[v + 1])} are vertex v's, in the order added. */
    record Rows(int[] start, int[] edges) {
        int degree(final int v) {
            return start[v + 1] - start[v];
        }
    }

    private AdjacencyIndex(final EdgeBuffer edges, final Placement placement) {
        this.edges = edges;
        final int n = edges.size();
        outDense = new int[n];
        inDense = new int[n];
        final long maxVid = edges.maxVid();
        if (maxVid < Integer.MAX_VALUE - 8 && maxVid <= 4L * n + 1024) {
            vids = null;
            vertexCount = (int) maxVid + 1;
            for (int e = 0; e < n; e++) {
                outDense[e] = (int) edges.out(e);
                inDense[e] = (int) edges.in(e);
            }
        } else {
            final Long2LongHashMap dense = new Long2LongHashMap(-1);
            long[] byNumber = new long[1024];
            int count = 0;
            for (int e = 0; e < n; e++) {
                for (int side = 0; side < 2; side++) {
                    final long vid = side == 0 ? edges.out(e) : edges.in(e);
                    long d = dense.get(vid);
                    if (d < 0) {
                        d = count++;
                        dense.put(vid, d);
                        if (d == byNumber.length) {
                            byNumber = java.util.Arrays.copyOf(byNumber, byNumber.length * 2);
                        }
                        byNumber[(int) d] = vid;
                    }
                    (side == 0 ? outDense : inDense)[e] = (int) d;
                }
            }
            vids = byNumber;
            vertexCount = count;
        }
        home = new byte[vertexCount];
        java.util.Arrays.fill(home, (byte) -1);
        for (int e = 0; e < n; e++) {
            home[outDense[e]] = 0;
            home[inDense[e]] = 0;
        }
        for (int v = 0; v < vertexCount; v++) {
            if (home[v] == 0) {
                home[v] = (byte) placement.home(GraphKeys.vertex(vid(v)));
            }
        }
        final int labels = Math.max(1, edges.labels().size());
        out = new Rows[labels];
        in = new Rows[labels];
    }

    /** Groups {@code edges}; the OUT and IN rows are built on two threads. */
    static AdjacencyIndex build(final EdgeBuffer edges, final Placement placement) {
        final AdjacencyIndex idx = new AdjacencyIndex(edges, placement);
        for (int label = 0; label < idx.out.length; label++) {
            final int l = label;
            final Thread inSide = new Thread(() -> idx.in[l] = idx.rows(idx.inDense, l), "pragh-load-index");
            inSide.start();
            idx.out[l] = idx.rows(idx.outDense, l);
            try {
                inSide.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while grouping edges", e);
            }
        }
        return idx;
    }

    /** Counting sort of the edges of {@code label} by their vertex on one side; stable, so in the order added. */
    private Rows rows(final int[] side, final int label) {
        final int n = edges.size();
        final boolean all = out.length == 1;
        final int[] start = new int[vertexCount + 1];
        int count = 0;
        for (int e = 0; e < n; e++) {
            if (all || edges.label(e) == label) {
                start[side[e] + 1]++;
                count++;
            }
        }
        for (int v = 0; v < vertexCount; v++) {
            start[v + 1] += start[v];
        }
        final int[] next = java.util.Arrays.copyOf(start, vertexCount);
        final int[] sorted = new int[count];
        for (int e = 0; e < n; e++) {
            if (all || edges.label(e) == label) {
                sorted[next[side[e]]++] = e;
            }
        }
        return new Rows(start, sorted);
    }

    long vid(final int dense) {
        return vids == null ? dense : vids[dense];
    }

    /** Whether an edge names the vertex with this dense number. */
    boolean present(final int dense) {
        return home[dense] >= 0;
    }

    Rows out(final int label) {
        return out[label];
    }

    Rows in(final int label) {
        return in[label];
    }

    int labels() {
        return out.length;
    }

    /** Vertices the edges name. */
    long presentVertices() {
        long n = 0;
        for (final byte h : home) {
            n += h >= 0 ? 1 : 0;
        }
        return n;
    }
}
