package io.pragh.server.extension;

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
import io.pragh.server.config.ConfigException;
import io.pragh.server.node.ServerNode;
import io.pragh.server.rpc.ClientException;
import io.pragh.server.rpc.ClientProtocol;
import io.pragh.server.rpc.MachineClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server runs exactly the extensions its cluster file names: without one on the list, an extension on the class
 * path ({@link EchoExtension}) adds nothing and its operations are refused; named, it serves them, runs updates
 * through the server's own path and supplies its placement kind.
 */
// A hang bound only: beside a CPU hog a cluster test took 93 s, 1-5 s quietly (session 16).
@Timeout(300)
class ServerExtensionTest {
    @TempDir
    Path dir;

    @BeforeAll
    static void nettyLogsToJdk() {
        InternalLoggerFactory.setDefaultFactory(JdkLoggerFactory.INSTANCE);
    }

    private static byte[] echo(int... operands) {
        byte[] req = new byte[1 + operands.length];
        req[0] = EchoExtension.ECHO;
        for (int i = 0; i < operands.length; i++) {
            req[1 + i] = (byte) operands[i];
        }
        return req;
    }

    private static MachineClient client(ServerNode node) {
        return new MachineClient(node.clientAddress(), 10_000, node.config().secret(), null);
    }

    @Test
    void aServerWhoseFileNamesNoExtensionRefusesExtensionOperations() {
        ClusterConfig config = LocalCluster.create(dir, LocalCluster.Settings.small(1)).config();
        try (ServerNode node = ServerNode.start(config, 0); MachineClient c = client(node)) {
            for (byte op : new byte[] {EchoExtension.ECHO, ClientProtocol.LAST_EXTENSION_OP}) {
                byte[] req = echo(1, 2, 3);
                req[0] = op;
                ClientException e = assertThrows(ClientException.class, () -> c.extension("ECHO", req));
                assertFalse(e.retryable(), "no retry makes a server run an extension");
                assertTrue(e.getMessage().contains("operation " + op + " is a server extension's")
                    && e.getMessage().contains("(extensions: none)"), e.getMessage());
            }
            assertEquals(0, c.ping().machine(), "the connection stays open after the refusals");
            assertTrue(node.describe().contains(", extensions none,"), node.describe());
        }
    }

    @Test
    void aNamedExtensionServesItsOperationsAndItsPlacement() {
        ClusterConfig config = LocalCluster.create(dir, LocalCluster.Settings.small(2)
            .withSection("extensions", "[echo]").withSection("placement", "{kind: pinned, machine: 1}")).config();
        ServerNode[] nodes = new ServerNode[2];
        try {
            nodes[0] = ServerNode.start(config, 0);
            nodes[1] = ServerNode.start(config, 1);
            assertTrue(nodes[0].describe().contains(", extensions echo,"), "the ready line says: " + nodes[0].describe());
            try (MachineClient m0 = client(nodes[0]); MachineClient m1 = client(nodes[1])) {
                assertArrayEquals(new byte[] {3, 2, 1}, m0.extension("ECHO", echo(1, 2, 3)).byteArray());
                long key = KeyLayout.key(5, 0, KeyLayout.VERTEX);
                byte[] value = "five".getBytes(StandardCharsets.UTF_8);
                UnsafeBuffer put = new UnsafeBuffer(new byte[9 + value.length]);
                put.putByte(0, EchoExtension.ECHO_PUT);
                put.putLong(1, key);
                put.putBytes(9, value);
                assertEquals(0, m0.extension("ECHO_PUT", put.byteArray()).capacity());
                assertEquals(1, m1.ping().homeKeys(), "the pinned placement homes the key on machine 1");
                assertEquals(0, m0.ping().homeKeys());
                assertArrayEquals(value, m0.get(key), "set through the server's update path");
                ClientException bad = assertThrows(ClientException.class,
                    () -> m0.extension("ECHO_PUT", new byte[] {EchoExtension.ECHO_PUT, 1}));
                assertFalse(bad.retryable());
                assertTrue(bad.getMessage().contains("ECHO_PUT of 2 bytes: needs a key"), bad.getMessage());
                ClientException undeclared = assertThrows(ClientException.class,
                    () -> m0.extension("op 40", new byte[] {40}));
                assertTrue(undeclared.getMessage().contains("(extensions: echo)"), undeclared.getMessage());
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
    void aNameOrAPlacementNoExtensionSuppliesFailsTheStart() {
        ClusterConfig unknown = LocalCluster.create(dir.resolve("a"), LocalCluster.Settings.small(1)
            .withSection("extensions", "[nosuch]")).config();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> ServerNode.start(unknown, 0));
        assertTrue(e.getMessage().contains("server extension 'nosuch'") && e.getMessage().contains("found: echo"),
            e.getMessage());
        ClusterConfig noKind = LocalCluster.create(dir.resolve("b"), LocalCluster.Settings.small(1)
            .withSection("extensions", "[echo]").withSection("placement", "{kind: ranges}")).config();
        ConfigException c = assertThrows(ConfigException.class, () -> ServerNode.start(noKind, 0));
        assertEquals("placement.kind", c.key());
        assertTrue(c.reason().contains("no enabled extension (echo) supplies placement 'ranges'"), c.getMessage());
        ClusterConfig badKey = LocalCluster.create(dir.resolve("c"), LocalCluster.Settings.small(1)
            .withSection("extensions", "[echo]").withSection("placement", "{kind: pinned, machine: 4}")).config();
        assertEquals("placement.machine", assertThrows(ConfigException.class, () -> ServerNode.start(badKey, 0))
            .key(), "the extension checks its kind's keys, naming them as in the file");
    }
}
