package io.pragh.server.rpc;

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
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * SCAN_KEYS pages through a machine's home keys of one kind: every such key exactly once over all pages, only home
 * keys of that kind, and a bad page request refused with its reason. (Two nodes in this JVM on loopback ports.)
 */
// A hang bound only: beside a CPU hog a cluster test took 93 s, 1-5 s quietly (session 16).
@Timeout(300)
class HomeKeyScanTest {
    @TempDir
    Path dir;

    @Test
    void pagesCoverEveryHomeKeyOfTheKindExactlyOnce() {
        InternalLoggerFactory.setDefaultFactory(JdkLoggerFactory.INSTANCE);
        ClusterConfig config = LocalCluster.create(dir, LocalCluster.Settings.small(2)).config();
        ServerNode[] nodes = {ServerNode.start(config, 0), ServerNode.start(config, 1)};
        try (ClusterClient c = LocalCluster.open(dir).client(10_000)) {
            Set<Long> vertices = new HashSet<>();
            for (long v = 1; v <= 60; v++) {
                long key = KeyLayout.key(v, 0, KeyLayout.VERTEX);
                c.put(key, new byte[] {(byte) v});
                vertices.add(key);
                c.addEdge(v, 1, v + 1); // an OUT key per vertex: another kind, never in a VERTEX scan
            }
            Set<Long> seen = new HashSet<>();
            for (int m = 0; m < 2; m++) {
                long cursor = ClientProtocol.SCAN_START;
                int pages = 0;
                do {
                    HomeKeyScan.Page page = c.machine(m).scanKeys(KeyLayout.VERTEX, cursor, 7);
                    assertTrue(page.keys().length <= 7, "a page holds at most what was asked");
                    for (long key : page.keys()) {
                        assertEquals(m, c.home(key), "machine " + m + " lists only its home keys");
                        assertTrue(seen.add(key), "key " + key + " listed twice");
                    }
                    cursor = page.next();
                    pages++;
                } while (cursor != ClientProtocol.SCAN_END);
                assertTrue(pages > 1, "60 keys over two machines need several 7-key pages");
            }
            assertEquals(vertices, seen);
            ClientException bad = assertThrows(ClientException.class, () -> c.machine(0).scanKeys(0, 0, 7));
            assertFalse(bad.retryable());
            assertTrue(bad.getMessage().contains("SCAN_KEYS of kind 0"), bad.getMessage());
            bad = assertThrows(ClientException.class, () -> c.machine(0).scanKeys(KeyLayout.VERTEX, 0,
                ClientProtocol.MAX_SCAN_KEYS + 1));
            assertTrue(bad.getMessage().contains("keys per page"), bad.getMessage());
            assertTrue(nodes[0].describe().contains("Gremlin is off"), "without pragh-gremlin on the class path the"
                + " ready line says Gremlin is off: " + nodes[0].describe());
        } finally {
            nodes[1].close();
            nodes[0].close();
        }
    }
}
