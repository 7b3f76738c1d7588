package io.pragh.gremlin.server;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/**
 * A port held by a bare listening socket while {@code ./pragh serve} loads its graph, so that a port someone else
 * holds is found before a long {@code --load}, not after it. Gremlin Server takes the graph when it is built, so it
 * cannot bind first; the hold is released just before it binds (the port could in principle be taken in between,
 * which the server's own bind then reports). Port 0 is never held: any free port will do.
 *
 * <p>Example: {@code try (PortHold hold = PortHold.take("127.0.0.1", 8182)) { load(); } server.start();}
 */
final class PortHold implements AutoCloseable {
    private final ServerSocket socket;

    private PortHold(final ServerSocket socket) {
        this.socket = socket;
    }

    /**
     * Listens on {@code host:port} (nothing when {@code port} is 0).
     *
     * @throws IOException naming the address when it cannot be bound (taken, or not an address of this host)
     */
    static PortHold take(final String host, final int port) throws IOException {
        if (port == 0) {
            return new PortHold(null);
        }
        final ServerSocket s = new ServerSocket();
        try {
            // As Netty's server sockets do: a port in TIME_WAIT from an earlier run is free, one listened on is not.
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(host, port), 1);
            return new PortHold(s);
        } catch (IOException e) {
            s.close();
            throw new IOException("cannot listen on " + host + ":" + port + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() throws IOException {
        if (socket != null) {
            socket.close();
        }
    }
}
