package io.pragh.bench.workload;

import java.util.SplittableRandom;

/**
 * The Graph500 RMAT (Kronecker) edge generator: each of {@code edgeFactor * 2^scale} directed edges picks its
 * source and destination bit by bit, descending into the adjacency matrix's quadrants with probabilities
 * A=0.57, B=0.19, C=0.19, D=0.05, which gives the skewed, power-law-like degrees of real graphs. Vertex ids are then
 * scrambled by a seeded bijection of {@code [0, 2^scale)} so that degree does not follow the id, as Graph500
 * prescribes. The same scale, edge factor and seed always give the same edges in the same order.
 *
 * <pre>{@code
 * RmatGenerator g = new RmatGenerator(16, RmatGenerator.EDGE_FACTOR, 42);
 * g.forEachEdge((src, dst) -> ...);
 * }</pre>
 */
public final class RmatGenerator {
    public static final double A = 0.57;
    public static final double B = 0.19;
    public static final double C = 0.19;
    public static final double D = 1 - A - B - C;
    public static final int EDGE_FACTOR = 16;
    /** Vertex ids are ints and edge arrays are indexed by int. */
    public static final int MAX_SCALE = 25;

    /** Receives generated edges. */
    @FunctionalInterface
    public interface EdgeVisitor {
        void edge(int src, int dst);
    }

    private final int scale;
    private final int edgeFactor;
    private final long seed;
    private final int mask;
    private final int shift;
    private final int mul1;
    private final int mul2;
    private final int add;

    public RmatGenerator(int scale, int edgeFactor, long seed) {
        if (scale < 1 || scale > MAX_SCALE) {
            throw new IllegalArgumentException("scale must be in 1.." + MAX_SCALE + ", got " + scale);
        }
        if (edgeFactor < 1 || (long) edgeFactor << (scale + 1) > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("edge factor " + edgeFactor + " at scale " + scale
                + " gives more edges than an int array holds");
        }
        this.scale = scale;
        this.edgeFactor = edgeFactor;
        this.seed = seed;
        this.mask = (1 << scale) - 1;
        this.shift = Math.max(1, scale / 2);
        SplittableRandom keys = new SplittableRandom(seed ^ 0x5851f42d4c957f2dL);
        this.mul1 = keys.nextInt() | 1;
        this.mul2 = keys.nextInt() | 1;
        this.add = keys.nextInt();
    }

    public int scale() {
        return scale;
    }

    public int vertexCount() {
        return 1 << scale;
    }

    public int edgeCount() {
        return edgeFactor << scale;
    }

    /**
     * The id a generated vertex gets: odd multipliers, an addition and xor-shifts, each a bijection modulo
     * {@code 2^scale}, so no two vertices share an id.
     */
    public int scramble(int v) {
        int x = (v * mul1 + add) & mask;
        x ^= x >>> shift;
        x = (x * mul2) & mask;
        x ^= x >>> shift;
        return x;
    }

    /** Generates every edge, in a fixed order, on the calling thread. */
    public void forEachEdge(EdgeVisitor visitor) {
        SplittableRandom rng = new SplittableRandom(seed);
        int edges = edgeCount();
        for (int e = 0; e < edges; e++) {
            int src = 0;
            int dst = 0;
            for (int bit = scale - 1; bit >= 0; bit--) {
                double r = rng.nextDouble();
                if (r < A) {
                    continue;
                }
                if (r < A + B) {
                    dst |= 1 << bit;
                } else if (r < A + B + C) {
                    src |= 1 << bit;
                } else {
                    src |= 1 << bit;
                    dst |= 1 << bit;
                }
            }
            visitor.edge(scramble(src), scramble(dst));
        }
    }

    /**
     * The generated graph as Graph500 defines it, undirected: every edge is in the adjacency of both its ends, so
     * every vertex a traversal reaches has an adjacency list. Duplicate edges are folded; self loops kept once.
     */
    public AdjacencyGraph generate() {
        int n = vertexCount();
        int m = edgeCount();
        int[] src = new int[2 * m];
        int[] dst = new int[2 * m];
        int[] at = {0};
        forEachEdge((s, d) -> {
            int i = at[0]++;
            src[i] = s;
            dst[i] = d;
            src[m + i] = d;
            dst[m + i] = s;
        });
        return AdjacencyGraph.fromEdges(n, src, dst);
    }
}
