package io.pragh.gremlin.server;

import io.pragh.gremlin.structure.PraghGraph;
import io.pragh.gremlin.structure.TestGraphs;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.tinkergraph.structure.TinkerGraph;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GraphLoaderTest {
    private static final String EDGES = String.join("\n", "# a comment", "% another", "1 2", "2 3 knows", "",
        "3,1", "1 1 self", "4 2") + "\n";

    @TempDir
    Path dir;

    private File write(final String name, final String text) throws IOException {
        final Path file = dir.resolve(name);
        Files.writeString(file, text, StandardCharsets.UTF_8);
        return file.toFile();
    }

    @Test
    void anEdgeListLoadsAsItDoesIntoTinkerGraph() throws Exception {
        final File file = write("edges.txt", EDGES);
        final ByteArrayOutputStream progress = new ByteArrayOutputStream();
        try (PraghGraph graph = TestGraphs.open(); TinkerGraph tinker = TinkerGraph.open()) {
            graph.addVertex(T.id, 4L, T.label, "person", "name", "marko"); // an existing vertex stays as it is
            tinker.addVertex(T.id, 4L, T.label, "person", "name", "marko");
            final GraphLoader loader = new GraphLoader(new PrintStream(progress, true, StandardCharsets.UTF_8));
            for (int load = 0; load < 2; load++) { // the second adds its edges to the vertices of the first
                assertEquals(5L, loader.load(graph, file));
                assertEquals(5L, loader.load(tinker, file));
            }
            for (final GraphTraversalSource g : List.of(graph.traversal(), tinker.traversal())) {
                assertEquals(4L, g.V().count().next(), g.toString());
                assertEquals(10L, g.E().count().next(), "both loads, " + g);
                assertEquals(Map.of("edge", 6L, "knows", 2L, "self", 2L), g.E().label().groupCount().next(), g.toString());
                assertEquals("marko", g.V(4L).values("name").next(), g.toString());
                assertEquals(List.of(2L, 2L), g.V(1L).out("edge").id().toList(), g.toString());
            }
            assertTrue(progress.toString(StandardCharsets.UTF_8).contains("100%"), progress.toString(StandardCharsets.UTF_8));
        }
    }

    @Test
    void aBadLineIsNamed() throws Exception {
        try (PraghGraph graph = TestGraphs.open()) {
            final GraphLoader loader = new GraphLoader(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
            final IOException notAnId = assertThrows(IOException.class,
                () -> loader.load(graph, write("a.txt", "1 2\n2 x\n")));
            assertTrue(notAnId.getMessage().contains("a.txt line 2") && notAnId.getMessage().contains("'x'"),
                notAnId.getMessage());
            final IOException shape = assertThrows(IOException.class,
                () -> loader.load(graph, write("b.txt", "1 2\n\n1 2 3 4\n")));
            assertTrue(shape.getMessage().contains("b.txt line 3"), shape.getMessage());
            final IOException negative = assertThrows(IOException.class,
                () -> loader.load(graph, write("c.txt", "1 2\n-5 2\n")));
            assertTrue(negative.getMessage().contains("c.txt line 2") && negative.getMessage().contains("-5"),
                negative.getMessage());
        }
    }
}
