package io.pragh.gremlin.structure;

import org.apache.tinkerpop.gremlin.process.remote.RemoteConnection;

/**
 * Where a traversal that starts at {@code V(ids)} runs in a multi-process cluster: on the machine that is home to
 * its start vertices, reached over a {@link RemoteConnection} when that is not this machine. The routing strategy of
 * {@code io.pragh.gremlin.process} asks it and reports what it did, so a machine can say how many traversals it
 * forwarded and how many it ran as the home. A forward holds one of a bounded number of permits from
 * {@link #tryForward} until {@link #forwardEnded}: a traversal that finds none free runs where it arrived.
 *
 * <p>Example: {@code if (h != router.self() && router.tryForward(h)) step = new RemoteStep<>(t, router.connectionTo(h));}
 */
public interface TraversalRouter {
    /** This machine's id. */
    int self();

    /** The home machine of vertex {@code vid} (every key of a vertex has the same home). */
    int homeOf(long vid);

    /** A connection to machine {@code machine}'s Gremlin port, opened on first use and kept. */
    RemoteConnection connectionTo(int machine);

    /**
     * Takes a permit to hand a traversal this machine received to {@code home}, counting it as forwarded; false, and
     * counted as run here at capacity, when this machine already forwards as many traversals as it may at once. Never
     * blocks: a forward waiting for a permit would hold a Gremlin worker like the forwards it waits for.
     */
    boolean tryForward(int home);

    /** Returns the permit of a forward to {@code home} that ended; called exactly once per {@code true} from {@link #tryForward}. */
    void forwardEnded(int home);

    /**
     * What to throw for {@code failure}, a forward to {@code home} that failed while sending or streaming (not its
     * end of results): a router may turn a lost connection into a retryable error naming the machine. By default,
     * {@code failure} itself.
     */
    default RuntimeException forwardFailed(int home, RuntimeException failure) {
        return failure;
    }

    /** Counts a traversal whose start vertices are homed here and that therefore runs here. */
    void ranAtHome();
}
