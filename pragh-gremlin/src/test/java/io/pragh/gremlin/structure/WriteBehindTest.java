package io.pragh.gremlin.structure;

import org.apache.commons.configuration2.Configuration;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.Direction;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WriteBehindTest {
    private static Configuration writeBehind(final int batchEdges) {
        final Configuration conf = TestGraphs.configuration();
        conf.setProperty(PraghGraph.WRITE_BEHIND, batchEdges);
        return conf;
    }

    @Test
    void addsAreWrittenInBatchesOrBeforeAnyOtherOperation() throws Exception {
        final GraphStore store = EmbeddedGraphStore.open(TestGraphs.configuration());
        final PraghGraph buffered = PraghGraph.open(writeBehind(3), store);
        final PraghGraph other = PraghGraph.open(TestGraphs.configuration(), store);
        try {
            final Vertex a = buffered.addVertex(T.label, "person", "name", "marko");
            final Vertex b = buffered.addVertex(T.id, 42L);
            final Edge e = a.addEdge("knows", b, "weight", 0.5d);
            assertFalse(other.vertices(42L).hasNext(), "not written yet: the buffer holds it");
            // The graph that buffered reads its own writes: reading writes the buffer first.
            final GraphTraversalSource g = buffered.traversal();
            assertEquals(2L, g.V().count().next());
            assertEquals(List.of(42L), g.V(a.id()).out("knows").id().toList());
            assertEquals(0.5d, (double) g.E(e.id()).values("weight").next());
            assertEquals("marko", b.vertices(Direction.IN).next().value("name"));
            assertTrue(other.vertices(42L).hasNext(), "written for the read, so every graph sees it");
            // A full batch (3 edges) is written without any read.
            for (int i = 0; i < 3; i++) {
                a.addEdge("knows", b);
            }
            assertEquals(4L, other.traversal().E().count().next());
            // A write after buffered adds is ordered after them: a property on a buffered vertex lands on it.
            final Vertex c = buffered.addVertex();
            c.property("age", 3);
            assertEquals(3, (int) other.vertices(c.id()).next().value("age"));
        } finally {
            buffered.close(); // closes the store both graphs share
        }
    }

    @Test
    void anErrorOfABufferedAddIsRaisedByTheCallThatWritesItsBatchAndTheGraphGoesOn() throws Exception {
        try (PraghGraph graph = PraghGraph.open(writeBehind(1000))) {
            graph.addVertex(T.id, 1L);
            assertEquals(1L, graph.traversal().V().count().next());
            graph.addVertex(T.id, 1L); // taken, but only the batch's check can tell
            final Vertex ghost = graph.vertexHandle(99L);
            graph.vertexHandle(1L).addEdge("e", ghost); // to a vertex that does not exist
            final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> graph.traversal().V().count().next());
            assertTrue(e.getMessage().contains("vertex 99") || e.getMessage().contains("id already exists: 1"),
                e.getMessage());
            assertEquals(1L, graph.traversal().V().count().next(), "the failed batch wrote nothing");
            assertEquals(0L, graph.traversal().E().count().next());
            graph.addVertex(T.id, 2L).addEdge("e", graph.vertices(1L).next());
            assertEquals(1L, graph.traversal().E().count().next(), "later adds go through");
        }
    }

    @Test
    void threadsAddingAtOnceLoseNothing() throws Exception {
        try (PraghGraph graph = PraghGraph.open(writeBehind(64))) {
            final int threads = 4;
            final int perThread = 500;
            final Vertex hub = graph.addVertex();
            final ExecutorService pool = Executors.newFixedThreadPool(threads);
            try {
                final List<Future<?>> done = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    done.add(pool.submit(() -> {
                        for (int i = 0; i < perThread; i++) {
                            graph.addVertex().addEdge("to", hub);
                        }
                    }));
                }
                for (final Future<?> f : done) {
                    f.get();
                }
            } finally {
                pool.shutdownNow();
            }
            assertEquals(threads * perThread + 1L, graph.traversal().V().count().next());
            assertEquals((long) threads * perThread, graph.traversal().V(hub.id()).in("to").count().next());
        }
    }
}
