package io.pragh.fabric.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.fabric.Endpoint;
import io.pragh.fabric.FabricException;
import io.pragh.fabric.MachineMemory;
import io.pragh.fabric.MessageHandler;
import io.pragh.fabric.Region;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * With mutual TLS on, a fabric port admits only peers with a certificate from the cluster's CA: a machine with a
 * certificate from another CA, a client with no certificate at all and plaintext are refused with one log line, and
 * the members of the cluster are served all along.
 */
@Timeout(60)
class TlsPeerTest {
    private static final MessageHandler IGNORE = (from, msg, off, len) -> { };
    private static final byte TLS_ALERT = 21;
    /** A JVM's first TLS handshakes load and warm the JDK's TLS code: seconds on a loaded machine. */
    private static final TcpFabricOptions OPTIONS = TcpFabricOptions.defaults()
        .withHandshakeTimeout(Duration.ofSeconds(15));

    @BeforeAll
    static void makeCertificates() {
        TestCertificates.cluster();
        TestCertificates.stranger();
    }

    private static long refusals(LogCapture log) {
        return log.lines().stream().filter(l -> l.contains("unauthenticated peer") && l.contains("TLS failed")).count();
    }

    private static void assertMembersServed(LoopbackCluster cluster, MachineMemory[] memories, Endpoint[] eps) {
        memories[1].keys().putLongVolatile(8, 4242);
        UnsafeBuffer b = new UnsafeBuffer(new byte[8]);
        eps[0].read(1, Region.KEYS, 8, b, 0, 8);
        assertEquals(4242, b.getLong(0), "members of the cluster are still served");
    }

    @Test
    void aMachineWithACertificateFromAnotherCaIsRefusedAndLogged() throws Exception {
        DevCertificates other = TestCertificates.stranger();
        ClusterTls strangerTls = ClusterTls.fromPem(other.certificate(), other.key(), other.trust());
        MachineMemory[] memories = TestMemory.allocate(2);
        MachineMemory mine = TestMemory.allocateOne(9);
        try (LogCapture log = new LogCapture();
             LoopbackCluster cluster = LoopbackCluster.start(2, LoopbackCluster.SECRET, OPTIONS,
                 TestCertificates.clusterTls());
             TcpFabric stranger = new TcpFabric(0, List.of(LoopbackCluster.loopback(0),
                 cluster.fabrics[1].localAddress()), LoopbackCluster.SECRET, OPTIONS,
                 strangerTls)) {
            Endpoint[] eps = cluster.attach(memories, new MessageHandler[] {IGNORE, IGNORE});
            Endpoint ep = stranger.attach(0, mine, IGNORE);
            UnsafeBuffer b = new UnsafeBuffer(new byte[8]);
            // Even holding the right secret, the stranger gets no further than TLS.
            FabricException e = assertThrows(FabricException.class, () -> ep.read(1, Region.KEYS, 0, b, 0, 8));
            assertTrue(e.getMessage().contains("TLS failed"), e.getMessage());
            assertFalse(e.retryable(), e.getMessage());
            assertTrue(log.saw("TLS failed"), "the refusal is logged: " + log.lines());
            assertMembersServed(cluster, memories, eps);
        } finally {
            TestMemory.free(mine);
            TestMemory.free(memories);
        }
    }

    /** An intruder that does something to machine 1's fabric port and checks what it got back. */
    private interface Intruder {
        void visit(InetSocketAddress port) throws Exception;
    }

    /** Runs the intruder against a TLS cluster: one refusal is logged and the members are served throughout. */
    private static void assertRefusedWithOneLogLine(Intruder intruder) throws Exception {
        MachineMemory[] memories = TestMemory.allocate(2);
        try (LogCapture log = new LogCapture();
             LoopbackCluster cluster = LoopbackCluster.start(2, LoopbackCluster.SECRET, OPTIONS,
                 TestCertificates.clusterTls())) {
            Endpoint[] eps = cluster.attach(memories, new MessageHandler[] {IGNORE, IGNORE});
            intruder.visit(cluster.fabrics[1].localAddress());
            assertTrue(log.saw("TLS failed"), "the refusal is logged: " + log.lines());
            assertEquals(1, refusals(log), "one line per refused connection: " + log.lines());
            assertMembersServed(cluster, memories, eps);
        } finally {
            TestMemory.free(memories);
        }
    }

    @Test
    void aClientWithoutACertificateIsRefusedBeforeTheFabricGreetsIt() throws Exception {
        assertRefusedWithOneLogLine(port -> {
            try (SSLSocket s = (SSLSocket) trustOnlyContext().getSocketFactory()
                .createSocket(port.getAddress(), port.getPort())) {
                s.setSoTimeout(10_000);
                s.setEnabledProtocols(new String[] {ClusterTls.PROTOCOL});
                // The client trusts the server, so its side of the handshake may complete; the server's refusal
                // arrives as an alert on the first read, and no HELLO (or any fabric byte) ever comes.
                assertNull(readAnything(s.getInputStream()), "nothing is served to a peer without a certificate");
            }
        });
    }

    @Test
    void plaintextOnATlsFabricPortIsClosedWithOneLogLine() throws Exception {
        assertRefusedWithOneLogLine(port -> {
            try (Socket s = new Socket(port.getAddress(), port.getPort())) {
                s.setSoTimeout(10_000);
                s.getOutputStream().write("GET / HTTP/1.1\r\nHost: pragh\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                s.getOutputStream().flush();
                byte[] answer = s.getInputStream().readAllBytes();
                // At most a TLS alert record (content type 21) goes back before the close; never a fabric frame.
                assertTrue(answer.length == 0 || answer[0] == TLS_ALERT, "answered " + answer.length + " bytes,"
                    + " starting with " + (answer.length == 0 ? "-" : answer[0]));
            }
        });
    }

    /** The first byte the server sends, or null when it closes (or fails the TLS session) without sending one. */
    private static Integer readAnything(InputStream in) {
        try {
            int b = in.read();
            return b < 0 ? null : b;
        } catch (SSLException | java.net.SocketException closed) {
            return null;
        } catch (IOException e) {
            throw new AssertionError("unexpected " + e, e);
        }
    }

    /** Trusts the cluster's CA but has no certificate of its own. */
    private static SSLContext trustOnlyContext() throws Exception {
        KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
        trust.load(null, null);
        try (InputStream in = Files.newInputStream(TestCertificates.cluster().trust())) {
            trust.setCertificateEntry("ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext ctx = SSLContext.getInstance(ClusterTls.PROTOCOL);
        ctx.init(null, tmf.getTrustManagers(), null);
        return ctx;
    }
}
