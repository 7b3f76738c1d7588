package io.pragh.gremlin.server;

import static org.apache.tinkerpop.gremlin.process.traversal.AnonymousTraversalSource.traversal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.gremlin.structure.EmbeddedGraphStore;
import io.pragh.gremlin.structure.PraghGraph;
import io.pragh.gremlin.structure.TestGraphs;
import io.pragh.server.metrics.MetricsEndpoint;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.commons.configuration2.Configuration;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.apache.tinkerpop.gremlin.driver.remote.DriverRemoteConnection;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.__;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code ./pragh serve}'s metrics, scraped during a Gremlin workload over the wire: request latencies and errors,
 * the machines' remote accesses, cache hits and migrations move; {@code g.call("pragh.stats")} answers per machine.
 */
@Timeout(600)
class ServeMetricsTest {
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    /** The sum of the samples of {@code name} whose labels include {@code labels}. */
    private static double sum(final InetSocketAddress at, final String name, final String... labels)
        throws Exception {
        final String text = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + at.getPort()
            + MetricsEndpoint.PATH)).build(), HttpResponse.BodyHandlers.ofString()).body();
        double total = 0;
        boolean any = false;
        for (final String line : text.split("\n")) {
            if (line.startsWith("#") || !(line.startsWith(name + "{") || line.startsWith(name + " "))) {
                continue;
            }
            boolean all = true;
            for (int i = 0; i < labels.length; i += 2) {
                all &= line.contains(labels[i] + "=\"" + labels[i + 1] + "\"");
            }
            if (all) {
                total += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
                any = true;
            }
        }
        assertTrue(any, "no sample of " + name + " " + List.of(labels) + " in:\n" + text);
        return total;
    }

    @Test
    void countersMoveUnderAGremlinWorkloadAndStatsAnswerPerMachine() throws Exception {
        final Configuration conf = TestGraphs.configuration();
        conf.setProperty(EmbeddedGraphStore.MIGRATION, true);
        conf.setProperty(EmbeddedGraphStore.MIGRATION_INTERVAL_MILLIS, 200);
        final PraghGraph graph = PraghGraph.open(conf);
        final ServeOptions options = new ServeOptions();
        options.host = "127.0.0.1";
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            options.port = s.getLocalPort();
        }
        // Every request counts as slow: each one is logged and counted, which the test can check.
        final ServeMetrics metrics = ServeMetrics.attach(graph, Duration.ofNanos(1));
        try (PraghServer server = PraghServer.start(graph, options); metrics) {
            final InetSocketAddress at = metrics.serve(new InetSocketAddress("127.0.0.1", 0)).address();
            final Cluster cluster = Cluster.build("127.0.0.1").port(options.port).create();
            try {
                final GraphTraversalSource g = traversal().with(DriverRemoteConnection.using(cluster, "g"));
                final RandomGraph random = new RandomGraph(7, 40, 200);
                final Map<Long, Object> ids = new HashMap<>();
                for (long v = 0; v < random.vertices; v++) {
                    ids.put(v, g.addV("node").property(T.id, v).next().id());
                }
                for (final long[] e : random.edges) {
                    g.V(ids.get(e[0])).addE(RandomGraph.label(e[2])).to(__.V(ids.get(e[1]))).iterate();
                }
                final double requestsBefore = sum(at, "pragh_gremlin_requests_seconds_count", "outcome", "success");
                assertTrue(requestsBefore >= random.vertices + random.edges.size(), "loading was timed");

                // Hot two-hops until some value migrated to the machine that reads it, and reads hit the cache.
                final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(300); // a failure bound only
                int queries = 0;
                while (sum(at, "pragh_migrations_done_total") < 1
                    || sum(at, "pragh_location_cache_lookups_total", "result", "hit") < 1) {
                    assertTrue(System.nanoTime() < deadline, "no migration and cache hit under a hot workload");
                    for (long v = 0; v < 5; v++) {
                        assertEquals(random.twoHopWalks(v), (long) g.V(ids.get(v)).out().out().count().next());
                        queries++;
                    }
                }
                assertTrue(sum(at, "pragh_accesses_total", "where", "remote") > 0, "hops read remote values");
                assertTrue(sum(at, "pragh_migrations_approved_total", "machine", "0") >= 1,
                    "the embedded coordinator's approvals show as machine 0's");
                assertTrue(sum(at, "pragh_migrated_bytes_total") > 0);
                assertTrue(sum(at, "pragh_keys_homed") >= random.vertices);
                final double requests = sum(at, "pragh_gremlin_requests_seconds_count", "outcome", "success");
                assertTrue(requests >= requestsBefore + queries, requests + " after " + queries + " queries");
                assertTrue(sum(at, "pragh_gremlin_requests_seconds_bucket", "outcome", "success", "le", "+Inf")
                    >= requests, "a latency histogram");
                assertEquals(requests, sum(at, "pragh_gremlin_slow_requests_total"),
                    "every request was past the 1 ns threshold and logged");

                final double otherErrors = sum(at, "pragh_gremlin_errors_total", "kind", "other");
                assertThrows(Exception.class, () -> g.V().fail("on purpose").toList());
                // The server counts a failed request in its graph manager's onQueryError, which nothing orders before
                // the client's answer: a fresh-clone run scraped the metrics in between (0 errors counted).
                final long countedBy = System.nanoTime() + TimeUnit.SECONDS.toNanos(60); // a failure bound only
                while (sum(at, "pragh_gremlin_errors_total", "kind", "other") < otherErrors + 1
                    || sum(at, "pragh_gremlin_requests_seconds_count", "outcome", "error") < 1) {
                    assertTrue(System.nanoTime() < countedBy, "the failed request was never counted");
                    Thread.sleep(10);
                }
                assertEquals(otherErrors + 1, sum(at, "pragh_gremlin_errors_total", "kind", "other"));

                final List<Map<String, Object>> stats = g.<Map<String, Object>>call(StatsService.NAME).toList();
                assertEquals(4, stats.size(), stats.toString());
                for (int m = 0; m < 4; m++) {
                    assertEquals(m, ((Number) stats.get(m).get("machine")).intValue());
                    assertTrue(stats.get(m).containsKey("remoteAccessRate"), stats.get(m).toString());
                }
                final long migrated = stats.stream().mapToLong(s -> ((Number) s.get("migrationsDone")).longValue())
                    .sum();
                assertTrue(migrated >= 1, "pragh.stats shows the migrations: " + stats);
                final List<Object> services = g.call().toList();
                assertTrue(services.toString().contains(StatsService.NAME), "g.call() lists it: " + services);
            } finally {
                cluster.close();
            }
        }
    }

    @Test
    void aRequestsTextIsOneLineCutAtItsLimit() {
        final org.apache.tinkerpop.gremlin.util.message.RequestMessage msg =
            org.apache.tinkerpop.gremlin.util.message.RequestMessage.build("eval")
                .addArg("gremlin", "g.V()\n  .out()" + ".out()".repeat(200)).create();
        final String text = GremlinRequests.text(msg);
        final String whole = "g.V() .out()" + ".out()".repeat(200); // whitespace runs become one space
        assertEquals(whole.substring(0, GremlinRequests.MAX_TEXT) + "... (" + whole.length() + " chars)", text);
    }

    @Test
    void failuresAreCountedByWhatTheyMeanToTheClient() {
        assertEquals(GremlinRequests.ErrorKind.UNAVAILABLE,
            GremlinRequests.ErrorKind.of(new RuntimeException(new io.pragh.fabric.FabricException("peer down", true))));
        assertEquals(GremlinRequests.ErrorKind.OTHER, GremlinRequests.ErrorKind.of(
            new io.pragh.fabric.FabricException("offset outside the region", false)), "not retryable");
        assertEquals(GremlinRequests.ErrorKind.TIMEOUT, GremlinRequests.ErrorKind.of(
            new org.apache.tinkerpop.gremlin.process.traversal.util.TraversalInterruptedException()));
        assertEquals(GremlinRequests.ErrorKind.TIMEOUT,
            GremlinRequests.ErrorKind.of(new java.util.concurrent.TimeoutException()));
        assertEquals(GremlinRequests.ErrorKind.LIMIT,
            GremlinRequests.ErrorKind.of(new io.pragh.LimitExceededException("value too large")));
        assertEquals(GremlinRequests.ErrorKind.INVALID,
            GremlinRequests.ErrorKind.of(new IllegalStateException(new IllegalArgumentException("bad id"))));
        assertEquals(GremlinRequests.ErrorKind.OTHER, GremlinRequests.ErrorKind.of(new IllegalStateException("?")));
    }

    @Test
    void theFlagsSetThePortAndTheThresholdAndBadValuesAreNamed() {
        final ServeOptions defaults = ServeOptions.parse();
        assertEquals(ServeOptions.DEFAULT_METRICS_PORT, defaults.metricsPort);
        assertEquals(false, defaults.metricsPortGiven);
        assertEquals(1_000, defaults.slowQueryMillis);
        final ServeOptions o = ServeOptions.parse("--metrics-port", "0", "--slow-query-ms", "250");
        assertEquals(0, o.metricsPort);
        assertTrue(o.metricsPortGiven);
        assertEquals(250, o.slowQueryMillis);
        final IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
            () -> ServeOptions.parse("--metrics-port", "70000"));
        assertTrue(bad.getMessage().contains("--metrics-port"), bad.getMessage());
        assertTrue(ServeOptions.USAGE.contains("--metrics-port") && ServeOptions.USAGE.contains("--slow-query-ms"));
    }
}
