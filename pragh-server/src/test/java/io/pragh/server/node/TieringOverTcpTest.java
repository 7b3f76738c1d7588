package io.pragh.server.node;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.util.internal.logging.InternalLoggerFactory;
import io.netty.util.internal.logging.JdkLoggerFactory;
import io.pragh.fabric.FabricStats;
import io.pragh.keys.KeyLayout;
import io.pragh.server.cli.LocalCluster;
import io.pragh.server.config.ClusterConfig;
import io.pragh.server.rpc.ClusterClient;
import io.pragh.tier.Tiering;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The far-memory tier between server nodes over the TCP fabric, on a durable cluster of two compute machines and one
 * memory node ({@code role: memory}) whose cluster file gives each compute machine a local budget: a round spills
 * values to the memory node and leaves each compute machine within its budget, spilled values stay readable and
 * writable through their homes, survive the memory node's restart (put back from the homes' logs) and come back when
 * read often.
 */
@Timeout(180)
class TieringOverTcpTest {
    private static final int KEYS = 120;
    private static final long BUDGET = 8 * 1024;

    @TempDir
    Path dir;

    private static byte[] value(int i, int version) {
        byte[] v = new byte[200];
        Arrays.fill(v, (byte) (i + version));
        byte[] tag = ("k" + i + "v" + version).getBytes(StandardCharsets.UTF_8);
        System.arraycopy(tag, 0, v, 0, tag.length);
        return v;
    }

    @Test
    void spilledValuesStayReadableAndWritableSurviveTheMemoryNodesRestartAndComeBackWhenHot() throws Exception {
        InternalLoggerFactory.setDefaultFactory(JdkLoggerFactory.INSTANCE);
        // Rounds are run by the test (the duty's first round is an hour away): each one is then a step it can check.
        LocalCluster local = LocalCluster.create(dir, LocalCluster.Settings.small(3)
            .withGremlinPortBase(LocalCluster.Settings.NO_GREMLIN)
            .withSection("policy", "{trigger: manual}"));
        Path file = dir.resolve(LocalCluster.CONFIG);
        // Machine 2 becomes the memory node (no client port, role memory); then the budget, which needs one.
        String yaml = Files.readString(file).replaceFirst("(- \\{id: 2, host: 127\\.0\\.0\\.1, fabricPort: \\d+),"
            + " clientPort: \\d+", "$1, role: memory") + "\ntiering: {localBudgetPerMachine: " + BUDGET
            + ", interval: 1h, hotAccesses: 4}\n";
        assertTrue(yaml.contains("role: memory"), "the cluster file's machine 2 was not rewritten:\n" + yaml);
        Files.writeString(file, yaml);
        ClusterConfig config = ClusterConfig.load(file);
        ServerNode[] nodes = new ServerNode[3];
        try {
            for (int i = 0; i < 3; i++) {
                nodes[i] = ServerNode.start(config, i);
            }
            assertNull(nodes[2].tiering().tiering(), "a memory node runs no rounds");
            try (ClusterClient c = new ClusterClient(List.of(config.machine(0).clientAddress(),
                config.machine(1).clientAddress()), 10_000, config.secret(), config.tls())) {
                long[] keys = new long[KEYS];
                for (int i = 0; i < KEYS; i++) {
                    keys[i] = KeyLayout.key(1000 + i, 0, KeyLayout.OUT);
                    c.put(keys[i], value(i, 0));
                }
                for (int m = 0; m < 2; m++) {
                    Tiering t = nodes[m].tiering().tiering();
                    assertTrue(t.localBytes(0) > BUDGET, "machine " + m + " starts over its budget: "
                        + t.localBytes(0));
                    t.runRound();
                    // Nothing was written during the round: the budget holds exactly.
                    assertTrue(t.localBytes(0) <= BUDGET, "machine " + m + " over its budget after a round: "
                        + t.localBytes(0) + " > " + BUDGET);
                    assertTrue(t.demoted() > 0 && t.bytes(0).far() > 0, "machine " + m + " spilled nothing");
                }
                assertTrue(nodes[2].machine().store().values().liveBytes() > 0, "the memory node hosts no value");
                for (int i = 0; i < KEYS; i++) {
                    assertArrayEquals(value(i, 0), c.get(keys[i]), "key " + i + " after the spill");
                }
                // Updates reach the far values (check-and-forward) and are read back; the next round keeps the budget.
                for (int i = 0; i < KEYS; i++) {
                    c.put(keys[i], value(i, 1));
                }
                for (int i = 0; i < KEYS; i++) {
                    assertArrayEquals(value(i, 1), c.get(keys[i]), "key " + i + " after its update");
                }
                for (int m = 0; m < 2; m++) {
                    Tiering t = nodes[m].tiering().tiering();
                    t.runRound();
                    assertTrue(t.localBytes(0) <= BUDGET, "machine " + m + " over its budget after the second round");
                }

                // The memory node restarts: its values are put back at their homes from their logs.
                nodes[2].close();
                nodes[2] = null;
                nodes[2] = ServerNode.start(config, 2);
                for (int i = 0; i < KEYS; i++) {
                    assertArrayEquals(value(i, 1), readBack(c, keys[i]), "key " + i + " after the memory node's"
                        + " restart");
                }

                // A few values read often are hot: once spilled again, a round brings them back.
                for (int m = 0; m < 2; m++) {
                    nodes[m].tiering().tiering().runRound();
                }
                long[] promotedBefore = {nodes[0].tiering().tiering().promoted(),
                    nodes[1].tiering().tiering().promoted()};
                // Four values that are far now (a GET at their home reads the memory node), then read often.
                int[] hot = new int[4];
                int found = 0;
                for (int i = 0; i < KEYS && found < hot.length; i++) {
                    if (!localGet(nodes[c.home(keys[i])], c, keys[i])) {
                        hot[found++] = i;
                    }
                }
                assertTrue(found == hot.length, "fewer than " + hot.length + " values were far: " + found);
                for (int r = 0; r < 20; r++) {
                    for (int i : hot) {
                        assertArrayEquals(value(i, 1), c.get(keys[i]));
                    }
                }
                long promoted = 0;
                StringBuilder after = new StringBuilder();
                for (int m = 0; m < 2; m++) {
                    Tiering t = nodes[m].tiering().tiering();
                    t.runRound();
                    promoted += t.promoted() - promotedBefore[m];
                    after.append(" machine ").append(m).append(": ").append(t.bytes(0)).append(", failed ")
                        .append(t.failed());
                }
                for (int i : hot) {
                    assertTrue(localGet(nodes[c.home(keys[i])], c, keys[i]), "hot key " + i + " is still far;" + after);
                }
                assertTrue(promoted > 0, "no hot value came back from the memory node;" + after);
            }
        } finally {
            for (ServerNode n : nodes) {
                if (n != null) {
                    n.close();
                }
            }
        }
    }

    /** Whether a GET of {@code key} at its home {@code node} made no remote access (its value is local there). */
    private static boolean localGet(ServerNode node, ClusterClient c, long key) {
        FabricStats.Snapshot before = node.machine().stats().snapshot();
        c.get(key);
        FabricStats.Snapshot after = node.machine().stats().snapshot();
        return after.minus(before).remoteOps() == 0 && after.minus(before).localOps() > 0;
    }

    /** A GET retried while the restarted memory node's values are being put back (a bound, not a wait). */
    private static byte[] readBack(ClusterClient c, long key) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            try {
                byte[] v = c.get(key);
                assertNotNull(v, "key " + key + " lost");
                return v;
            } catch (RuntimeException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(20);
            }
        }
    }
}
