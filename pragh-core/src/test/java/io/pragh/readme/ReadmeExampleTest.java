package io.pragh.readme;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.pragh.embedded.AdjacencyLists;
import io.pragh.embedded.EmbeddedCluster;
import io.pragh.embedded.Machine;
import io.pragh.keys.KeyLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The README's embedding example, verbatim between the markers, so that it always compiles and runs.
 * {@link #theReadmeShowsThisExample} checks the README still carries the same code.
 */
class ReadmeExampleTest {
    @Test
    void theEmbeddingExampleRuns() throws Exception {
        // README-EXAMPLE-BEGIN
        try (EmbeddedCluster cluster = EmbeddedCluster.builder().machines(4).build()) {
            Machine m0 = cluster.machine(0);
            long alice = KeyLayout.key(1, 0, KeyLayout.VERTEX);
            m0.put(alice, "alice".getBytes(StandardCharsets.UTF_8));
            byte[] name = cluster.machine(3).get(alice);              // read from any machine

            AdjacencyLists graph = cluster.graph();
            graph.addEdge(1, 0, 2);                                   // 1 -[label 0]-> 2
            graph.addEdge(2, 0, 3);                                   // 2 -[label 0]-> 3
            long[] twoHop = graph.kHop(1, 0, 2, 100).join();          // {3}, run on vertex 1's home machine

            cluster.machine(3).migrate(KeyLayout.key(2, 0, KeyLayout.OUT)); // the value moves, the key stays home
            // README-EXAMPLE-END
            assertArrayEquals("alice".getBytes(StandardCharsets.UTF_8), name);
            assertArrayEquals(new long[] {3}, twoHop);
            assertArrayEquals(new long[] {3}, graph.kHop(1, 0, 2, 100).join());
        }
    }

    @Test
    void theReadmeShowsThisExample() throws Exception {
        Path here = Path.of("src/test/java/io/pragh/readme/ReadmeExampleTest.java");
        Path readme = Path.of("../README.md");
        String test = Files.readString(here);
        String code = between(test, "// README-EXAMPLE-BEGIN", "// README-EXAMPLE-END");
        String doc = Files.readString(readme);
        assertEquals(true, normalize(doc).contains(normalize(code)),
            "README.md must contain the example of ReadmeExampleTest verbatim (modulo indentation)");
    }

    static String between(String s, String a, String b) {
        return s.substring(s.indexOf(a) + a.length(), s.indexOf(b));
    }

    static String normalize(String s) {
        StringBuilder out = new StringBuilder();
        for (String line : s.split("\n")) {
            String t = line.strip();
            if (!t.isEmpty() && !t.startsWith("//") && !t.startsWith("```")) {
                out.append(t).append('\n');
            }
        }
        return out.toString();
    }
}
