package io.pragh.server.rpc;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.fabric.tcp.ClusterSecret;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * How a client classifies a handshake that does not complete: a machine that closes the connection without an answer
 * (it died, restarted, or gave up waiting) may be tried again; one that answers ERROR has refused for good.
 */
@Timeout(120)
class MachineClientHandshakeTest {
    private static final ClusterSecret SECRET = ClusterSecret.fromString("the-secret-of-this-test-cluster");

    /**
     * A one-connection port that sends a well-formed HELLO, reads the AUTH, then answers {@code afterAuth} (or
     * closes, given null).
     */
    private static void withPort(byte[] afterAuth, java.util.function.Consumer<InetSocketAddress> client)
        throws Exception {
        try (ServerSocket port = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CompletableFuture<Void> served = CompletableFuture.runAsync(() -> {
                try (Socket s = port.accept()) {
                    DataOutputStream out = new DataOutputStream(s.getOutputStream());
                    DataInputStream in = new DataInputStream(s.getInputStream());
                    byte[] hello = new byte[ClientProtocol.HELLO_LENGTH];
                    hello[0] = ClientProtocol.HELLO;
                    out.writeInt(hello.length);
                    out.write(hello);
                    out.flush();
                    in.readFully(new byte[in.readInt()]);
                    if (afterAuth != null) {
                        out.writeInt(afterAuth.length);
                        out.write(afterAuth);
                        out.flush();
                    }
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            client.accept(new InetSocketAddress(InetAddress.getLoopbackAddress(), port.getLocalPort()));
            served.get(60, TimeUnit.SECONDS);
        }
    }

    @Test
    void aMachineThatClosesDuringTheHandshakeIsRetryable() throws Exception {
        withPort(null, address -> {
            try (MachineClient c = new MachineClient(address, 5_000, SECRET, null)) {
                ClientException e = assertThrows(ClientException.class, c::ping);
                assertTrue(e.retryable(), "a close without a refusal may pass later: " + e.getMessage());
                assertTrue(e.getMessage().contains("closed the connection during the handshake"), e.getMessage());
            }
        });
    }

    @Test
    void aMachineThatAnswersErrorToTheHandshakeHasRefusedForGood() throws Exception {
        byte[] reason = "refused: the client does not hold the cluster secret".getBytes(StandardCharsets.UTF_8);
        byte[] error = new byte[1 + reason.length];
        error[0] = ClientProtocol.ERROR;
        System.arraycopy(reason, 0, error, 1, reason.length);
        withPort(error, address -> {
            try (MachineClient c = new MachineClient(address, 5_000, SECRET, null)) {
                ClientException e = assertThrows(ClientException.class, c::ping);
                assertFalse(e.retryable(), "a refusal does not heal by retrying: " + e.getMessage());
                assertTrue(e.getMessage().contains("refused this client"), e.getMessage());
            }
        });
    }
}
