package io.pragh.server.node;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.util.internal.logging.InternalLoggerFactory;
import io.netty.util.internal.logging.JdkLoggerFactory;
import io.pragh.keys.KeyLayout;
import io.pragh.server.cli.LocalCluster;
import io.pragh.server.config.ClusterConfig;
import io.pragh.server.metrics.Scrape;
import io.pragh.server.rpc.ClusterClient;
import io.pragh.server.rpc.Decided;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every server machine serves {@code GET /metrics} when the cluster file sets {@code metrics.port}, and its counters
 * follow a workload: remote reads and cache misses while a value lives elsewhere, an approval on the coordinator,
 * a migration done on the reader, then cache hits and local reads of the migrated value.
 */
// A hang bound only: beside a CPU hog a cluster test took 93 s, 1-5 s quietly (session 16).
@Timeout(300)
class ServerNodeMetricsTest {
    @TempDir
    Path dir;

    private ClusterConfig twoMachines(String extra) throws Exception {
        InternalLoggerFactory.setDefaultFactory(JdkLoggerFactory.INSTANCE);
        LocalCluster.create(dir, LocalCluster.Settings.small(2));
        Path file = dir.resolve(LocalCluster.CONFIG);
        return ClusterConfig.parse(Files.readString(file) + extra, file.toString(), dir);
    }

    private static double sample(InetSocketAddress at, String name, int machine, String... labels) throws Exception {
        Map<String, String> want = new java.util.HashMap<>(Map.of("machine", Integer.toString(machine)));
        for (int i = 0; i < labels.length; i += 2) {
            want.put(labels[i], labels[i + 1]);
        }
        return Scrape.of(at).value(name, want);
    }

    @Test
    void countersMoveWithRemoteReadsAMigrationAndCacheHitsAfterIt() throws Exception {
        ClusterConfig config = twoMachines(
            "policy: {trigger: manual, minimumRate: 5, reportInterval: 100ms, instantReportRate: 10}\n");
        assertTrue(config.metrics().port() > 0, "cluster start opens metrics ports");
        ServerNode[] nodes = new ServerNode[2];
        try {
            nodes[0] = ServerNode.start(config, 0);
            nodes[1] = ServerNode.start(config, 1);
            for (int m = 0; m < 2; m++) {
                assertEquals(new InetSocketAddress("127.0.0.1", config.metrics().port() + m),
                    nodes[m].metricsAddress());
                assertTrue(nodes[m].describe().contains("metrics http://127.0.0.1:" + (config.metrics().port() + m)
                    + "/metrics"), nodes[m].describe());
            }
            try (ClusterClient c = new ClusterClient(java.util.List.of(nodes[0].clientAddress(),
                nodes[1].clientAddress()), 10_000, config.secret(), config.tls())) {
                long key = KeyLayout.key(91, 0, KeyLayout.OUT);
                int home = c.home(key);
                int reader = 1 - home;
                InetSocketAddress readerMetrics = nodes[reader].metricsAddress();
                c.put(key, "hot".getBytes());
                double remoteBefore = sample(readerMetrics, "pragh_accesses_total", reader, "where", "remote");
                double missesBefore = sample(readerMetrics, "pragh_location_cache_lookups_total", reader,
                    "result", "miss");

                for (int m = 0; m < 2; m++) {
                    c.machine(m).startMonitoring();
                }
                for (int i = 0; i < 300; i++) {
                    assertArrayEquals("hot".getBytes(), c.machine(reader).get(key));
                }
                assertTrue(sample(readerMetrics, "pragh_accesses_total", reader, "where", "remote") >= remoteBefore
                    + 300, "every read of the remote value crossed the fabric");
                assertTrue(sample(readerMetrics, "pragh_location_cache_lookups_total", reader, "result", "miss")
                    > missesBefore, "the first lookup missed the location cache");
                double rate = sample(readerMetrics, "pragh_remote_access_rate", reader);
                assertTrue(rate > 0.3, "most of the reader's accesses were remote: " + rate);

                for (int m = 0; m < 2; m++) {
                    c.machine(m).endInterval();
                }
                Decided d = c.machine(0).decide(10_000); // no membership: machine 0 coordinates
                assertTrue(d.approvals() >= 1, "the coordinator approved the hot key: " + d);
                assertTrue(sample(nodes[0].metricsAddress(), "pragh_migrations_approved_total", 0) >= 1);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (sample(readerMetrics, "pragh_migrations_done_total", reader) < 1) {
                    assertTrue(System.nanoTime() < deadline, "the migration never showed as done");
                    Thread.sleep(20);
                }
                assertTrue(sample(readerMetrics, "pragh_migrated_bytes_total", reader) >= 3);
                assertEquals(0.0, sample(readerMetrics, "pragh_migrations_failed_total", reader));
                assertTrue(sample(readerMetrics, "pragh_values_hosted_bytes", reader) > 0);
                // The migrated value is used off-heap memory here, inside what the machine's regions reserve.
                double used = sample(readerMetrics, "pragh_offheap_used_bytes", reader);
                assertTrue(used >= sample(readerMetrics, "pragh_values_hosted_bytes", reader) && used
                    < sample(readerMetrics, "pragh_offheap_reserved_bytes", reader), "off-heap used " + used);

                for (int i = 0; i < 3; i++) {
                    c.machine(reader).get(key); // the reader's cache may still name the value's former place
                }
                double hits = sample(readerMetrics, "pragh_location_cache_lookups_total", reader, "result", "hit");
                double remote = sample(readerMetrics, "pragh_accesses_total", reader, "where", "remote");
                double local = sample(readerMetrics, "pragh_accesses_total", reader, "where", "local");
                for (int i = 0; i < 50; i++) {
                    assertArrayEquals("hot".getBytes(), c.machine(reader).get(key));
                }
                assertEquals(hits + 50, sample(readerMetrics, "pragh_location_cache_lookups_total", reader, "result",
                    "hit"), "every read of the migrated value found its address in the cache");
                assertEquals(remote, sample(readerMetrics, "pragh_accesses_total", reader, "where", "remote"),
                    "and read it locally");
                assertTrue(sample(readerMetrics, "pragh_accesses_total", reader, "where", "local") >= local + 100);
                assertTrue(sample(readerMetrics, "pragh_keys_homed", reader) >= 0);
                assertTrue(sample(nodes[home].metricsAddress(), "pragh_keys_homed", home) >= 1);
            }
        } finally {
            for (ServerNode n : nodes) {
                if (n != null) {
                    n.close();
                }
            }
        }
    }

    @Test
    void metricsPortZeroOpensNothing() throws Exception {
        ClusterConfig config = twoMachines("");
        String off = Files.readString(dir.resolve(LocalCluster.CONFIG))
            .replaceAll("metrics: \\{port: \\d+}", "metrics: {port: 0}");
        config = ClusterConfig.parse(off, "cluster.yaml", dir);
        assertEquals(0, config.metrics().port(1));
        try (ServerNode node = ServerNode.start(config, 0)) {
            assertNull(node.metricsAddress());
            assertTrue(node.describe().contains("metrics off"), node.describe());
        }
    }
}
