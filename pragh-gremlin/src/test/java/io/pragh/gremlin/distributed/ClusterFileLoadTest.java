package io.pragh.gremlin.distributed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.gremlin.structure.PraghGraph;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.commons.configuration2.BaseConfiguration;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./pragh load FILE --server HOST:PORT} loads into a running cluster through one machine's client port: the
 * edges are then there for a graph on another machine; a bad line stops the load before anything is written, naming
 * the line; a command line without the cluster's secret is refused. Two server machines in this JVM on the TCP
 * fabric stand for two processes.
 */
@Timeout(180)
class ClusterFileLoadTest {
    private record Ran(int status, String out, String err) {
    }

    private static Ran run(final String... args) {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int status = ClusterFileLoad.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Ran(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void anEdgeListLoadsIntoARunningClusterThroughOneClientPort(@TempDir final Path dir) throws Exception {
        final StringBuilder text = new StringBuilder("# a star and a chain\n");
        final Set<Long> star = new TreeSet<>();
        for (long v = 2; v <= 41; v++) {
            text.append("1 ").append(v).append('\n');
            star.add(v);
        }
        for (long v = 2; v < 41; v++) {
            text.append(v).append(' ').append(v + 1).append(" next\n");
        }
        final Path file = dir.resolve("edges.txt");
        Files.writeString(file, text);
        final Path bad = dir.resolve("bad.txt");
        Files.writeString(bad, "1 2\n2 3\n3 oops\n");
        try (InJvmCluster cluster = InJvmCluster.start(2)) {
            final String server = "127.0.0.1:" + cluster.config().machine(1).clientPort();
            final String config = cluster.configFile().toString();

            final long before = cluster.homeKeys();
            final Ran refused = run(bad.toString(), "--server", server, "--config", config);
            assertEquals(1, refused.status(), refused.err());
            assertTrue(refused.err().contains("bad.txt line 3"), refused.err());
            assertEquals(before, cluster.homeKeys(), "a bad line stops the load before anything is written");

            final Ran noSecret = run(file.toString(), "--server", server);
            assertEquals(2, noSecret.status(), noSecret.err());
            assertTrue(noSecret.err().contains("--server needs the cluster's secret"), noSecret.err());

            final Ran loaded = run(file.toString(), "--server", server, "--config", config);
            assertEquals(0, loaded.status(), loaded.err());
            assertTrue(loaded.out().matches("(?s)loaded .*edges.txt into the cluster at " + server
                + " in .* s: 79 edges, .*"), loaded.out());
            assertTrue(loaded.err().contains("writing edges.txt"), "progress bars: " + loaded.err());

            // Read back through the other machine's own store, as its Gremlin port would.
            final BaseConfiguration conf = new BaseConfiguration();
            conf.setProperty(PraghGraph.MACHINES, 2);
            try (PraghGraph graph = PraghGraph.open(conf, cluster.store(0))) {
                final GraphTraversalSource g = graph.traversal();
                assertEquals(star, new TreeSet<>(g.V(1L).out().id().map(t -> ((Number) t.get()).longValue())
                    .toList()));
                assertEquals(List.of(21L), g.V(20L).out("next").id().map(t -> ((Number) t.get()).longValue())
                    .toList());
                assertEquals(79L, (long) g.E().count().next());
                assertEquals(41L, (long) g.V().count().next());
            }
        }
    }
}
