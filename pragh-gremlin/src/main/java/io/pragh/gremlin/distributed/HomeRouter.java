package io.pragh.gremlin.distributed;

import io.pragh.gremlin.server.PasswordFileAuthenticator;
import io.pragh.gremlin.storage.GraphKeys;
import io.pragh.gremlin.structure.TraversalRouter;
import io.pragh.keys.Placement;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.apache.tinkerpop.gremlin.driver.exception.ResponseException;
import org.apache.tinkerpop.gremlin.driver.remote.DriverRemoteConnection;
import org.apache.tinkerpop.gremlin.process.remote.RemoteConnection;
import org.apache.tinkerpop.gremlin.util.message.ResponseStatusCode;
import org.apache.tinkerpop.gremlin.util.ser.GraphBinaryMessageSerializerV1;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongToIntFunction;

/**
 * The {@link TraversalRouter} of one machine: homes from the store's placement, and one TinkerPop driver connection
 * (GraphBinary, traversal source {@code g}) per other machine's Gremlin port, opened on first use. At most
 * {@code maxForwards} traversals are forwarded at once ({@link ForwardPermits}; see {@code PraghRoutingStrategy} for
 * why that keeps machines from waiting on each other forever). It counts what the routing strategy did, for
 * {@link RoutingService}.
 *
 * <p>A machine known to be lost is not forwarded to: when the fabric cannot reach the home ({@link PeerReachability}),
 * the traversal fails at once with a retryable {@link MachineUnavailableException} naming it, rather than wait for the
 * driver's timeouts. A forward whose connection fails on the way (the home died while it ran) fails the same way, and
 * the home's driver is dropped, so the first forward after the home is back opens a fresh one. An error the home
 * itself answered is passed on, retryable when the home said so.
 *
 * <p>When the Gremlin ports ask for logins, a machine logs in to the others as
 * {@link PasswordFileAuthenticator#PEER_USER}, with the password every machine derives from the cluster secret.
 *
 * <p>Example: {@code HomeRouter r = new HomeRouter(0, placement, gremlinAddresses, 16, peers, null); r.connectionTo(2);}
 */
final class HomeRouter implements TraversalRouter, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(HomeRouter.class);

    /** The longest a forward waits for a connection to its home (setup or a free one from the pool). */
    static final int DRIVER_WAIT_MILLIS = 1_000;

    private final int self;
    private final LongToIntFunction homes;
    private final List<InetSocketAddress> gremlin;
    private final Cluster[] clusters;
    private final DriverRemoteConnection[] connections;
    private final ForwardPermits permits;
    private final AtomicLong ranAtHome = new AtomicLong();
    private final PeerReachability peers;
    /** The password of {@link PasswordFileAuthenticator#PEER_USER} when the Gremlin ports ask for logins, else null. */
    private final String peerPassword;

    /**
     * @param gremlin every machine's Gremlin address by id (unresolved host names are fine)
     * @param maxForwards traversals forwarded at once, fewer than the Gremlin workers of a machine
     * @param peerPassword what this machine logs in to the others with, or null when they ask for no login
     */
    HomeRouter(final int self, final Placement placement, final List<InetSocketAddress> gremlin,
               final int maxForwards, final PeerReachability peers, final String peerPassword) {
        this(self, (LongToIntFunction) vid -> placement.home(GraphKeys.vertex(vid)), gremlin, maxForwards, peers,
            peerPassword);
    }

    /**
     * @param homes the home machine of each vertex id
     * @param peers which machines the fabric reaches, or null to forward without asking
     */
    HomeRouter(final int self, final LongToIntFunction homes, final List<InetSocketAddress> gremlin,
               final int maxForwards, final PeerReachability peers) {
        this(self, homes, gremlin, maxForwards, peers, null);
    }

    private HomeRouter(final int self, final LongToIntFunction homes, final List<InetSocketAddress> gremlin,
                       final int maxForwards, final PeerReachability peers, final String peerPassword) {
        this.self = self;
        this.peerPassword = peerPassword;
        this.peers = peers;
        this.homes = homes;
        this.permits = new ForwardPermits(maxForwards);
        this.gremlin = List.copyOf(gremlin);
        this.clusters = new Cluster[gremlin.size()];
        this.connections = new DriverRemoteConnection[gremlin.size()];
    }

    @Override
    public int self() {
        return self;
    }

    @Override
    public int homeOf(final long vid) {
        return homes.applyAsInt(vid);
    }

    @Override
    public RemoteConnection connectionTo(final int machine) {
        // Outside the lock: asking the fabric may take a connect attempt.
        if (peers != null && !peers.reachable(machine)) {
            throw peers.error(List.of(machine), "the traversal starts at vertices it is home to");
        }
        return driverTo(machine);
    }

    private synchronized RemoteConnection driverTo(final int machine) {
        if (connections[machine] == null) {
            final InetSocketAddress a = gremlin.get(machine);
            probe(machine, a);
            // Short driver waits: a home that cannot be connected to within a second fails the forward retryably
            // (forwardFailed) instead of holding the request for the driver's 15 s default.
            final Cluster.Builder driver = Cluster.build(a.getHostString()).port(a.getPort())
                .serializer(new GraphBinaryMessageSerializerV1()).connectionSetupTimeoutMillis(DRIVER_WAIT_MILLIS)
                .maxWaitForConnection(DRIVER_WAIT_MILLIS).reconnectInterval(DRIVER_WAIT_MILLIS / 4);
            if (peerPassword != null) {
                driver.credentials(PasswordFileAuthenticator.PEER_USER, peerPassword);
            }
            clusters[machine] = driver.create();
            connections[machine] = DriverRemoteConnection.using(clusters[machine], "g");
        }
        return connections[machine];
    }

    /**
     * Fails at once, retryably, when nothing listens on machine {@code m}'s Gremlin port: a machine that restarts
     * opens its fabric port before it serves Gremlin, and the driver would wait its full connection wait for it.
     * A refused connection answers at once; a silent port is given the driver's whole wait, since a serving machine
     * on a loaded host (or in a long pause) can take longer than a quarter of it to complete a handshake, as a
     * quiet-host test run saw once.
     */
    private static void probe(final int m, final InetSocketAddress a) {
        try (Socket s = new Socket()) {
            s.connect(a.isUnresolved() ? new InetSocketAddress(a.getHostString(), a.getPort()) : a,
                DRIVER_WAIT_MILLIS);
        } catch (IOException e) {
            throw new MachineUnavailableException("machine " + m + " (Gremlin " + a.getHostString() + ":" + a.getPort()
                + ") does not serve Gremlin now (" + (e instanceof java.net.ConnectException ? "connection refused"
                : "no connection within " + DRIVER_WAIT_MILLIS + " ms") + "); retry once it is back");
        }
    }

    @Override
    public boolean tryForward(final int home) {
        return permits.tryAcquire();
    }

    @Override
    public void forwardEnded(final int home) {
        permits.release();
    }

    @Override
    public RuntimeException forwardFailed(final int home, final RuntimeException failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof ResponseException answered) {
                // The home answered: its own error, passed on as it said (retryable or not) without our wrapping.
                final String message = answered.getMessage();
                return answered.getResponseStatusCode() == ResponseStatusCode.SERVER_ERROR_TEMPORARY
                    ? new MachineUnavailableException(message) : new IllegalStateException(message);
            }
            if (t instanceof MachineUnavailableException named) {
                return named;
            }
        }
        // No answer from the home: the connection failed or timed out, most likely because the home went down.
        drop(home);
        final InetSocketAddress a = gremlin.get(home);
        return new MachineUnavailableException("machine " + home + " (Gremlin " + a.getHostString() + ":"
            + a.getPort() + ") did not answer a traversal forwarded to it as the home of its start vertices;"
            + " retry once it is back");
    }

    /** Closes machine {@code m}'s driver so the next forward opens a fresh one. */
    private void drop(final int m) {
        final Cluster c;
        final DriverRemoteConnection r;
        synchronized (this) {
            c = clusters[m];
            r = connections[m];
            clusters[m] = null;
            connections[m] = null;
        }
        if (r != null) {
            // Closing waits for the driver's own shutdown: off the worker thread that reports the failure.
            final Thread closer = new Thread(() -> closeDriver(m, c, r), "pragh-m" + self + "-drop-driver-" + m);
            closer.setDaemon(true);
            closer.start();
        }
    }

    @Override
    public void ranAtHome() {
        ranAtHome.incrementAndGet();
    }

    /**
     * This machine's counters: {@code machine}; {@code forwarded}, traversals sent to their home; {@code ranAtHome},
     * traversals run here as their home; {@code ranHereAtCapacity}, traversals homed elsewhere run here because
     * {@code maxForwards} were already in flight; {@code forwardsInFlight} and {@code maxForwards}.
     */
    Map<String, Long> counters() {
        return Map.of("machine", (long) self, "forwarded", permits.forwarded(), "ranAtHome", ranAtHome.get(),
            "ranHereAtCapacity", permits.refused(), "forwardsInFlight", (long) permits.inFlight(),
            "maxForwards", (long) permits.max());
    }

    @Override
    public synchronized void close() {
        for (int m = 0; m < clusters.length; m++) {
            if (connections[m] != null) {
                closeDriver(m, clusters[m], connections[m]);
                connections[m] = null;
                clusters[m] = null;
            }
        }
    }

    /** Closes the driver connection to machine {@code m} and its cluster; a failure to close is logged, not thrown. */
    private void closeDriver(final int m, final Cluster cluster, final DriverRemoteConnection connection) {
        try {
            connection.close();
        } catch (Exception e) {
            LOG.warn("machine {}: closing the Gremlin connection to machine {} failed: {}", self, m, e.toString());
        }
        cluster.close();
    }
}
