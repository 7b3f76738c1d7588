package io.pragh.gremlin.server;

import io.pragh.gremlin.structure.PraghGraph;
import io.pragh.gremlin.structure.TestGraphs;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.structure.io.graphml.GraphMLIo;
import org.apache.tinkerpop.gremlin.structure.io.graphson.GraphSONIo;
import org.apache.tinkerpop.gremlin.tinkergraph.structure.TinkerGraph;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintStream;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * A GraphML or GraphSON file's string ids are kept as {@code originalId} (they were dropped for assigned ids), its
 * integer ids as the elements' ids, and the edges between them land where the file put them.
 */
class GraphLoaderIdsTest {
    @TempDir
    Path dir;

    /** alice -knows-> 7 -knows-> bob, written by TinkerGraph, which keeps any id. */
    private Path written(final String name, final org.apache.tinkerpop.gremlin.structure.io.Io.Builder<?> format)
            throws Exception {
        final TinkerGraph source = TinkerGraph.open();
        final Vertex alice = source.addVertex(T.id, "alice", T.label, "person", "name", "Alice");
        final Vertex seven = source.addVertex(T.id, 7L, T.label, "person", "name", "Seven");
        final Vertex bob = source.addVertex(T.id, "b-0b", T.label, "person", "name", "Bob");
        alice.addEdge("knows", seven, T.id, "e-alice-7", "since", 2020);
        seven.addEdge("knows", bob, T.id, 42L);
        final Path file = dir.resolve(name);
        source.io(format).writeGraph(file.toString());
        return file;
    }

    private static void assertIdsKept(final Path file) throws Exception {
        try (PraghGraph graph = PraghGraph.open(TestGraphs.configuration())) {
            new GraphLoader(new PrintStream(java.io.OutputStream.nullOutputStream())).load(graph, file.toFile());
            final GraphTraversalSource g = graph.traversal();
            assertEquals("Alice", g.V().has(OriginalIds.KEY, "alice").values("name").next());
            assertEquals(7L, g.V().has(OriginalIds.KEY, "alice").out("knows").id().next());
            assertFalse(g.V(7L).has(OriginalIds.KEY).hasNext(), "an integer id is the vertex's id, not a property");
            assertEquals("b-0b", g.V(7L).out("knows").values(OriginalIds.KEY).next());
            assertEquals("e-alice-7", g.V().has(OriginalIds.KEY, "alice").outE("knows").values(OriginalIds.KEY).next());
            assertEquals(2020, g.V().has(OriginalIds.KEY, "alice").outE("knows").values("since").next());
            assertEquals(42L, g.V(7L).outE("knows").id().next());
            assertEquals(3L, g.V().count().next());
        }
    }

    @Test
    void graphMlStringIdsAreKeptAsOriginalId() throws Exception {
        assertIdsKept(written("g.graphml", GraphMLIo.build()));
    }

    @Test
    void graphSonStringIdsAreKeptAsOriginalId() throws Exception {
        assertIdsKept(written("g.json", GraphSONIo.build()));
    }
}
