package io.pragh.embedded;

import io.pragh.graph.KHopTraversal;
import io.pragh.keys.KeyLayout;
import io.pragh.store.Mutators;
import java.util.concurrent.CompletableFuture;

/**
 * Graph operations of a cluster: adjacency lists stored under {@code (vid, label, OUT|IN)} keys, edge inserts as
 * read-modify-writes at the value's host, and k-hop traversals that run on the home machine of their start vertex.
 *
 * <pre>{@code
 * AdjacencyLists g = cluster.graph();
 * g.addEdge(1, 0, 2);
 * long[] friendsOfFriends = g.kHop(1, 0, 2, 100).join();
 * }</pre>
 */
public final class AdjacencyLists {
    private final EmbeddedCluster cluster;

    AdjacencyLists(EmbeddedCluster cluster) {
        this.cluster = cluster;
    }

    /** Appends {@code dst} to {@code src}'s out-list of {@code label}; concurrent inserts never lose an edge. */
    public void addEdge(long src, int label, long dst) {
        cluster.homeOf(KeyLayout.key(src, label, KeyLayout.OUT)).update(KeyLayout.key(src, label, KeyLayout.OUT),
            Mutators.APPEND, KHopTraversal.encode(dst));
    }

    /** Like {@link #addEdge} and also appends {@code src} to {@code dst}'s in-list. */
    public void addEdgeBothWays(long src, int label, long dst) {
        addEdge(src, label, dst);
        cluster.homeOf(KeyLayout.key(dst, label, KeyLayout.IN)).update(KeyLayout.key(dst, label, KeyLayout.IN),
            Mutators.APPEND, KHopTraversal.encode(src));
    }

    /** The out-neighbours of {@code vid} under {@code label}, read from machine {@code from}. */
    public long[] neighbours(int from, long vid, int label) {
        return KHopTraversal.neighbours(cluster.machine(from).session(), vid, label, KeyLayout.OUT);
    }

    /**
     * Distinct vertices exactly {@code hops} hops out of {@code start} along {@code label}, reading at most
     * {@code fanout} neighbours per vertex, computed on the start vertex's home machine.
     */
    public CompletableFuture<long[]> kHop(long start, int label, int hops, int fanout) {
        Machine home = cluster.homeOf(KeyLayout.key(start, label, KeyLayout.OUT));
        return home.submit(() -> KHopTraversal.toArray(new KHopTraversal(home.session()).run(start, label, hops, fanout)));
    }
}
