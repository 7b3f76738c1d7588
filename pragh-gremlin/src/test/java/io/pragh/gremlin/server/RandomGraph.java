package io.pragh.gremlin.server;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** A seeded random directed multigraph with two edge labels, and its two-hop path counts computed on the client. */
final class RandomGraph {
    final int vertices;
    final List<long[]> edges = new ArrayList<>(); // {from, to, label 0|1}

    RandomGraph(final long seed, final int vertices, final int edgeCount) {
        this.vertices = vertices;
        final Random random = new Random(seed);
        for (int i = 0; i < edgeCount; i++) {
            edges.add(new long[] {random.nextInt(vertices), random.nextInt(vertices), random.nextInt(2)});
        }
    }

    static String label(final long code) {
        return code == 0 ? "knows" : "likes";
    }

    /** Walks of length two from {@code start} along out-edges: what {@code g.V(start).out().out().count()} counts. */
    long twoHopWalks(final long start) {
        long walks = 0;
        for (final long[] first : edges) {
            if (first[0] == start) {
                for (final long[] second : edges) {
                    if (second[0] == first[1]) {
                        walks++;
                    }
                }
            }
        }
        return walks;
    }
}
