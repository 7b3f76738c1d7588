package io.pragh.fabric.tcp;

import io.netty.channel.ChannelFuture;
import io.pragh.fabric.FabricException;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * This machine's way to one peer: the current connection, opened on first use and reopened after a loss, with a
 * bound on every step. After a failed attempt the peer is not tried again for the back-off period, and operations on
 * it fail at once with the last reason, so a dead peer costs its callers microseconds, not a connect timeout each.
 * A peer the membership service presumes dead ({@link #presumeDead}) fails every operation at once, even over a
 * connection that looks open (a paused or partitioned process keeps its sockets), until the peer is heard from again:
 * it connects to this machine, or the membership sees a new incarnation of it.
 */
final class PeerLink {
    private final TcpFabric fabric;
    private final int machine;
    private volatile InetSocketAddress address;
    private volatile ClientHandler handler;
    private FabricException lastFailure;
    private long retryAtNanos;
    /** Why the peer is presumed dead, or null; volatile: set by the membership's thread, read by every caller. */
    private volatile String presumedDead;

    PeerLink(TcpFabric fabric, int machine, InetSocketAddress address) {
        this.fabric = fabric;
        this.machine = machine;
        this.address = address;
    }

    InetSocketAddress address() {
        return address;
    }

    /** A connection that completed the handshake, opening one if needed; throws a FabricException otherwise. */
    ClientHandler handler() {
        String dead = presumedDead;
        if (dead != null) {
            throw new FabricException("machine " + machine + " at " + address + " " + dead, true);
        }
        ClientHandler h = handler;
        if (h != null && h.isUsable()) {
            return h;
        }
        synchronized (this) {
            h = handler;
            if (h != null && h.isUsable()) {
                return h;
            }
            if (fabric.isClosed()) {
                throw fabric.closedError();
            }
            long now = System.nanoTime();
            if (lastFailure != null && now - retryAtNanos < 0) {
                throw new FabricException(lastFailure.getMessage() + " (next attempt in "
                    + TimeUnit.NANOSECONDS.toMillis(retryAtNanos - now) + " ms)", lastFailure.retryable(), lastFailure);
            }
            try {
                h = connect();
                handler = h;
                lastFailure = null;
                return h;
            } catch (FabricException e) {
                lastFailure = e;
                retryAtNanos = System.nanoTime() + fabric.options().reconnectBackoff().toNanos();
                throw e;
            }
        }
    }

    private ClientHandler connect() {
        InetSocketAddress to = address;
        ClientHandler h = new ClientHandler(fabric, machine, to);
        ChannelFuture f = fabric.connect(to, h);
        long connectMs = fabric.options().connectTimeout().toMillis();
        // Netty enforces the connect timeout itself (CONNECT_TIMEOUT_MILLIS); the margin only covers scheduling.
        if (!f.awaitUninterruptibly(connectMs + 500)) {
            f.channel().close();
            throw new FabricException("connecting to machine " + machine + " at " + to + " timed out after "
                + connectMs + " ms", true);
        }
        if (!f.isSuccess()) {
            throw new FabricException("machine " + machine + " at " + to + " is unreachable: "
                + f.cause().getMessage(), true, f.cause());
        }
        long handshakeMs = fabric.options().handshakeTimeout().toMillis();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(handshakeMs);
        boolean interrupted = false;
        try {
            // Uninterruptibly, as the connect above (bounded by the handshake timeout all the same): the caller's
            // interrupt (Gremlin Server's evaluation timeout, say) is no failure of the peer's, but failing here
            // recorded it as one, and the link's back-off then failed every other thread's operation on the peer
            // (a home's ACK or settle to it among them, lost) until the back-off ran out. The interrupt is kept.
            while (true) {
                try {
                    h.ready().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                    return h;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } catch (TimeoutException e) {
            f.channel().close();
            throw new FabricException("machine " + machine + " at " + to + " did not complete the handshake within "
                + handshakeMs + " ms", true);
        } catch (ExecutionException e) {
            f.channel().close();
            if (e.getCause() instanceof FabricException fe) {
                throw fe;
            }
            throw new FabricException("handshake with machine " + machine + " at " + to + " failed: "
                + e.getCause(), true, e.getCause());
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Points the link at a new address (the peer restarted elsewhere); the old connection is closed. */
    synchronized void updateAddress(InetSocketAddress to) {
        address = to;
        lastFailure = null;
        ClientHandler h = handler;
        handler = null;
        if (h != null) {
            h.shutdown();
        }
    }

    /**
     * The membership presumes the peer dead: operations fail at once with {@code why} (a phrase such as "is presumed
     * dead: its ZooKeeper session ended"), and those in flight on the current connection fail now.
     */
    synchronized void presumeDead(String why) {
        presumedDead = why;
        ClientHandler h = handler;
        handler = null;
        if (h != null) {
            h.shutdown("machine " + machine + " " + why);
        }
    }

    /** The peer is alive again (it connected to this machine, or joined the membership anew). */
    void heardFrom() {
        presumedDead = null;
    }

    void close() {
        ClientHandler h = handler;
        if (h != null) {
            h.shutdown();
        }
    }
}
