package io.pragh.gremlin.structure;

import io.pragh.gremlin.storage.GraphKeys;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.Direction;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.util.iterator.IteratorUtils;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CompactEdgeIdsTest {
    private static long indexRecords(final PraghGraph graph) {
        final long[] n = {0};
        graph.store().forEachKey(GraphKeys.EDGE_INDEX, key -> n[0]++);
        return n[0];
    }

    @Test
    void anAssignedEdgeIdNeedsNoIndexRecordAndStillFindsReadsAndRemovesTheEdge() throws Exception {
        try (PraghGraph graph = TestGraphs.open()) {
            final Vertex a = graph.addVertex(T.id, 1L);
            final Vertex b = graph.addVertex(T.id, 2L);
            final Edge plain = a.addEdge("knows", b);
            final Edge weighted = a.addEdge("knows", b, "weight", 0.5d);
            assertInstanceOf(String.class, plain.id());
            assertEquals(0, indexRecords(graph));

            final GraphTraversalSource g = graph.traversal();
            assertEquals(plain, g.E(plain.id()).next());
            assertEquals(weighted, graph.edges(weighted.id().toString()).next());
            assertEquals(b, g.E(plain.id()).inV().next());
            assertEquals(0.5d, (double) g.E(weighted.id()).values("weight").next());
            assertEquals(List.of(plain.id(), weighted.id()), g.V(2L).inE().id().toList());

            g.E(plain.id()).drop().iterate();
            assertFalse(g.E(plain.id()).hasNext());
            assertEquals(List.of(weighted), IteratorUtils.list(b.edges(Direction.IN)));
            assertEquals(List.of(weighted), IteratorUtils.list(a.edges(Direction.OUT)));
            assertThrows(IllegalStateException.class, () -> plain.property("weight", 1.0d));
            assertEquals(0.5d, (double) weighted.value("weight"));
        }
    }

    @Test
    void aSuppliedEdgeIdKeepsItsIndexRecordUntilTheEdgeIsRemoved() throws Exception {
        try (PraghGraph graph = TestGraphs.open()) {
            final Vertex a = graph.addVertex(T.id, 1L);
            final Vertex b = graph.addVertex(T.id, 2L);
            final Edge e = a.addEdge("knows", b, T.id, 77L);
            assertEquals(77L, e.id());
            assertEquals(1, indexRecords(graph));
            assertEquals(e, graph.edges(77).next());
            assertEquals(e, graph.edges("77").next());
            assertThrows(IllegalArgumentException.class, () -> a.addEdge("knows", b, T.id, 77L));
            e.remove();
            assertEquals(0, indexRecords(graph));
            assertFalse(graph.edges(77L).hasNext());
        }
    }

    @Test
    void idsThatNameNoEdgeFindNothing() throws Exception {
        try (PraghGraph graph = TestGraphs.open()) {
            final Vertex a = graph.addVertex(T.id, 1L);
            final Edge e = a.addEdge("self", a);
            final String[] parts = ((String) e.id()).split("-");
            for (final Object id : new Object[] {"1-2", "x-1-2", parts[0] + "-0-" + parts[2], "1-1-1-1",
                parts[0] + "-" + parts[1] + "-" + (Long.parseLong(parts[2]) + 1), "-1", 5L}) {
                assertFalse(graph.edges(id).hasNext(), String.valueOf(id));
            }
            assertTrue(graph.edges(e.id()).hasNext());
        }
    }

    @Test
    void addEdgeBetweenVerticesThisGraphAddedReadsNothingButAVertexRemovedSinceIsRefused() throws Exception {
        final CountingStore store = new CountingStore(EmbeddedGraphStore.open(TestGraphs.configuration()));
        try (PraghGraph graph = PraghGraph.open(TestGraphs.configuration(), store)) {
            final Vertex a = graph.addVertex(T.id, 1L);
            final Vertex b = graph.addVertex(T.id, 2L);
            final Vertex c = graph.addVertex(T.id, 3L);
            final int before = store.reads.get();
            for (int i = 0; i < 50; i++) {
                a.addEdge("knows", i % 2 == 0 ? b : c);
            }
            assertEquals(before, store.reads.get(), "an edge between known vertices costs no read");
            assertEquals(50L, graph.traversal().V(1L).outE().count().next());

            final Vertex cAgain = graph.vertices(3L).next(); // another handle on c, known before the removal
            c.remove();
            assertThrows(IllegalStateException.class, () -> a.addEdge("knows", cAgain));
            assertThrows(IllegalStateException.class, () -> cAgain.addEdge("knows", a));
            assertEquals(25L, graph.traversal().V(1L).outE().count().next());
            // a handle on a vertex this graph never read is checked against the store
            assertThrows(IllegalStateException.class, () -> a.addEdge("knows", graph.vertexHandle(99L)));
            assertNull(store.get(GraphKeys.in(99L, graph.names().id("knows"))));
        }
    }

    /** A store that counts the reads a graph makes. */
    private static final class CountingStore extends ForwardingGraphStore {
        final AtomicInteger reads = new AtomicInteger();

        CountingStore(final GraphStore store) {
            super(store);
        }

        @Override
        public byte[] get(final long key) {
            reads.incrementAndGet();
            return store.get(key);
        }

        @Override
        public void getAll(final long[] keys, final int count, final IndexedValues visitor) {
            reads.incrementAndGet();
            store.getAll(keys, count, visitor);
        }

        @Override
        public void getAllViews(final long[] keys, final int count, final IndexedViews visitor) {
            reads.incrementAndGet();
            store.getAllViews(keys, count, visitor);
        }

        @Override
        public boolean contains(final long key) {
            reads.incrementAndGet();
            return store.contains(key);
        }
    }
}
