package io.pragh.gremlin.distributed;

import io.pragh.gremlin.storage.GraphKeys;
import io.pragh.gremlin.structure.PraghGraph;
import io.pragh.keys.Placement;
import io.pragh.server.cli.LocalCluster;
import io.pragh.server.cli.ProcessStarts;
import org.apache.tinkerpop.gremlin.driver.Client;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.apache.tinkerpop.gremlin.driver.RequestOptions;
import org.apache.tinkerpop.gremlin.driver.remote.DriverRemoteConnection;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.__;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.util.ser.Serializers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.apache.tinkerpop.gremlin.process.traversal.AnonymousTraversalSource.traversal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Three real server processes on loopback ({@code java -cp <test class path> ServerCommand}, tied to this JVM), each
 * with its Gremlin front end on its own port: a graph written through one machine's port is read back through
 * another's, two-hop counts equal an embedded graph's, and a {@code V(id)} traversal sent to a machine that is not
 * the id's home runs on the home (the machines' routing counters say where it ran).
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class GremlinAcrossProcessesTest {
    private static final int MACHINES = 3;
    private static final int VERTICES = 24;
    private static final int EDGES = 64;

    @TempDir
    static Path dir;
    static LocalCluster cluster;
    @RegisterExtension
    static final MachineLogsOnFailure logs = new MachineLogsOnFailure(() -> cluster);
    static final Cluster[] drivers = new Cluster[MACHINES];
    static final GraphTraversalSource[] g = new GraphTraversalSource[MACHINES];

    @BeforeAll
    static void start() {
        final int base = InJvmCluster.freeConsecutivePorts(MACHINES);
        // A 15 s request timeout (a machine waits 30 s for an operation): nothing here is about timeouts, and beside
        // a CPU hog one addV waited 5.2 s and another more than the 10 s that Settings.small allows, the three servers,
        // the drivers and two busy loops sharing two cores.
        // Logged without forcing it to disk: nothing here is about durability, and the first addV waits for the id
        // block counter's home to write and sync its log. On the shared test host one such sync took 17.6 s (the log
        // thread seen waiting for the page's writeback), and in a suite run more than 46 s: the addV timed out at
        // 30 s, and every later update of the counter was refused behind the record still pending.
        cluster = LocalCluster.create(dir.resolve("cluster"), LocalCluster.Settings.small(MACHINES).withSync("none")
            .withRequestTimeout("15s").withGremlinPortBase(base).withJvmArgs(List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1")));
        cluster.startAll(true, ProcessStarts.SERVING_BOUND_MILLIS);
        for (int m = 0; m < MACHINES; m++) {
            drivers[m] = Cluster.build("127.0.0.1").port(base + m).serializer(Serializers.GRAPHBINARY_V1).create();
            g[m] = traversal().with(DriverRemoteConnection.using(drivers[m], "g"));
        }
    }

    @AfterAll
    static void stop() {
        stop(drivers, cluster);
    }

    /** Closes the drivers that were made, then stops the cluster, if it started. */
    static void stop(final Cluster[] drivers, final LocalCluster cluster) {
        for (final Cluster c : drivers) {
            if (c != null) {
                c.close();
            }
        }
        if (cluster != null) {
            cluster.stopAll();
        }
    }

    @Test
    void aGraphWrittenThroughOneMachineIsReadThroughAnotherAndTwoHopCountsMatchTheEmbeddedGraph() {
        final Random random = new Random(7);
        final List<Long> ids = new ArrayList<>();
        try (PraghGraph embedded = PraghGraph.open()) {
            for (int i = 0; i < VERTICES; i++) {
                // Written through machines 0 and 1 in turn: each process interns names and assigns ids of its own.
                final Vertex v = g[i % 2].addV("person").property("name", "p" + i).property("age", i).next();
                final long id = (Long) v.id();
                ids.add(id);
                embedded.addVertex(T.id, id, T.label, "person", "name", "p" + i, "age", i);
            }
            assertEquals(VERTICES, new HashSet<>(ids).size(), "no two processes assigned the same id: " + ids);
            for (int e = 0; e < EDGES; e++) {
                final long from = ids.get(random.nextInt(VERTICES));
                final long to = ids.get(random.nextInt(VERTICES));
                final String label = random.nextBoolean() ? "knows" : "likes";
                g[e % 2].V(from).addE(label).to(__.V(to)).property("w", e).iterate();
                embedded.vertices(from).next().addEdge(label, embedded.vertices(to).next(), "w", e);
            }
            // Read back through machine 2, which wrote nothing: names from the shared dictionary, every key scanned.
            // (The other test adds "item" vertices and a "next" edge to the same cluster.)
            assertEquals(VERTICES, (long) g[2].V().hasLabel("person").count().next());
            assertEquals(EDGES, (long) g[2].E().hasLabel("knows", "likes").count().next());
            assertTrue(new HashSet<>(g[2].E().label().dedup().toList()).containsAll(Set.of("knows", "likes")));
            for (int i = 0; i < VERTICES; i += 7) {
                final Map<Object, Object> props = g[2].V(ids.get(i)).valueMap("name", "age").next();
                assertEquals(List.of("p" + i), props.get("name"), "vertex " + ids.get(i));
                assertEquals(List.of(i), props.get("age"), "vertex " + ids.get(i));
                assertEquals("person", g[2].V(ids.get(i)).label().next());
            }
            final GraphTraversalSource local = embedded.traversal();
            for (int i = 0; i < VERTICES; i++) {
                final long id = ids.get(i);
                final long expected = local.V(id).out().out().count().next();
                assertEquals(expected, (long) g[i % MACHINES].V(id).out().out().count().next(), "two-hop from " + id);
                assertEquals((long) local.V(id).out("knows").in("likes").count().next(),
                    (long) g[(i + 1) % MACHINES].V(id).out("knows").in("likes").count().next(), "knows/likes from " + id);
            }
        }
    }

    /**
     * Every machine answers {@code g.call("pragh.stats")} with its own counters and serves {@code GET /metrics}
     * (the ports {@code cluster start} chose), where its Gremlin requests and store accesses show.
     */
    @Test
    void everyMachineAnswersItsStatsAndServesItsMetrics() throws Exception {
        final long id = (Long) g[0].addV("item").next().id();
        final java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
        for (int m = 0; m < MACHINES; m++) {
            assertEquals(1L, (long) g[m].V(id).count().next());
            final List<Map<String, Object>> stats = g[m].<Map<String, Object>>call("pragh.stats").toList();
            assertEquals(1, stats.size(), stats.toString());
            assertEquals(m, ((Number) stats.get(0).get("machine")).intValue(), stats.toString());
            final int port = cluster.config().metrics().port(m);
            assertTrue(port > 0, "cluster start opens a metrics port per machine");
            final String text = http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:"
                + port + "/metrics")).build(), java.net.http.HttpResponse.BodyHandlers.ofString()).body();
            final String machine = "machine=\"" + m + "\"";
            assertTrue(text.lines().anyMatch(l -> l.startsWith("pragh_gremlin_requests_seconds_count{")
                && l.contains(machine) && l.contains("outcome=\"success\"") && !l.endsWith(" 0.0")), text);
            assertTrue(text.lines().anyMatch(l -> l.startsWith("pragh_accesses_total{") && l.contains(machine)
                && l.contains("where=\"local\"") && !l.endsWith(" 0.0")), text);
        }
    }

    @Test
    void aTraversalFromVIdSentToAMachineThatIsNotTheHomeRunsOnTheHome() {
        final long id = (Long) g[0].addV("item").next().id();
        final long other = (Long) g[1].addV("item").next().id();
        g[0].V(id).addE("next").to(__.V(other)).iterate();
        final int home = Placement.hashed(MACHINES).home(GraphKeys.vertex(id));
        final int receiver = (home + 1) % MACHINES;
        final List<Map<String, Long>> before = counters();
        assertEquals(1L, (long) g[receiver].V(id).out().count().next());
        final List<Map<String, Long>> after = counters();
        for (int m = 0; m < MACHINES; m++) {
            assertEquals((long) m, after.get(m).get("machine"));
            final long forwarded = after.get(m).get("forwarded") - before.get(m).get("forwarded");
            final long ranAtHome = after.get(m).get("ranAtHome") - before.get(m).get("ranAtHome");
            assertEquals(m == receiver ? 1 : 0, forwarded, "traversals machine " + m + " forwarded");
            assertEquals(m == home ? 1 : 0, ranAtHome, "traversals machine " + m + " ran as the home");
            assertEquals(0L, after.get(m).get("forwardsInFlight"), "machine " + m + " returned its forwarding permits");
            assertEquals(0L, after.get(m).get("ranHereAtCapacity") - before.get(m).get("ranHereAtCapacity"),
                "one request at a time never reaches machine " + m + "'s forwarding bound");
        }
        // Sent to the home itself, it runs there without a hop.
        g[home].V(id).out().count().next();
        final List<Map<String, Long>> direct = counters();
        assertEquals(after.get(home).get("ranAtHome") + 1, direct.get(home).get("ranAtHome"));
        assertEquals(after.get(home).get("forwarded"), direct.get(home).get("forwarded"));
        assertNotEquals(home, receiver);
        // A gremlin-lang script is routed as bytecode is: the strategy sees the traversal the script builds.
        final Client client = drivers[receiver].connect();
        try {
            assertEquals(List.of(1L), client.submit("g.V(" + id + "L).out().count()",
                RequestOptions.build().language("gremlin-lang").create()).all().join().stream()
                .map(r -> r.getLong()).toList());
        } finally {
            client.close();
        }
        final List<Map<String, Long>> scripted = counters();
        assertEquals(direct.get(receiver).get("forwarded") + 1, scripted.get(receiver).get("forwarded"));
        assertEquals(direct.get(home).get("ranAtHome") + 1, scripted.get(home).get("ranAtHome"));
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Long>> counters() {
        final List<Map<String, Long>> out = new ArrayList<>();
        for (int m = 0; m < MACHINES; m++) {
            out.add((Map<String, Long>) g[m].call(RoutingService.NAME).next());
        }
        return out;
    }

}
