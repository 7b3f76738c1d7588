package io.pragh.gremlin.server;

import io.pragh.server.node.SlowClients;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Gremlin port closes connections that hold it without being used: silent ones, ones that trickle their
 * WebSocket upgrade in a header line at a time (slowloris), and upgraded ones that trickle a frame in. The idle
 * timeout is 1 s; each check waits up to a minute for the closes, so a slow machine only makes it slower.
 */
class ConnectionLimitsTest {
    private static final int CONNECTIONS = 100;

    private static InetSocketAddress address(final ServedGraph served) {
        return new InetSocketAddress("127.0.0.1", served.port);
    }

    private static ServedGraph served() throws Exception {
        final ServeOptions options = new ServeOptions();
        options.idleTimeoutSeconds = 1;
        return new ServedGraph(options);
    }

    @Test
    void silentConnectionsAreClosed() throws Exception {
        try (ServedGraph served = served()) {
            assertEquals(0, SlowClients.stillOpenAfter(SlowClients.connect(address(served), CONNECTIONS), 60, null));
        }
    }

    @Test
    void connectionsTricklingTheirUpgradeInAreClosed() throws Exception {
        try (ServedGraph served = served()) {
            final List<Socket> sockets = SlowClients.connect(address(served), CONNECTIONS);
            for (final Socket s : sockets) {
                s.getOutputStream().write("GET /gremlin HTTP/1.1\r\nHost: 127.0.0.1\r\n".getBytes(StandardCharsets.US_ASCII));
            }
            // A header line every 200 ms: never idle for the idle timeout, but never through the upgrade either.
            assertEquals(0, SlowClients.stillOpenAfter(sockets, 60,
                (i, out) -> out.write("X-Slow: 1\r\n".getBytes(StandardCharsets.US_ASCII))));
        }
    }

    @Test
    void upgradedConnectionsTricklingAFrameInAreClosed() throws Exception {
        try (ServedGraph served = served()) {
            final List<Socket> sockets = SlowClients.connect(address(served), 10);
            for (final Socket s : sockets) {
                upgrade(s);
                // A masked binary frame announcing 1000 bytes, then its payload a byte at a time.
                s.getOutputStream().write(new byte[] {(byte) 0x82, (byte) (0x80 | 126), 0x03, (byte) 0xe8, 1, 2, 3, 4});
            }
            assertEquals(0, SlowClients.stillOpenAfter(sockets, 60, (i, out) -> out.write(0)));
        }
    }

    @Test
    void framesAreNotCompressedSoTheLimitBoundsWhatIsHeld() throws Exception {
        try (ServedGraph served = served(); Socket s = new Socket("127.0.0.1", served.port)) {
            // A compressed frame within the limit could inflate to any size: the port does not agree to it.
            final String response = upgrade(s, "Sec-WebSocket-Extensions: permessage-deflate\r\n");
            assertFalse(response.toLowerCase(java.util.Locale.ROOT).contains("permessage-deflate"), response);
        }
    }

    private static void upgrade(final Socket s) throws IOException {
        upgrade(s, "");
    }

    /** The WebSocket upgrade, done by hand; fails the test unless the server switches protocols. */
    private static String upgrade(final Socket s, final String extraHeaders) throws IOException {
        s.getOutputStream().write(("GET /gremlin HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
            + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
            + extraHeaders + "\r\n").getBytes(StandardCharsets.US_ASCII));
        s.setSoTimeout(30_000);
        final StringBuilder response = new StringBuilder();
        final InputStream in = s.getInputStream();
        while (!response.toString().endsWith("\r\n\r\n")) {
            final int b = in.read();
            assertTrue(b >= 0, "closed during the upgrade: " + response);
            response.append((char) b);
        }
        assertTrue(response.toString().startsWith("HTTP/1.1 101"), response.toString());
        return response.toString();
    }
}
