package io.pragh.bench.workload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class RmatGeneratorTest {
    private static long[] edgeFingerprint(RmatGenerator g) {
        long[] out = new long[g.edgeCount()];
        int[] i = {0};
        g.forEachEdge((s, d) -> out[i[0]++] = ((long) s << 32) | d);
        return out;
    }

    @Test
    void theSameSeedGivesTheSameEdgesAndAnotherSeedOthers() {
        long[] a = edgeFingerprint(new RmatGenerator(10, 16, 7));
        long[] b = edgeFingerprint(new RmatGenerator(10, 16, 7));
        long[] c = edgeFingerprint(new RmatGenerator(10, 16, 8));
        assertArrayEquals(a, b);
        assertFalse(Arrays.equals(a, c), "seed 8 produced seed 7's edges");
    }

    @Test
    void itGeneratesEdgeFactorTimesVerticesEdgesWithinTheIdRange() {
        RmatGenerator g = new RmatGenerator(9, RmatGenerator.EDGE_FACTOR, 1);
        int[] count = {0};
        g.forEachEdge((s, d) -> {
            assertTrue(s >= 0 && s < 512 && d >= 0 && d < 512, s + "->" + d);
            count[0]++;
        });
        assertEquals(16 * 512, count[0]);
    }

    @Test
    void scramblingIsABijectionOfTheIdRange() {
        for (int scale : new int[] {1, 2, 7, 12}) {
            RmatGenerator g = new RmatGenerator(scale, 16, 3);
            boolean[] seen = new boolean[1 << scale];
            for (int v = 0; v < 1 << scale; v++) {
                int id = g.scramble(v);
                assertFalse(seen[id], "scale " + scale + ": id " + id + " given twice");
                seen[id] = true;
            }
        }
    }

    @Test
    void degreesAreSkewedLikeAPowerLawAndDoNotFollowTheId() {
        AdjacencyGraph graph = new RmatGenerator(12, RmatGenerator.EDGE_FACTOR, 42).generate();
        int n = graph.vertexCount();
        int[] degrees = new int[n];
        for (int v = 0; v < n; v++) {
            degrees[v] = graph.degree(v);
        }
        int[] sorted = degrees.clone();
        Arrays.sort(sorted);
        double mean = (double) graph.edgeCount() / n;
        long top1Percent = 0;
        for (int i = n - n / 100; i < n; i++) {
            top1Percent += sorted[i];
        }
        assertTrue(sorted[n - 1] > 20 * mean, "max degree " + sorted[n - 1] + " vs mean " + mean);
        assertTrue(top1Percent > 0.15 * graph.edgeCount(), "top 1% of vertices hold " + top1Percent + " of "
            + graph.edgeCount() + " edges");
        assertTrue(sorted[n / 10] == 0, "a tenth of RMAT vertices have no edge at all, got " + sorted[n / 10]);
        // Unscrambled, the top-degree vertex is id 0; scrambled, the ten biggest are spread over the id range.
        int highIds = 0;
        for (int v = 0; v < n; v++) {
            if (degrees[v] >= sorted[n - 10] && v >= n / 2) {
                highIds++;
            }
        }
        assertTrue(highIds >= 1, "no top-10 vertex in the upper half of the ids");
    }

    @Test
    void theGeneratedGraphIsUndirected() {
        AdjacencyGraph g = new RmatGenerator(8, 16, 5).generate();
        for (int v = 0; v < g.vertexCount(); v++) {
            for (int i = 0; i < g.degree(v); i++) {
                int u = g.neighbour(v, i);
                boolean back = false;
                for (int j = 0; j < g.degree(u) && !back; j++) {
                    back = g.neighbour(u, j) == v;
                }
                assertTrue(back, v + "->" + u + " has no " + u + "->" + v);
            }
        }
    }

    @Test
    void adjacencyListsAreSortedAndDistinct() {
        AdjacencyGraph g = AdjacencyGraph.fromEdges(3, new int[] {0, 0, 0, 2, 0}, new int[] {2, 1, 2, 0, 1});
        assertEquals(2, g.degree(0));
        assertEquals(1, g.neighbour(0, 0));
        assertEquals(2, g.neighbour(0, 1));
        assertEquals(0, g.degree(1));
        assertEquals(1, g.degree(2));
        assertEquals(3, g.edgeCount());
        assertArrayEquals(new int[] {0, 2}, g.verticesWithEdges());
    }

    @Test
    void badScalesAreRefusedByName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new RmatGenerator(0, 16, 1));
        assertTrue(e.getMessage().contains("scale"), e.getMessage());
    }
}
