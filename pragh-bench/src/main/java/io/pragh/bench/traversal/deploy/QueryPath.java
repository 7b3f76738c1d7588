package io.pragh.bench.traversal.deploy;

/**
 * One client thread's way into a cluster: every call runs at the key's (or start vertex's) home machine, as that
 * machine's access, so that its monitor sees it. Not thread-safe: one per thread.
 *
 * <pre>{@code
 * try (QueryPath path = cluster.openPath()) {
 *     long reached = path.kHop(start, 0, 2, 100, false);
 * }
 * }</pre>
 */
public interface QueryPath extends AutoCloseable {
    /** The distinct vertices at exactly {@code hops} hops from {@code start}, read at the start vertex's home. */
    long kHop(long start, int label, int hops, int fanout, boolean batched);

    /** Inserts an edge at the source's home with {@link io.pragh.bench.extension.CappedAppend}: at most {@code cap} entries. */
    void insertEdge(long src, int label, long dst, int cap);

    /** Stores {@code value} under {@code key} at its home (loading). */
    void put(long key, byte[] value);

    @Override
    void close();
}
