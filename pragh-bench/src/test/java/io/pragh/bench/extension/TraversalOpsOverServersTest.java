package io.pragh.bench.extension;

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
import io.pragh.server.node.ServerNode;
import io.pragh.server.rpc.ClientException;
import io.pragh.server.rpc.ClusterClient;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bench extension's traversal operations on two server nodes in this JVM that run it: capped edge inserts keep
 * a list at its cap through the server's update path, and counting traversals count on every machine, in both
 * reading modes.
 */
@Timeout(120)
class TraversalOpsOverServersTest {
    @TempDir
    Path dir;

    @Test
    void cappedInsertsAndCountingTraversalsRoundTrip() {
        InternalLoggerFactory.setDefaultFactory(JdkLoggerFactory.INSTANCE);
        ClusterConfig config = LocalCluster.create(dir, LocalCluster.Settings.small(2)
            .withSection("extensions", "[bench]")).config();
        ServerNode[] nodes = new ServerNode[2];
        try {
            nodes[0] = ServerNode.start(config, 0);
            nodes[1] = ServerNode.start(config, 1);
            try (ClusterClient c = LocalCluster.open(dir).client(10_000)) {
                BenchClient[] bench = {new BenchClient(c.machine(0)), new BenchClient(c.machine(1))};
                bench[c.home(KeyLayout.key(1, 3, KeyLayout.OUT))].addEdgeCapped(1, 3, 2, 2);
                BenchClient twosHome = bench[c.home(KeyLayout.key(2, 3, KeyLayout.OUT))];
                for (long dst = 7; dst <= 9; dst++) {
                    twosHome.addEdgeCapped(2, 3, dst, 2);
                }
                assertEquals(16, c.get(KeyLayout.key(2, 3, KeyLayout.OUT)).length, "the cap keeps two neighbours");
                assertArrayEquals(new long[] {7, 9}, c.kHop(1, 3, 2, 10), "the newest insert replaced the last one");
                for (BenchClient b : bench) {
                    for (boolean batched : new boolean[] {false, true}) {
                        assertEquals(2, b.kHopCount(1, 3, 2, 10, batched), b.machine().address() + " " + batched);
                        assertEquals(1, b.kHopCount(1, 3, 1, 10, batched));
                        assertEquals(1, b.kHopCount(1, 3, 2, 1, batched), "the fanout bounds each hop");
                    }
                }
                // Away from the list's home: the update path forwards it there, as a PUT's does.
                bench[1 - c.home(KeyLayout.key(5, 3, KeyLayout.OUT))].addEdgeCapped(5, 3, 6, 1);
                assertArrayEquals(new long[] {6}, c.kHop(5, 3, 1, 10));
                ClientException noCap = assertThrows(ClientException.class, () -> bench[0].addEdgeCapped(1, 3, 4, 0));
                assertFalse(noCap.retryable());
                assertTrue(noCap.getMessage().contains("ADD_EDGE_CAPPED") && noCap.getMessage().contains("cap 0"),
                    noCap.getMessage());
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
