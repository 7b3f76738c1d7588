package io.pragh.rdf.cli;

import io.pragh.gremlin.distributed.InJvmCluster;
import io.pragh.gremlin.structure.GraphStore;
import io.pragh.rdf.JenaRows;
import io.pragh.rdf.lubm.LubmGenerator;
import io.pragh.rdf.sparql.SparqlEngine;
import io.pragh.rdf.store.RdfStore;
import org.apache.jena.query.Dataset;
import org.apache.jena.riot.RDFDataMgr;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ./pragh rdf load FILE --server HOST:PORT} loads into a running cluster through one machine's client port:
 * afterwards every LUBM query, explored on another machine, gives Jena's rows over the same file; the progress bars
 * show; a bad line stops the load before anything is written, naming the line; a command line without the cluster's
 * secret is refused. Two server machines in this JVM on the TCP fabric stand for two processes.
 */
class RdfLoadIntoRunningClusterTest {
    private record Ran(int status, String out, String err) {
    }

    private static Ran run(final String... args) throws Exception {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int status = RdfCommand.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Ran(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void loadsIntoARunningClusterAndAnswersAsJenaDoes(@TempDir final Path dir) throws Exception {
        final Path file = dir.resolve("lubm-1.nt");
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            new LubmGenerator(1, 0).write(w);
        }
        final Path bad = dir.resolve("bad.nt");
        Files.writeString(bad, "<http://a> <http://p> <http://b> .\n<http://a> <http://p> \"c\" .\n<http://a> oops\n");
        try (InJvmCluster cluster = InJvmCluster.start(2, s -> s.withStore("64MiB", 1L << 18, "4MiB"))) {
            final String server = "127.0.0.1:" + cluster.config().machine(1).clientPort();
            final String config = cluster.configFile().toString();

            final long before = cluster.homeKeys();
            final Ran refused = run("load", bad.toString(), "--server", server, "--config", config);
            assertEquals(1, refused.status(), refused.err());
            assertTrue(refused.err().contains("bad.nt line 3"), refused.err());
            assertEquals(before, cluster.homeKeys(), "a bad line stops the load before anything is written");

            final Ran loaded = run("load", file.toString(), "--server", server, "--config", config);
            assertEquals(0, loaded.status(), loaded.err());
            assertTrue(loaded.out().matches("(?s)loaded .*lubm-1.nt: [0-9,]+ triples.* into the cluster at "
                + server + ".*"), loaded.out());
            assertTrue(loaded.err().contains("parsing lubm-1.nt") && loaded.err().contains("writing lubm-1.nt"),
                "progress bars: " + loaded.err());

            final Dataset jena = RDFDataMgr.loadDataset(file.toString());
            try (GraphStore store = cluster.store(0)) {
                final SparqlEngine engine = new SparqlEngine(new RdfStore(store));
                for (final String name : List.of("L1", "L2", "L3", "L4", "L5", "L6", "L7")) {
                    final String query = JenaRows.lubm(name);
                    final Map<Map<String, String>, Integer> ours = JenaRows.of(engine.query(query).rowsAsStrings());
                    assertEquals(JenaRows.of(query, jena), ours, name);
                }
            }
        }
    }

    @Test
    void aServerWithoutTheClusterFileIsABadCommandLine() throws Exception {
        final Ran r = run("load", "x.nt", "--server", "127.0.0.1:7500");
        assertEquals(2, r.status());
        assertTrue(r.err().contains("--server needs the cluster's secret"), r.err());
        assertEquals(2, run("load", "x.nt", "--server", "nohost", "--config", "c.yaml").status());
    }
}
