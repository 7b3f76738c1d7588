package io.pragh.server.rpc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.util.internal.logging.InternalLoggerFactory;
import io.netty.util.internal.logging.JdkLoggerFactory;
import io.pragh.fabric.tcp.ClusterSecret;
import io.pragh.fabric.tcp.LogCapture;
import io.pragh.keys.KeyLayout;
import io.pragh.server.cli.LocalCluster;
import io.pragh.server.config.ClusterConfig;
import io.pragh.server.node.ServerNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The client port serves only clients that prove the cluster secret: a wrong secret, garbage or a request before the
 * handshake gets the connection closed with one log line, and the machine keeps serving everyone else without losing
 * anything stored.
 */
// A hang bound only: beside a CPU hog a cluster test took 93 s, 1-5 s quietly (session 16).
@Timeout(300)
class ClientPortAuthenticationTest {
    private static final byte[] VALUE = "stored before the intruders".getBytes(StandardCharsets.UTF_8);
    private static final long KEY = KeyLayout.key(77, 0, KeyLayout.VERTEX);

    @TempDir
    Path dir;

    @BeforeAll
    static void nettyLogsToJdk() {
        InternalLoggerFactory.setDefaultFactory(JdkLoggerFactory.INSTANCE);
    }

    private static long linesFrom(LogCapture log, String text) {
        return log.lines().stream().filter(l -> l.contains(text)).count();
    }

    /** What the machine stored is still there and it still serves an authenticated client. */
    private static void assertStillServes(LocalCluster local) {
        try (ClusterClient c = local.client(10_000)) {
            assertArrayEquals(VALUE, c.get(KEY), "nothing stored is lost");
            c.put(KEY + 1, VALUE);
            assertArrayEquals(VALUE, c.get(KEY + 1));
        }
    }

    @Test
    void aClientWithTheWrongSecretIsRefusedAndOthersAreStillServed() throws Exception {
        LocalCluster local = LocalCluster.create(dir, LocalCluster.Settings.small(1));
        ClusterConfig config = local.config();
        try (LogCapture log = new LogCapture(ClientServer.class.getName());
             ServerNode node = ServerNode.start(config, 0)) {
            try (ClusterClient c = local.client(10_000)) {
                c.put(KEY, VALUE);
            }
            ClusterSecret wrong = ClusterSecret.fromString("not-the-secret-of-this-cluster");
            try (MachineClient intruder = new MachineClient(local.clientAddress(0), 10_000, wrong, null)) {
                ClientException e = assertThrows(ClientException.class, () -> intruder.get(KEY));
                assertFalse(e.retryable(), "a wrong secret does not heal by retrying: " + e.getMessage());
                assertTrue(e.getMessage().contains("does not hold the cluster secret"), e.getMessage());
            }
            assertTrue(log.saw("authentication failed"), "the refusal is logged: " + log.lines());
            assertEquals(1, linesFrom(log, "closes the client connection"), "one line: " + log.lines());
            assertStillServes(local);
        }
    }

    @Test
    void garbageOrARequestBeforeTheHandshakeClosesTheConnectionWithOneLogLine() throws Exception {
        LocalCluster local = LocalCluster.create(dir, LocalCluster.Settings.small(1));
        try (LogCapture log = new LogCapture(ClientServer.class.getName());
             ServerNode node = ServerNode.start(local.config(), 0)) {
            try (ClusterClient c = local.client(10_000)) {
                c.put(KEY, VALUE);
            }
            try (RawClient http = new RawClient(local.clientAddress(0))) {
                assertEquals(ClientProtocol.HELLO, http.read()[0]);
                http.sendRaw("GET / HTTP/1.1\r\nHost: pragh\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                assertTrue(http.closedByServer(), "garbage gets the connection closed, and no answer");
            }
            assertTrue(log.saw("before authenticating"), "logged: " + log.lines());
            try (RawClient eager = new RawClient(local.clientAddress(0))) {
                assertEquals(ClientProtocol.HELLO, eager.read()[0]);
                byte[] get = new byte[9];
                get[0] = ClientProtocol.GET;
                eager.send(get);
                assertTrue(eager.closedByServer(), "a request before the handshake is not served");
            }
            assertTrue(log.saw("instead of the handshake"), "logged: " + log.lines());
            assertEquals(2, linesFrom(log, "closes the client connection"), "one line per connection: "
                + log.lines());
            try (RawClient honest = new RawClient(local.clientAddress(0))) {
                byte[] ok = honest.authenticate(local.config().secret());
                assertEquals(ClientProtocol.OK, ok[0], "the handshake under the cluster's secret is accepted");
                honest.send(ClientProtocol.PING);
                assertEquals(ClientProtocol.OK, honest.read()[0]);
            }
            assertStillServes(local);
        }
    }

    @Test
    @Timeout(600) // its TLS cluster runs keytool five times, five new JVMs (ServerOnVerbsTest's: 93 s beside a hog)
    void overTlsOnlyClientsWithTheClusterCertificateAndSecretAreServed() throws Exception {
        LocalCluster local = LocalCluster.create(dir, LocalCluster.Settings.small(1), true);
        ClusterConfig config = local.config();
        assertTrue(config.tls() != null, "the generated cluster runs TLS");
        try (LogCapture log = new LogCapture(ClientServer.class.getName());
             ServerNode node = ServerNode.start(config, 0)) {
            try (ClusterClient c = local.client(10_000)) {
                c.put(KEY, VALUE);
            }
            try (MachineClient plaintext = new MachineClient(local.clientAddress(0), 10_000, config.secret(), null)) {
                assertThrows(ClientException.class, plaintext::ping, "the secret alone does not pass a TLS port");
            }
            assertTrue(log.saw("TLS failed"), "the refusal is logged: " + log.lines());
            assertEquals(1, linesFrom(log, "closes the client connection"), "one line: " + log.lines());
            assertStillServes(local);
        }
    }
}
