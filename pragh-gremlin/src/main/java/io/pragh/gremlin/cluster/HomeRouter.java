package io.pragh.gremlin.cluster;

import io.pragh.gremlin.storage.GraphKeys;
import io.pragh.gremlin.structure.TraversalRouter;
import io.pragh.keys.Placement;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.apache.tinkerpop.gremlin.driver.remote.DriverRemoteConnection;
import org.apache.tinkerpop.gremlin.process.remote.RemoteConnection;
import org.apache.tinkerpop.gremlin.util.ser.GraphBinaryMessageSerializerV1;

import java.net.InetSocketAddress;
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
 * <p>Example: {@code HomeRouter r = new HomeRouter(0, placement, gremlinAddresses, 16); r.connectionTo(2);}
 */
final class HomeRouter implements TraversalRouter, AutoCloseable {
    private final int self;
    private final LongToIntFunction homes;
    private final List<InetSocketAddress> gremlin;
    private final Cluster[] clusters;
    private final DriverRemoteConnection[] connections;
    private final ForwardPermits permits;
    private final AtomicLong ranAtHome = new AtomicLong();

    /**
     * @param gremlin every machine's Gremlin address by id (unresolved host names are fine)
     * @param maxForwards traversals forwarded at once, fewer than the Gremlin workers of a machine
     */
    HomeRouter(final int self, final Placement placement, final List<InetSocketAddress> gremlin,
               final int maxForwards) {
        this(self, (LongToIntFunction) vid -> placement.home(GraphKeys.vertex(vid)), gremlin, maxForwards);
    }

    /** @param homes the home machine of each vertex id */
    HomeRouter(final int self, final LongToIntFunction homes, final List<InetSocketAddress> gremlin,
               final int maxForwards) {
        this.self = self;
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
    public synchronized RemoteConnection connectionTo(final int machine) {
        if (connections[machine] == null) {
            final InetSocketAddress a = gremlin.get(machine);
            clusters[machine] = Cluster.build(a.getHostString()).port(a.getPort())
                .serializer(new GraphBinaryMessageSerializerV1()).create();
            connections[machine] = DriverRemoteConnection.using(clusters[machine], "g");
        }
        return connections[machine];
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
                try {
                    connections[m].close();
                } catch (Exception e) {
                    System.err.println("pragh: closing the Gremlin connection to machine " + m + " failed: " + e);
                }
                clusters[m].close();
                connections[m] = null;
                clusters[m] = null;
            }
        }
    }
}
