package io.pragh.bench.workload;

import java.util.Arrays;

/**
 * A directed graph's out-adjacency in compressed sparse row form: the neighbours of vertex {@code v} are
 * {@code targets[offsets[v] .. offsets[v + 1])}, sorted and distinct.
 *
 * <pre>{@code
 * AdjacencyGraph g = new RmatGenerator(12, 16, 1).generate();
 * int d = g.degree(7);
 * }</pre>
 */
public final class AdjacencyGraph {
    private final int[] offsets;
    private final int[] targets;

    private AdjacencyGraph(int[] offsets, int[] targets) {
        this.offsets = offsets;
        this.targets = targets;
    }

    /** Builds the adjacency of {@code n} vertices from parallel edge arrays (sources, destinations). */
    public static AdjacencyGraph fromEdges(int n, int[] src, int[] dst) {
        if (src.length != dst.length) {
            throw new IllegalArgumentException(src.length + " sources but " + dst.length + " destinations");
        }
        int[] start = new int[n + 1];
        for (int s : src) {
            start[s + 1]++;
        }
        for (int v = 0; v < n; v++) {
            start[v + 1] += start[v];
        }
        int[] fill = Arrays.copyOf(start, n);
        int[] all = new int[src.length];
        for (int e = 0; e < src.length; e++) {
            all[fill[src[e]]++] = dst[e];
        }
        // Sort each list and fold duplicates in place, compacting as we go.
        int[] offsets = new int[n + 1];
        int out = 0;
        for (int v = 0; v < n; v++) {
            offsets[v] = out;
            int from = start[v];
            int to = start[v + 1];
            Arrays.sort(all, from, to);
            for (int i = from; i < to; i++) {
                if (i == from || all[i] != all[i - 1]) {
                    all[out++] = all[i];
                }
            }
        }
        offsets[n] = out;
        return new AdjacencyGraph(offsets, Arrays.copyOf(all, out));
    }

    public int vertexCount() {
        return offsets.length - 1;
    }

    public long edgeCount() {
        return targets.length;
    }

    public int degree(int v) {
        return offsets[v + 1] - offsets[v];
    }

    public int neighbour(int v, int i) {
        return targets[offsets[v] + i];
    }

    /** Vertices with at least one out-edge, by id. */
    public int[] verticesWithEdges() {
        int count = 0;
        for (int v = 0; v < vertexCount(); v++) {
            if (degree(v) > 0) {
                count++;
            }
        }
        int[] out = new int[count];
        int i = 0;
        for (int v = 0; v < vertexCount(); v++) {
            if (degree(v) > 0) {
                out[i++] = v;
            }
        }
        return out;
    }
}
