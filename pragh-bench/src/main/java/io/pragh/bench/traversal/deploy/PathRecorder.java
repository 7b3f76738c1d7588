package io.pragh.bench.traversal.deploy;

import io.pragh.graph.KHopTraversal;

/**
 * What a query path tells of the keys it records: the values its two-hop GETs read ({@link KHopTraversal.ReadObserver})
 * and its edge inserts, each with when it was invoked and answered ({@link System#nanoTime}), on the path's thread.
 * Only keys it {@linkplain #observes observes} are told: the benchmark records a history of a sample of keys and
 * checks it for linearizability, and a key outside the sample costs one branch.
 *
 * <pre>{@code
 * try (QueryPath path = cluster.openPath(history.recorder(threadIndex))) {
 *     path.kHop(start, 0, 2, 100, false);
 * }
 * }</pre>
 */
public interface PathRecorder extends KHopTraversal.ReadObserver {
    /** An edge insert ({@code CappedAppend} of {@code neighbour} into a list of at most {@code cap} entries) returned. */
    void inserted(long key, long neighbour, int cap, long invokedNanos, long answeredNanos);
}
