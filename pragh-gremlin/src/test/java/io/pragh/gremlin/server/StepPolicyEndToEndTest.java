package io.pragh.gremlin.server;

import org.apache.tinkerpop.gremlin.driver.Client;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.apache.tinkerpop.gremlin.driver.RequestOptions;
import org.apache.tinkerpop.gremlin.driver.exception.ResponseException;
import org.apache.tinkerpop.gremlin.driver.remote.DriverRemoteConnection;
import org.apache.tinkerpop.gremlin.process.traversal.IO;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.util.message.ResponseStatusCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ExecutionException;

import static org.apache.tinkerpop.gremlin.process.traversal.AnonymousTraversalSource.traversal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The step policy over the wire from TinkerPop's Java driver: io() refused by default, confined with --allow-io. */
class StepPolicyEndToEndTest {
    private static final RequestOptions GREMLIN_LANG = RequestOptions.build().language("gremlin-lang").create();

    @TempDir
    Path dir;
    @TempDir
    Path outside;

    private static ResponseException refused(final Client client, final String script) {
        final ExecutionException e = assertThrows(ExecutionException.class,
            () -> client.submit(script, GREMLIN_LANG).all().get(), script);
        assertTrue(e.getCause() instanceof ResponseException, script + ": " + e);
        final ResponseException r = (ResponseException) e.getCause();
        assertEquals(ResponseStatusCode.UNAUTHORIZED, r.getResponseStatusCode(), script + ": " + r.getMessage());
        return r;
    }

    @Test
    void ioIsRefusedByDefaultAndNeitherWritesNorReadsAFile() throws Exception {
        final Path secret = Files.writeString(outside.resolve("hostname"), "secret-host-name-4711");
        final Path target = outside.resolve("overwritten.json");
        try (ServedGraph served = new ServedGraph()) {
            final Cluster cluster = Cluster.build("127.0.0.1").port(served.port).create();
            try {
                final Client client = cluster.connect();
                client.submit("g.addV('person').property('name', 'marko')", GREMLIN_LANG).all().get();
                final String write = refused(client, "g.io('" + target + "').with(IO.writer, IO.graphson).write()")
                    .getMessage();
                assertTrue(write.contains("io('" + target + "') is refused") && write.contains("--allow-io"), write);
                final String read = refused(client, "g.io('" + secret + "').read()").getMessage();
                assertFalse(read.contains("secret-host-name-4711"), read);

                final GraphTraversalSource g = traversal().with(DriverRemoteConnection.using(cluster, "g"));
                final Exception viaBytecode = assertThrows(Exception.class,
                    () -> g.io(target.toString()).with(IO.writer, IO.graphson).write().iterate());
                assertTrue(String.valueOf(viaBytecode.getMessage()).contains("is refused"), viaBytecode.toString());
                assertThrows(Exception.class, () -> g.io(secret.toString()).read().iterate());
                refused(client, "g.call('tinker.search', [search: 'x'])");
                assertFalse(Files.exists(target), "io() wrote " + target);
                assertEquals(1L, (long) g.V().count().next(), "io() read into the graph, or the graph is gone");
            } finally {
                cluster.close();
            }
        }
    }

    @Test
    void allowIoWritesAndReadsInsideItsDirectoryOnly() throws Exception {
        Files.createSymbolicLink(dir.resolve("out"), outside);
        final ServeOptions options = new ServeOptions();
        options.allowIo = dir.toFile();
        try (ServedGraph served = new ServedGraph(options)) {
            final Cluster cluster = Cluster.build("127.0.0.1").port(served.port).create();
            try {
                final Client client = cluster.connect();
                final GraphTraversalSource g = traversal().with(DriverRemoteConnection.using(cluster, "g"));
                g.addV("person").property("name", "marko").as("m").addV("person").property("name", "josh")
                    .addE("knows").from("m").iterate();
                client.submit("g.io('graph.json').with(IO.writer, IO.graphson).write()", GREMLIN_LANG).all().get();
                g.io(dir.resolve("graph.xml").toString()).write().iterate();
                assertTrue(Files.readString(dir.resolve("graph.json")).contains("josh"));
                assertTrue(Files.readString(dir.resolve("graph.xml")).contains("graphml"));

                g.V().drop().iterate();
                client.submit("g.io('graph.xml').read()", GREMLIN_LANG).all().get();
                assertEquals(2L, (long) g.V().count().next());
                assertEquals(1L, (long) g.E().hasLabel("knows").count().next());

                for (final String path : new String[] {"../escaped.json", "out/escaped.json",
                    outside.resolve("escaped.json").toString()}) {
                    final String message = refused(client, "g.io('" + path + "').with(IO.writer, IO.graphson)"
                        + ".write()").getMessage();
                    assertTrue(message.contains("inside the --allow-io directory"), message);
                    assertFalse(message.contains(dir.toRealPath().toString()), message);
                }
                try (java.util.stream.Stream<Path> written = Files.list(outside)) {
                    assertEquals(0, written.count(), "io() wrote outside its directory");
                }
            } finally {
                cluster.close();
            }
        }
    }
}
