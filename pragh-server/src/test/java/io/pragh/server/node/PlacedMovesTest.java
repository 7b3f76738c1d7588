package io.pragh.server.node;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.util.internal.logging.InternalLoggerFactory;
import io.netty.util.internal.logging.JdkLoggerFactory;
import io.pragh.keys.KeyLayout;
import io.pragh.server.cli.LocalCluster;
import io.pragh.server.config.ClusterConfig;
import io.pragh.server.membership.LoopbackZooKeeper;
import io.pragh.server.rpc.ClientException;
import io.pragh.server.rpc.ClusterClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * HOSTS answers where each key's value is now, from any machine; PLACE hands moves decided outside the policy (a hot
 * view's placement) to the coordinator, which records each target in ZooKeeper like an approval, takes it as the
 * key's host, and has the target MIGRATE it; any other machine refuses it, naming the coordinator.
 */
// A hang bound only: beside a CPU hog a cluster test took 93 s, 1-5 s quietly (session 16).
@Timeout(300)
class PlacedMovesTest {
    @TempDir
    Path dir;

    @Test
    void hostsAnswerWhereValuesAreAndPlacedMovesAreRecordedThenCarriedOut() throws Exception {
        InternalLoggerFactory.setDefaultFactory(JdkLoggerFactory.INSTANCE);
        try (LoopbackZooKeeper zk = LoopbackZooKeeper.start()) {
            LocalCluster local = LocalCluster.create(dir, LocalCluster.Settings.small(2)
                .withZooKeeper(zk.connectString()).withSessionTimeout(LoopbackZooKeeper.LONG_SESSION));
            Path file = dir.resolve(LocalCluster.CONFIG);
            // Manual trigger: the policy moves nothing by itself, so every move here is a placed one.
            ClusterConfig config = ClusterConfig.parse(Files.readString(file) + "policy: {trigger: manual}\n",
                file.toString(), dir);
            ServerNode[] nodes = new ServerNode[2];
            try {
                nodes[0] = ServerNode.start(config, 0);
                nodes[1] = ServerNode.start(config, 1);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (nodes[0].membership().coordinator() < 0) {
                    assertTrue(System.nanoTime() < deadline, "no coordinator was elected");
                    Thread.sleep(20);
                }
                int coordinator = nodes[0].membership().coordinator();
                try (ClusterClient c = local.client(10_000)) {
                    long[] keys = new long[8];
                    int[] homes = new int[keys.length + 1];
                    for (int i = 0; i < keys.length; i++) {
                        keys[i] = KeyLayout.key(100 + i, 0, KeyLayout.OUT);
                        homes[i] = c.home(keys[i]);
                        c.put(keys[i], new byte[] {(byte) i});
                    }
                    long[] asked = java.util.Arrays.copyOf(keys, keys.length + 1);
                    asked[keys.length] = KeyLayout.key(999, 0, KeyLayout.OUT); // never written
                    homes[keys.length] = -1;
                    for (int m = 0; m < 2; m++) {
                        assertArrayEquals(homes, c.machine(m).hosts(asked, 0, asked.length),
                            "machine " + m + " answers for every key: at its home, and -1 without a value");
                    }

                    // Every value to the machine that is not its home.
                    int[] targets = new int[keys.length];
                    for (int i = 0; i < keys.length; i++) {
                        targets[i] = 1 - homes[i];
                    }
                    ClientException notHere = assertThrows(ClientException.class,
                        () -> c.machine(1 - coordinator).place(keys, targets, 0, keys.length));
                    assertFalse(notHere.retryable());
                    assertTrue(notHere.getMessage().contains("machine " + coordinator + " coordinates"),
                        notHere.getMessage());
                    assertArrayEquals(java.util.Arrays.copyOf(homes, keys.length), c.machine(0).hosts(keys, 0,
                        keys.length), "a refused PLACE moves nothing");

                    assertEquals(keys.length, c.machine(coordinator).place(keys, targets, 0, keys.length));
                    for (int i = 0; i < keys.length; i++) {
                        assertEquals(targets[i], nodes[0].membership().recordedTarget(keys[i]),
                            "the target of key " + i + " is in ZooKeeper once PLACE answered");
                    }
                    while (!java.util.Arrays.equals(targets, c.machine(1 - coordinator).hosts(keys, 0, keys.length))) {
                        assertTrue(System.nanoTime() < deadline, "the placed values did not reach their targets");
                        Thread.sleep(10);
                    }
                    for (int i = 0; i < keys.length; i++) {
                        assertArrayEquals(new byte[] {(byte) i}, c.machine(homes[i]).get(keys[i]),
                            "the home reads the moved value");
                    }
                    assertEquals(keys.length, c.machine(coordinator).stats().approvals(),
                        "the coordinator counts placed moves with its approvals");

                    ClientException bad = assertThrows(ClientException.class,
                        () -> c.machine(coordinator).place(keys, new int[] {2, 0, 0, 0, 0, 0, 0, 0}, 0, keys.length));
                    assertTrue(bad.getMessage().contains("on machine 2 (0..1)"), bad.getMessage());
                }
            } finally {
                for (ServerNode n : nodes) {
                    if (n != null) {
                        n.close();
                    }
                }
            }
        }
    }
}
