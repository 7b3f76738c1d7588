package io.pragh.gremlin.structure;

import org.apache.tinkerpop.gremlin.process.remote.RemoteConnection;

/**
 * Where a traversal that starts at {@code V(ids)} runs in a multi-process cluster: on the machine that is home to
 * its start vertices, reached over a {@link RemoteConnection} when that is not this machine. The routing strategy of
 * {@code io.pragh.gremlin.process} asks it and reports what it did, so a machine can say how many traversals it
 * forwarded and how many it ran as the home.
 *
 * <p>Example: {@code if (router.homeOf(vid) != router.self()) step = new RemoteStep<>(t, router.connectionTo(home));}
 */
public interface TraversalRouter {
    /** This machine's id. */
    int self();

    /** The home machine of vertex {@code vid} (every key of a vertex has the same home). */
    int homeOf(long vid);

    /** A connection to machine {@code machine}'s Gremlin port, opened on first use and kept. */
    RemoteConnection connectionTo(int machine);

    /** Counts a traversal this machine received and handed to {@code home}. */
    void forwarded(int home);

    /** Counts a traversal whose start vertices are homed here and that therefore runs here. */
    void ranAtHome();
}
