package io.pragh.gremlin.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.embedded.OffHeapUse;
import io.pragh.gremlin.structure.EmbeddedGraphStore;
import io.pragh.gremlin.structure.PraghGraph;
import io.pragh.gremlin.structure.TestGraphs;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.apache.commons.configuration2.Configuration;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.Direction;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.junit.jupiter.api.Test;

class EdgeBulkLoadTest {
    /** Random edges over {@code vertices} ids spread by {@code stride} (dense, or sparse enough for the hash map). */
    private static EdgeBuffer random(final int edges, final int vertices, final long stride, final String... labels) {
        final SplittableRandom rnd = new SplittableRandom(7);
        final EdgeBuffer e = new EdgeBuffer();
        for (int i = 0; i < edges; i++) {
            e.add(rnd.nextInt(vertices) * stride, rnd.nextInt(vertices) * stride, labels[rnd.nextInt(labels.length)]);
        }
        return e;
    }

    /** Expected OUT neighbours per vertex and label, in the order added. */
    private static Map<String, List<Long>> outLists(final EdgeBuffer e) {
        final Map<String, List<Long>> m = new TreeMap<>();
        for (int i = 0; i < e.size(); i++) {
            m.computeIfAbsent(e.out(i) + "/" + e.labels().get(e.label(i)), k -> new ArrayList<>()).add(e.in(i));
        }
        return m;
    }

    private static void assertLoaded(final PraghGraph graph, final EdgeBuffer e) {
        final GraphTraversalSource g = graph.traversal();
        assertEquals((long) e.size(), g.E().count().next());
        for (final Map.Entry<String, List<Long>> want : outLists(e).entrySet()) {
            final String[] vl = want.getKey().split("/");
            final List<Object> got = new ArrayList<>();
            graph.vertices(Long.parseLong(vl[0])).next().vertices(Direction.OUT, vl[1])
                .forEachRemaining(v -> got.add(v.id()));
            assertEquals(want.getValue(), got, "OUT " + want.getKey() + " in the order added");
        }
        final long in = e.in(e.size() - 1);
        assertEquals(e.size() == 0 ? 0 : g.V(in).inE().count().next(), g.V(in).in().count().next());
    }

    @Test
    void denseAndSparseIdsLoadAsTheStructureApiReadsThem() {
        for (final long stride : new long[] {1, 1_000_003}) {
            try (PraghGraph graph = TestGraphs.open()) {
                final EdgeBuffer e = random(3_000, 300, stride, "knows", "likes");
                final EdgeBulkLoad.Result r = EdgeBulkLoad.into(graph).load(e);
                assertEquals(3_000, r.edges());
                assertEquals(graph.traversal().V().count().next().longValue(), r.vertices(), "stride " + stride);
                assertLoaded(graph, e);
                final Edge edge = graph.traversal().V(e.out(0)).outE(e.labels().get(e.label(0))).next();
                assertEquals(edge, graph.edges(edge.id()).next(), "an edge is found by its id");
                assertEquals(e.in(0), edge.inVertex().id());
                assertEquals(Vertex.DEFAULT_LABEL, graph.vertices(e.out(0)).next().label());
                assertEquals(0, graph.backingStore().offHeapUse().garbageBytes() / 4096,
                    "whole values leave no superseded copies (but the few updates of the id counter)");
            }
        }
    }

    @Test
    void edgesOfVerticesTheGraphHasAreAppendedAndItsVerticesKept() {
        try (PraghGraph graph = TestGraphs.open()) {
            final Vertex a = graph.addVertex(T.id, 1L, T.label, "person", "name", "marko");
            final Vertex b = graph.addVertex(T.id, 2L);
            a.addEdge("knows", b);
            final EdgeBuffer e = new EdgeBuffer();
            e.add(1, 3, "knows");
            e.add(1, 2, "knows");
            e.add(3, 1, "likes");
            graph.edgeBulkLoad().load(e);
            final GraphTraversalSource g = graph.traversal();
            final List<Object> knows = new ArrayList<>();
            a.vertices(Direction.OUT, "knows").forEachRemaining(v -> knows.add(v.id()));
            assertEquals(List.of(2L, 3L, 2L), knows, "the loaded edges follow the one the graph had");
            assertEquals("marko", g.V(1L).values("name").next());
            assertEquals("person", g.V(1L).label().next());
            assertEquals(4L, g.E().count().next());
            assertEquals(List.of(3L), g.V(1L).in("likes").id().toList());
            final Object fresh = graph.addVertex().id();
            assertTrue((Long) fresh > 3, "loaded ids are reserved: a new vertex gets " + fresh);
        }
    }

    @Test
    void aLoadTheMachinesHaveNoRoomForIsRefusedBeforeWritingAnything() {
        final Configuration conf = TestGraphs.configuration();
        conf.setProperty(EmbeddedGraphStore.KEYS, 64L);
        try (PraghGraph graph = PraghGraph.open(conf)) {
            final OffHeapUse before = graph.backingStore().offHeapUse();
            final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> graph.edgeBulkLoad().load(random(2_000, 1_000, 1, "x")));
            assertTrue(refused.getMessage().contains("refused before writing")
                && refused.getMessage().contains(EmbeddedGraphStore.KEYS), refused.getMessage());
            assertEquals(0L, graph.traversal().V().count().next());
            assertNotEquals(null, before);
        }
    }

    @Test
    void aGraphOpenedWithFreshGraphSizesHoldsItsLoad() {
        final EdgeBuffer e = random(20_000, 5_000, 1, "edge");
        final long[] sizes = EdgeBulkLoad.freshGraphSizes(e, 4);
        final Configuration conf = TestGraphs.configuration();
        conf.setProperty(EmbeddedGraphStore.KEYS, sizes[0]);
        conf.setProperty(EmbeddedGraphStore.VALUE_BYTES, sizes[1]);
        try (PraghGraph graph = PraghGraph.open(conf)) {
            EdgeBulkLoad.into(graph).load(e);
            assertEquals(20_000L, graph.traversal().E().count().next());
        }
    }
}
