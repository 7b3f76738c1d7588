package io.pragh.gremlin.distributed;

import io.pragh.server.cli.ClusterCommand;
import io.pragh.server.cli.LocalCluster;
import io.pragh.server.cli.ProcessStarts;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.apache.tinkerpop.gremlin.driver.remote.DriverRemoteConnection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.apache.tinkerpop.gremlin.process.traversal.AnonymousTraversalSource.traversal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ./pragh cluster load} on three real server processes reports the edge-insert rate through their Gremlin
 * ports beside the PUT rate, one line per edges-per-request setting, and the edges the cluster holds afterwards are
 * the ones it acknowledged.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class ClusterLoadThroughGremlinTest {
    private static final int MACHINES = 3;
    private static final Pattern EDGE_LINE = Pattern.compile("pragh: Gremlin edge inserts, (\\d+) edges? a request,"
        + " 4 requests in flight: (\\d+) acknowledged edges in [0-9.]+ s: \\d+ edges/s, \\d+ requests/s \\((\\d+)"
        + " failed requests; edges counted afterwards (\\d+): match\\)");

    @TempDir
    static Path dir;
    static LocalCluster cluster;
    @RegisterExtension
    static final MachineLogsOnFailure logs = new MachineLogsOnFailure(() -> cluster);

    @BeforeAll
    static void start() {
        // Generous request timeouts: beside a CPU hog the three servers, the load and two busy loops share two cores.
        cluster = LocalCluster.create(dir.resolve("cluster"), LocalCluster.Settings.small(MACHINES)
            .withRequestTimeout("30s").withGremlinPortBase(InJvmCluster.freeConsecutivePorts(MACHINES))
            .withJvmArgs(List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1")));
        cluster.startAll(true, ProcessStarts.SERVING_BOUND_MILLIS);
    }

    @AfterAll
    static void stop() {
        GremlinAcrossProcessesTest.stop(new Cluster[0], cluster);
    }

    @Test
    void theLoadReportsGremlinEdgeInsertsBesideThePutRateAndTheAcknowledgedEdgesAreThere() throws Exception {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int status = ClusterCommand.run(new String[] {"load", "--dir", cluster.directory().toString(),
            "--seconds", "1", "--warmup-seconds", "1", "--threads", "1", "--pipeline", "8", "--keys", "100",
            "--vertices", "40",
            "--edges-per-request", "1,8", "--gremlin-in-flight", "4"}, new PrintStream(out, true),
            new PrintStream(err, true));
        final String report = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, report + err.toString(StandardCharsets.UTF_8));
        final List<String> lines = report.lines().toList();
        assertEquals(4, lines.size(), report);
        assertTrue(lines.get(0).matches("pragh: warm-up of 1 s \\(not counted\\): \\d+ acknowledged PUTs"), lines.get(0));
        assertTrue(lines.get(1).matches("pragh: \\d+ acknowledged PUTs of 64 bytes in .* PUT/s with 1 client threads,"
            + " 8 PUTs in flight each .*"), lines.get(1));
        long counted = 0;
        for (int i = 0; i < 2; i++) {
            final Matcher m = EDGE_LINE.matcher(lines.get(2 + i));
            assertTrue(m.matches(), lines.get(2 + i));
            assertEquals(i == 0 ? 1 : 8, Integer.parseInt(m.group(1)), lines.get(2 + i));
            final long acked = Long.parseLong(m.group(2));
            assertTrue(acked > 0, "the cluster acknowledged some edges: " + lines.get(2 + i));
            final long failed = Long.parseLong(m.group(3));
            final long there = Long.parseLong(m.group(4));
            if (failed == 0) {
                assertEquals(acked, there, lines.get(2 + i));
            }
            counted += there;
        }
        // The cluster, asked afresh through another connection, holds exactly the edges the report counted.
        final Cluster driver = Cluster.build("127.0.0.1").port(cluster.config().machine(2).gremlinPort()).create();
        try {
            final var g = traversal().with(DriverRemoteConnection.using(driver, "g"));
            assertEquals(counted, (long) g.E().hasLabel(GremlinEdgeLoad.EDGE_LABEL).count().next());
            // At least: a batch of vertices the cluster timed out and the load retried may have added some.
            assertTrue(g.V().hasLabel(GremlinEdgeLoad.VERTEX_LABEL).count().next() >= 40L);
            assertEquals(counted, (long) g.V().hasLabel(GremlinEdgeLoad.VERTEX_LABEL).outE().count().next());
        } finally {
            driver.close();
        }
    }

    @Test
    void gremlinOffMeasuresPutsOnly() {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertEquals(0, ClusterCommand.run(new String[] {"load", "--dir", cluster.directory().toString(), "--seconds",
            "1", "--warmup-seconds", "0", "--threads", "1", "--keys", "100", "--gremlin", "off"},
            new PrintStream(out, true), System.err));
        final List<String> lines = out.toString(StandardCharsets.UTF_8).lines().toList();
        assertEquals(1, lines.size(), "no warm-up line with --warmup-seconds 0: " + lines);
        assertTrue(lines.get(0).contains("PUT/s"), lines.get(0));
    }
}
