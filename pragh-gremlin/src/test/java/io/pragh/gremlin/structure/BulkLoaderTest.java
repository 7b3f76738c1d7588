package io.pragh.gremlin.structure;

import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.Direction;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.util.iterator.IteratorUtils;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BulkLoaderTest {
    /** A ring of {@code n} vertices, each with edges to its next three, in batches of {@code batch} edges. */
    private static List<Object> ring(final PraghGraph graph, final int n, final int batch) {
        final List<Object> edgeIds = new ArrayList<>();
        try (BulkLoader load = graph.bulkLoader(batch)) {
            for (long v = 0; v < n; v++) {
                load.addVertex(T.id, v, T.label, "node", "n", v);
            }
            for (long v = 0; v < n; v++) {
                for (long d = 1; d <= 3; d++) {
                    edgeIds.add(load.addEdge(v, "next", (v + d) % n, "d", d));
                }
            }
            assertEquals(n, load.vertices());
            assertEquals(3L * n, load.edges());
        }
        return edgeIds;
    }

    @Test
    void loadsWhatTheStructureApiReadsBack() throws Exception {
        // 400 vertices and 1,200 edges in one batch: over 2,000 updates, so the per-home path runs them.
        for (final int batch : new int[] {BulkLoader.DEFAULT_BATCH_EDGES, 7}) {
            try (PraghGraph graph = TestGraphs.open()) {
                final List<Object> edgeIds = ring(graph, 400, batch);
                final GraphTraversalSource g = graph.traversal();
                assertEquals(400L, g.V().count().next(), "batch " + batch);
                assertEquals(1200L, g.E().count().next(), "batch " + batch);
                final Vertex v = graph.vertices(398L).next();
                assertEquals("node", v.label());
                assertEquals(398L, (long) v.value("n"));
                final Set<Object> next = new HashSet<>();
                v.vertices(Direction.OUT, "next").forEachRemaining(u -> next.add(u.id()));
                assertEquals(Set.of(399L, 0L, 1L), next, "batch " + batch);
                assertEquals(3, IteratorUtils.count(graph.vertices(0L).next().edges(Direction.IN)), "batch " + batch);
                final Edge e = graph.edges(edgeIds.get(5)).next(); // vertex 1's third edge
                assertEquals(1L, e.outVertex().id());
                assertEquals(4L, e.inVertex().id());
                assertEquals(3L, (long) e.value("d"));
            }
        }
    }

    @Test
    void anEdgeToAMissingVertexFailsItsBatchNamingTheVertexAndStopsTheLoader() throws Exception {
        try (PraghGraph graph = TestGraphs.open()) {
            graph.addVertex(T.id, 1L);
            final BulkLoader load = graph.bulkLoader(4);
            load.addEdge(1L, "e", 1L); // the graph has vertex 1
            load.addVertex(T.id, 2L);
            load.addEdge(1L, "e", 2L);
            load.addEdge(2L, "e", 77L);
            final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> load.addEdge(2L, "e", 1L)); // the fourth edge fills the batch
            assertTrue(e.getMessage().contains("vertex 77"), e.getMessage());
            assertEquals(0L, graph.traversal().E().count().next(), "nothing of the failed batch is written");
            assertFalse(graph.vertices(2L).hasNext());
            final IllegalStateException after = assertThrows(IllegalStateException.class, () -> load.addVertex());
            assertTrue(after.getMessage().contains("vertex 77"), after.getMessage());
            load.close(); // writes nothing more, throws nothing
            assertEquals(0L, graph.traversal().E().count().next());
        }
    }

    @Test
    void aSuppliedIdThatIsTakenFailsItsBatch() throws Exception {
        try (PraghGraph graph = TestGraphs.open()) {
            final Vertex a = graph.addVertex(T.id, 1L);
            final Vertex b = graph.addVertex(T.id, 2L);
            a.addEdge("e", b, T.id, 10L);
            try (BulkLoader load = graph.bulkLoader()) {
                load.addVertex(T.id, 1L);
                assertThrows(IllegalArgumentException.class, load::flush);
            }
            try (BulkLoader load = graph.bulkLoader()) {
                load.addVertex(T.id, 3L);
                assertThrows(IllegalArgumentException.class, () -> load.addVertex(T.id, 3L), "twice in one loader");
            } // an error raised by the call itself leaves the loader going: vertex 3 is written once

            try (BulkLoader load = graph.bulkLoader()) {
                load.addEdge(1L, "e", 2L, T.id, 10L);
                assertThrows(IllegalArgumentException.class, load::flush);
            }
            assertEquals(3L, graph.traversal().V().count().next());
            assertEquals(1L, graph.traversal().E().count().next());
        }
    }

    @Test
    void ensureVertexAddsOnlyVerticesTheGraphLacks() throws Exception {
        try (PraghGraph graph = TestGraphs.open()) {
            graph.addVertex(T.id, 5L, T.label, "person", "name", "marko");
            try (BulkLoader load = graph.bulkLoader()) {
                for (final long v : new long[] {5L, 6L, 6L}) {
                    load.ensureVertex(v);
                }
                load.addEdge(5L, "knows", 6L);
            }
            final Vertex marko = graph.vertices(5L).next();
            assertEquals("person", marko.label());
            assertEquals("marko", marko.value("name"));
            assertEquals(Vertex.DEFAULT_LABEL, graph.vertices(6L).next().label());
            assertEquals(2L, graph.traversal().V().count().next());
            // Ids the graph assigns later never collide with ensured ones.
            assertTrue((long) graph.addVertex().id() > 6L);
        }
    }
}
