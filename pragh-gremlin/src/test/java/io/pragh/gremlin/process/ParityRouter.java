package io.pragh.gremlin.process;

import io.pragh.gremlin.structure.TraversalRouter;
import org.apache.tinkerpop.gremlin.process.remote.EmbeddedRemoteConnection;
import org.apache.tinkerpop.gremlin.process.remote.RemoteConnection;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.Graph;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.structure.Vertex;

import java.util.ArrayList;
import java.util.List;

/**
 * A router for graphs that stand for machines in one JVM: even vertex ids homed on machine 0, odd on machine 1, each
 * machine reached through an in-JVM remote connection (or {@link #connection} when set); counts what the routing
 * strategy reported and checks every forwarding permit is returned once.
 */
final class ParityRouter implements TraversalRouter {
    final int self;
    final int maxForwards;
    final List<Integer> forwardedTo = new ArrayList<>();
    int ranAtHome;
    int refused;
    volatile int inFlight; // read by tests while the Cleaner thread may return a permit
    volatile int ended;
    GraphTraversalSource[] machines;
    RemoteConnection connection;

    ParityRouter(final int self, final int maxForwards) {
        this.self = self;
        this.maxForwards = maxForwards;
    }

    @Override
    public int self() {
        return self;
    }

    @Override
    public int homeOf(final long vid) {
        return (int) (vid % 2);
    }

    @Override
    public RemoteConnection connectionTo(final int machine) {
        return connection != null ? connection : new EmbeddedRemoteConnection(machines[machine]);
    }

    @Override
    public synchronized boolean tryForward(final int home) {
        if (inFlight == maxForwards) {
            refused++;
            return false;
        }
        inFlight++;
        forwardedTo.add(home);
        return true;
    }

    @Override
    public synchronized void forwardEnded(final int home) {
        if (inFlight == 0) {
            throw new AssertionError("a permit to machine " + home + " was returned twice");
        }
        inFlight--;
        ended++;
    }

    @Override
    public synchronized void ranAtHome() {
        ranAtHome++;
    }

    /**
     * Points both routers at both machines' traversal sources and writes, through machine 0, the ring the routing
     * tests traverse: vertices 0..5, each with a "next" edge to i+1 and a "skip" edge to i+2 (mod 6).
     */
    static GraphTraversalSource[] ring(final ParityRouter r0, final ParityRouter r1,
                                       final Graph m0, final Graph m1) {
        final GraphTraversalSource[] machines = {m0.traversal(), m1.traversal()};
        r0.machines = machines;
        r1.machines = machines;
        final Vertex[] v = new Vertex[6];
        for (int i = 0; i < v.length; i++) {
            v[i] = m0.addVertex(T.id, i);
        }
        for (int i = 0; i < v.length; i++) {
            v[i].addEdge("next", v[(i + 1) % v.length]);
            v[i].addEdge("skip", v[(i + 2) % v.length]);
        }
        return machines;
    }
}
