package io.pragh.analytics;

import org.agrona.collections.LongHashSet;

/**
 * A set of vertex ids for BFS's per-edge "seen already?" and per-list "in the frontier?" tests: ids in
 * {@code [0, DENSE_LIMIT)} are bits of a bitmap grown as larger ids arrive (a word read per test, where a hash set
 * costs a cache miss in a table larger than the cache), any other id goes to a hash set. Not thread-safe while it
 * changes; read-only tests from any thread once its writer handed it over (BFS writes it between levels).
 *
 * <pre>{@code
 * VertexSet seen = new VertexSet();
 * seen.add(42);
 * boolean again = seen.contains(42);   // true
 * }</pre>
 */
final class VertexSet {
    /** Ids below this are bits (a bitmap of at most 8 MiB); the rest are hashed. */
    static final long DENSE_LIMIT = 1L << 26;

    private long[] bits = new long[64];
    private final LongHashSet others = new LongHashSet();
    private int size;

    /** Adds {@code vid}; whether it was absent. */
    boolean add(long vid) {
        if (vid < 0 || vid >= DENSE_LIMIT) {
            boolean added = others.add(vid);
            size += added ? 1 : 0;
            return added;
        }
        int word = (int) (vid >>> 6);
        if (word >= bits.length) {
            bits = java.util.Arrays.copyOf(bits, Math.max(word + 1, bits.length * 2));
        }
        long bit = 1L << vid; // shifts by vid mod 64
        if ((bits[word] & bit) != 0) {
            return false;
        }
        bits[word] |= bit;
        size++;
        return true;
    }

    boolean contains(long vid) {
        if (vid < 0 || vid >= DENSE_LIMIT) {
            return others.contains(vid);
        }
        int word = (int) (vid >>> 6);
        return word < bits.length && (bits[word] & (1L << vid)) != 0;
    }

    boolean isEmpty() {
        return size == 0;
    }

    int size() {
        return size;
    }
}
