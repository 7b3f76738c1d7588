package io.pragh.gremlin.analytics;

import io.pragh.gremlin.structure.PraghGraph;
import io.pragh.gremlin.structure.TestGraphs;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code g.call("pragh.bfs")} and {@code g.call("pragh.pagerank")} on a small random multigraph (two labels, parallel
 * edges, self-loops, vertices without out-edges and vertices no edge reaches) equal a plain in-memory BFS and
 * PageRank over the edge list the graph was built from.
 */
class GraphAlgorithmsTest {
    static final int VERTICES = 80;
    private static final int EDGES = 240;

    /** The edges added, as {from, to, label (0 road, 1 rail)}. */
    static List<long[]> randomGraph(final PraghGraph graph, final long[] vids) {
        final Random random = new Random(18);
        final Vertex[] vs = new Vertex[vids.length];
        for (int i = 0; i < vs.length; i++) {
            vs[i] = graph.addVertex();
            vids[i] = PraghGraph.toVid(vs[i].id());
        }
        final List<long[]> edges = new ArrayList<>();
        for (int e = 0; e < EDGES; e++) {
            final int a = random.nextInt(vs.length - 10); // the last ten have no out-edges
            final int b = random.nextInt(vs.length);
            final int label = random.nextInt(3) == 0 ? 1 : 0;
            vs[a].addEdge(label == 1 ? "rail" : "road", vs[b]);
            edges.add(new long[] {vids[a], vids[b], label});
        }
        return edges;
    }

    static Map<Long, List<Long>> adjacency(final List<long[]> edges, final int label) {
        final Map<Long, List<Long>> out = new HashMap<>();
        for (final long[] e : edges) {
            if (label < 0 || e[2] == label) {
                out.computeIfAbsent(e[0], k -> new ArrayList<>()).add(e[1]);
            }
        }
        return out;
    }

    @Test
    void bfsServiceEqualsAPlainBfsAlongOneLabelAndAlongAll() {
        try (PraghGraph graph = TestGraphs.open()) {
            final long[] vids = new long[VERTICES];
            final List<long[]> edges = randomGraph(graph, vids);
            GraphAlgorithms.register(graph);
            for (final String label : new String[] {null, "road"}) {
                final Map<Long, Long> expected = ReferenceAlgorithms.bfs(adjacency(edges, label == null ? -1 : 0),
                    vids[0]);
                assertTrue(expected.size() > VERTICES / 2, "the source reaches most vertices: " + expected.size());
                final Map<String, Object> params = new HashMap<>();
                params.put("source", vids[0]);
                if (label != null) {
                    params.put("label", label);
                }
                final Map<?, ?> answer = (Map<?, ?>) graph.traversal().call("pragh.bfs", params).next();
                assertEquals(expected, new HashMap<>((Map<?, ?>) answer.get("distances")), "label " + label);
                assertEquals(expected.size(), answer.get("reached"));
                assertEquals(expected.values().stream().mapToLong(Long::longValue).max().getAsLong(), answer.get("depth"));
            }
        }
    }

    @Test
    void pageRankServiceEqualsAPlainPageRankAndWritesTheProperty() {
        try (PraghGraph graph = TestGraphs.open()) {
            final long[] vids = new long[VERTICES];
            final List<long[]> edges = randomGraph(graph, vids);
            GraphAlgorithms.register(graph);
            final Map<Long, Double> expected = ReferenceAlgorithms.pageRank(adjacency(edges, 1), vids, 15, 0.8);
            final Map<?, ?> answer = (Map<?, ?>) graph.traversal().call("pragh.pagerank",
                Map.of("label", "rail", "iterations", 15, "damping", 0.8, "property", "rank")).next();
            final Map<?, ?> ranks = (Map<?, ?>) answer.get("ranks");
            assertEquals(VERTICES, answer.get("vertices"));
            assertEquals(expected.keySet(), ranks.keySet());
            double sum = 0;
            for (final long v : vids) {
                assertEquals(expected.get(v), (Double) ranks.get(v), 1e-12, "vertex " + v);
                assertEquals(expected.get(v), (Double) graph.vertices(v).next().value("rank"), 1e-12,
                    "vertex " + v + "'s property");
                sum += (Double) ranks.get(v);
            }
            assertEquals(1.0, sum, 1e-9, "ranks are a distribution");
        }
    }

    @Test
    void badParametersAreRefusedNamingWhatWasWrong() {
        try (PraghGraph graph = TestGraphs.open()) {
            GraphAlgorithms.register(graph);
            final Exception noSource = assertThrows(Exception.class,
                () -> graph.traversal().call("pragh.bfs", Map.of()).next());
            assertTrue(String.valueOf(noSource.getMessage()).contains("source"), noSource.getMessage());
            final Exception noVertex = assertThrows(Exception.class,
                () -> graph.traversal().call("pragh.bfs", Map.of("source", 12345)).next());
            assertTrue(String.valueOf(noVertex.getMessage()).contains("12345"), noVertex.getMessage());
            final Exception badDamping = assertThrows(Exception.class,
                () -> graph.traversal().call("pragh.pagerank", Map.of("damping", 2)).next());
            assertTrue(String.valueOf(badDamping.getMessage()).contains("damping"), badDamping.getMessage());
        }
    }
}
