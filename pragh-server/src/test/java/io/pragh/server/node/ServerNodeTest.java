package io.pragh.server.node;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.util.internal.logging.InternalLoggerFactory;
import io.netty.util.internal.logging.JdkLoggerFactory;
import io.pragh.keys.KeyLayout;
import io.pragh.migration.Migrator;
import io.pragh.server.cli.LocalCluster;
import io.pragh.server.config.ClusterConfig;
import io.pragh.server.rpc.ClientException;
import io.pragh.server.rpc.ClientProtocol;
import io.pragh.server.rpc.ClusterClient;
import io.pragh.server.rpc.MachineClient;
import io.pragh.server.rpc.MachineStats;
import io.pragh.server.rpc.RawClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two server nodes in this JVM, each on its own loopback ports with its own data directory, as two processes would
 * run them: the client RPC serves every operation and refuses malformed requests without dropping the connection;
 * a node started again on its data serves what was acknowledged before.
 */
// A hang bound only: beside a CPU hog a cluster test took 93 s, 1-5 s quietly (session 16).
@Timeout(300)
class ServerNodeTest {
    @TempDir
    Path dir;

    @BeforeAll
    static void nettyLogsToJdk() {
        InternalLoggerFactory.setDefaultFactory(JdkLoggerFactory.INSTANCE);
    }

    private static ServerNode[] start(ClusterConfig config) {
        ServerNode[] nodes = new ServerNode[config.machineCount()];
        for (int i = 0; i < nodes.length; i++) {
            nodes[i] = ServerNode.start(config, i);
        }
        return nodes;
    }

    private static void close(ServerNode[] nodes) {
        for (ServerNode n : nodes) {
            if (n != null) {
                n.close();
            }
        }
    }

    @Test
    void theClientRpcServesEveryOperation() {
        // Manual trigger: a migration's outcome below says where the test put the value, not where the policy did.
        ClusterConfig config = LocalCluster.create(dir, LocalCluster.Settings.small(2)
            .withSection("policy", "{trigger: manual}")).config();
        ServerNode[] nodes = start(config);
        try (ClusterClient c = LocalCluster.open(dir).client(10_000)) {
            MachineClient.Status s = c.machine(1).ping();
            assertEquals(1, s.machine());
            assertEquals(2, s.machineCount());
            long key = KeyLayout.key(5, 0, KeyLayout.VERTEX);
            assertNull(c.get(key));
            c.put(key, "five".getBytes(StandardCharsets.UTF_8));
            assertArrayEquals("five".getBytes(StandardCharsets.UTF_8), c.machine(0).get(key));
            assertArrayEquals("five".getBytes(StandardCharsets.UTF_8), c.machine(1).get(key));
            c.addEdge(1, 3, 2);
            c.addEdge(2, 3, 7);
            c.addEdge(2, 3, 8);
            assertArrayEquals(new long[] {7, 8}, c.kHop(1, 3, 2, 10));
            assertArrayEquals(new long[] {7, 8}, c.machine(1 - c.home(KeyLayout.key(1, 3, KeyLayout.OUT)))
                .kHop(1, 3, 2, 10), "a traversal run away from the start's home reads the same");
            int away = 1 - c.home(key);
            assertEquals(Migrator.Outcome.MIGRATED, c.machine(away).migrate(key));
            assertEquals(Migrator.Outcome.ALREADY_LOCAL, c.machine(away).migrate(key));
            c.put(key, "six".getBytes(StandardCharsets.UTF_8));
            assertArrayEquals("six".getBytes(StandardCharsets.UTF_8), c.machine(1 - away).get(key));
            c.delete(key);
            assertNull(c.get(key));
            ClientException bad = assertThrows(ClientException.class, () -> c.machine(0).kHop(1, 70_000, 2, 10));
            assertFalse(bad.retryable(), "a wrong request is not worth retrying");
            assertTrue(bad.getMessage().contains("label 70000"), bad.getMessage());
        } finally {
            close(nodes);
        }
    }

    @Test
    void statsCountWhatHappenedAndManualPhasesNeedTheManualTrigger() {
        // The automatic trigger, whose refusal of manual phases is checked below, kept quiet (no instant reports, no
        // interval ending mid-test): the counts must be this test's operations alone.
        ClusterConfig config = LocalCluster.create(dir, LocalCluster.Settings.small(2)
            .withSection("policy", "{trigger: auto, instantReportRate: 0, reportInterval: 1h}")).config();
        ServerNode[] nodes = start(config);
        try (ClusterClient c = LocalCluster.open(dir).client(10_000)) {
            long key = KeyLayout.key(5, 0, KeyLayout.VERTEX);
            c.put(key, "five".getBytes(StandardCharsets.UTF_8));
            int home = c.home(key);
            int away = 1 - home;
            MachineStats before = c.machine(away).stats();
            assertEquals(away, before.machine());
            assertEquals(away == 0, before.coordinator(), "machine 0 coordinates without membership");
            c.machine(away).get(key);
            MachineStats read = c.machine(away).stats();
            assertTrue(read.fabric().remoteReads() > before.fabric().remoteReads(), "a GET away from home is remote");
            assertEquals(Migrator.Outcome.MIGRATED, c.machine(away).migrate(key));
            MachineStats migrated = c.machine(away).stats();
            assertEquals(before.migrationsRequested() + 1, migrated.migrationsRequested());
            assertEquals(before.migrationsDone() + 1, migrated.migrationsDone(), "counted before the answer");
            assertEquals(before.valuesMigrated() + 1, migrated.valuesMigrated());
            assertTrue(migrated.migrationBytes() > before.migrationBytes(), "the migrator moved bytes");
            long forwarded = c.machine(home).stats().forwardedUpdates();
            c.put(key, "six".getBytes(StandardCharsets.UTF_8));
            assertEquals(forwarded + 1, c.machine(home).stats().forwardedUpdates(),
                "the home forwards an update to the value's new host");

            ClientException auto = assertThrows(ClientException.class, () -> c.machine(0).startMonitoring());
            assertFalse(auto.retryable());
            assertTrue(auto.getMessage().contains("policy.trigger: manual"), auto.getMessage());
            assertThrows(ClientException.class, () -> c.machine(1).endInterval());
            assertTrue(assertThrows(ClientException.class, () -> c.machine(0).decide(100)).getMessage()
                .contains("policy.trigger: auto"));
        } finally {
            close(nodes);
        }
    }

    @Test
    void malformedFramesAreRefusedAndOversizedOnesCloseTheConnection() throws Exception {
        LocalCluster local = LocalCluster.create(dir, LocalCluster.Settings.small(1));
        ServerNode[] nodes = start(local.config());
        try (RawClient s = new RawClient(local.clientAddress(0))) {
            assertEquals(ClientProtocol.OK, s.authenticate(local.config().secret())[0]);
            s.send(ClientProtocol.GET, (byte) 1, (byte) 2);
            byte[] answer = s.read();
            assertEquals(ClientProtocol.ERROR, answer[0]);
            assertTrue(new String(answer, 1, answer.length - 1, StandardCharsets.UTF_8).contains("expected 9"));
            s.send(ClientProtocol.PING);
            answer = s.read();
            assertEquals(ClientProtocol.OK, answer[0], "the connection survived the malformed request");
            s.sendRaw(new byte[] {0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff});
            assertTrue(s.closedByServer(), "a frame over the limit closes the connection");
        } finally {
            close(nodes);
        }
    }

    @Test
    void aRestartedHomeTakesBackItsValuesAndTheirFormerHostReclaimsItsCopies() {
        // Manual trigger: the one copy reclaimed must be the one the test migrated.
        LocalCluster local = LocalCluster.create(dir, LocalCluster.Settings.small(2)
            .withSection("policy", "{trigger: manual}"));
        ServerNode[] nodes = start(local.config());
        try (ClusterClient c = local.client(10_000)) {
            long key = KeyLayout.key(9, 0, KeyLayout.OUT);
            int home = c.home(key);
            int host = 1 - home;
            c.put(key, "nine".getBytes(StandardCharsets.UTF_8));
            assertEquals(Migrator.Outcome.MIGRATED, c.machine(host).migrate(key));
            assertArrayEquals("nine".getBytes(StandardCharsets.UTF_8), c.machine(host).get(key));
            nodes[home].close();
            nodes[home] = ServerNode.start(local.config(), home); // reloads the key at home, tells the host
            assertEquals(1, nodes[host].recovery().reclaimedTotal(), "the host's copy is an orphan, reclaimed");
            for (int m = 0; m < 2; m++) {
                int mm = m;
                byte[] v = retryRead(() -> c.machine(mm).get(key));
                assertArrayEquals("nine".getBytes(StandardCharsets.UTF_8), v, "machine " + m + " reads the value");
            }
        } finally {
            close(nodes);
        }
    }

    /** A GET retried while it fails retryably (the client reconnecting to the restarted home), for up to 60 s. */
    private static byte[] retryRead(java.util.function.Supplier<byte[]> read) {
        // A deadline, not a count of attempts: 100 quick refusals pass in about 5 s, whatever a starved host's
        // reconnect takes.
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
        while (true) {
            try {
                return read.get();
            } catch (ClientException e) {
                if (!e.retryable() || System.nanoTime() - deadline > 0) {
                    throw e;
                }
                try {
                    Thread.sleep(50);
                } catch (InterruptedException ie) {
                    throw new IllegalStateException(ie);
                }
            }
        }
    }

    @Test
    void aNodeStartedAgainOnItsDataServesWhatWasAcknowledged() {
        LocalCluster local = LocalCluster.create(dir, LocalCluster.Settings.small(2));
        ServerNode[] nodes = start(local.config());
        try (ClusterClient c = local.client(10_000)) {
            for (long v = 1; v <= 50; v++) {
                c.put(KeyLayout.key(v, 0, KeyLayout.VERTEX), ("v" + v).getBytes(StandardCharsets.UTF_8));
            }
        } finally {
            close(nodes);
        }
        nodes = start(local.config());
        try (ClusterClient c = local.client(10_000)) {
            long keys = c.machine(0).ping().homeKeys() + c.machine(1).ping().homeKeys();
            assertEquals(50, keys, "every key is back at its home");
            for (long v = 1; v <= 50; v++) {
                assertArrayEquals(("v" + v).getBytes(StandardCharsets.UTF_8),
                    c.machine((int) (v % 2)).get(KeyLayout.key(v, 0, KeyLayout.VERTEX)));
            }
        } finally {
            close(nodes);
        }
    }
}
