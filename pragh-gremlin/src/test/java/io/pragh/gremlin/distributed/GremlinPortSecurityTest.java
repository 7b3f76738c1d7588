package io.pragh.gremlin.distributed;

import io.pragh.gremlin.storage.GraphKeys;
import io.pragh.keys.Placement;
import io.pragh.server.cli.LocalCluster;
import io.pragh.server.cli.ProcessStarts;
import org.apache.tinkerpop.gremlin.driver.Client;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.apache.tinkerpop.gremlin.driver.RequestOptions;
import org.apache.tinkerpop.gremlin.driver.exception.ResponseException;
import org.apache.tinkerpop.gremlin.driver.remote.DriverRemoteConnection;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.util.message.ResponseStatusCode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.apache.tinkerpop.gremlin.process.traversal.AnonymousTraversalSource.traversal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The cluster file's {@code gremlin} section on two real server processes: every Gremlin port asks for logins from
 * {@code credentialsFile} (machines forwarding traversals to each other still get in, as the peer user), admits
 * {@code io()} only inside {@code allowIo}, and tells errors without Java internals.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class GremlinPortSecurityTest {
    private static final int MACHINES = 2;
    private static final String PASSWORD = "s3cret-for-the-cluster";
    private static final RequestOptions GREMLIN_LANG = RequestOptions.build().language("gremlin-lang").create();

    @TempDir
    static Path dir;
    static LocalCluster cluster;
    @RegisterExtension
    static final MachineLogsOnFailure logs = new MachineLogsOnFailure(() -> cluster);
    static int base;
    static final Cluster[] drivers = new Cluster[MACHINES];

    @BeforeAll
    static void start() throws Exception {
        Files.createDirectories(dir.resolve("io"));
        Files.writeString(dir.resolve("users.txt"), "alice:" + PASSWORD + "\n");
        base = InJvmCluster.freeConsecutivePorts(MACHINES);
        // A 15 s request timeout, as GremlinAcrossProcessesTest's: nothing here is about timeouts, and beside a CPU
        // hog an addV once took over the 10 s a machine waits for an operation under Settings.small's 5 s.
        // Logged without forcing it to disk, as GremlinAcrossProcessesTest's: an addV waits for its keys' homes to
        // sync their logs, and a sync on the shared test host took up to tens of seconds (a record of this test's
        // was once pending at its home for 11-30 s).
        cluster = LocalCluster.create(dir.resolve("cluster"), LocalCluster.Settings.small(MACHINES).withSync("none")
            .withRequestTimeout("15s").withGremlinPortBase(base)
            .withSection("gremlin", "{allowIo: \"" + dir.resolve("io") + "\", credentialsFile: \""
                + dir.resolve("users.txt") + "\"}")
            .withJvmArgs(List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1")));
        cluster.startAll(true, ProcessStarts.SERVING_BOUND_MILLIS);
        for (int m = 0; m < MACHINES; m++) {
            drivers[m] = Cluster.build("127.0.0.1").port(base + m).credentials("alice", PASSWORD).create();
        }
    }

    @AfterAll
    static void stop() {
        GremlinAcrossProcessesTest.stop(drivers, cluster);
    }

    private static ResponseException refused(final Cluster driver, final String script) {
        final Client client = driver.connect();
        try {
            final ExecutionException e = assertThrows(ExecutionException.class,
                () -> client.submit(script, GREMLIN_LANG).all().get(), script);
            assertTrue(e.getCause() instanceof ResponseException, script + ": " + e);
            return (ResponseException) e.getCause();
        } finally {
            client.close();
        }
    }

    @Test
    void everyPortAsksForALoginAndForwardingMachinesLogInAsThePeer() throws Exception {
        final Cluster wrong = Cluster.build("127.0.0.1").port(base + 1).credentials("alice", "wrong").create();
        final Cluster none = Cluster.build("127.0.0.1").port(base).create();
        final Cluster peerWithUsersPassword = Cluster.build("127.0.0.1").port(base)
            .credentials("pragh-peer", PASSWORD).create();
        try {
            final ResponseException w = refused(wrong, "g.V().count()");
            assertEquals(ResponseStatusCode.UNAUTHORIZED, w.getResponseStatusCode(), w.getMessage());
            assertEquals("Username and/or password are incorrect", w.getMessage());
            assertThrows(ExecutionException.class, () -> none.connect().submit("g.V().count()", GREMLIN_LANG).all().get());
            final ResponseException peer = refused(peerWithUsersPassword, "g.V().count()");
            assertEquals(ResponseStatusCode.UNAUTHORIZED, peer.getResponseStatusCode(), "the peer user's password is"
                + " derived from the secret, not any user's");
        } finally {
            wrong.close();
            none.close();
            peerWithUsersPassword.close();
        }
        // A vertex homed on machine 1, reached through machine 0: machine 0 forwards with the peer login.
        final GraphTraversalSource g0 = traversal().with(DriverRemoteConnection.using(drivers[0], "g"));
        long id = -1;
        for (int i = 0; i < 32 && id < 0; i++) {
            final long candidate = (Long) g0.addV("item").property("n", i).next().id();
            if (Placement.hashed(MACHINES).home(GraphKeys.vertex(candidate)) == 1) {
                id = candidate;
            }
        }
        assertTrue(id >= 0, "32 new vertices, none homed on machine 1");
        final long forwardedBefore = routing(g0).get("forwarded");
        assertEquals(1L, (long) g0.V(id).count().next());
        assertEquals(forwardedBefore + 1, routing(g0).get("forwarded"), "machine 0 forwarded V(id) to its home");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Long> routing(final GraphTraversalSource g) {
        return (Map<String, Long>) g.call(RoutingService.NAME).next();
    }

    @Test
    void ioStaysInsideAllowIoAndErrorsCarryNoJavaInternals() throws Exception {
        final Client client = drivers[1].connect();
        try {
            client.submit("g.addV('person').property('name', 'marko')", GREMLIN_LANG).all().get();
            client.submit("g.io('graph.json').with(IO.writer, IO.graphson).write()", GREMLIN_LANG).all().get();
            assertTrue(Files.readString(dir.resolve("io/graph.json")).contains("marko"));
        } finally {
            client.close();
        }
        for (final String script : new String[] {"g.io('/etc/hostname').read()",
            "g.io('../users.txt').with(IO.reader, IO.graphson).read()", "g.call('tinker.search')"}) {
            final ResponseException r = refused(drivers[0], script);
            assertEquals(ResponseStatusCode.UNAUTHORIZED, r.getResponseStatusCode(), script + ": " + r.getMessage());
            assertTrue(r.getMessage().contains("is refused"), r.getMessage());
            assertFalse(r.getMessage().contains(PASSWORD), r.getMessage());
        }
        final ResponseException syntax = refused(drivers[0], "g.V(.count()");
        assertEquals("syntax error at line 1, column 5: no viable alternative at input 'g.V(.'", syntax.getMessage());
        assertTrue(syntax.getRemoteStackTrace().isEmpty(), "a stack trace reached the client");
    }
}
