package io.pragh.analytics;

import java.util.Arrays;
import org.agrona.collections.Hashing;
import org.agrona.collections.Long2LongHashMap;

/**
 * Vertex id to a dense number 0..n-1, in the order ids are first numbered: what PageRank looks up once per edge in
 * every iteration, so its cost is most of the algorithm's compute (a hash lookup, a cache miss in a map larger than
 * the cache, per edge). When the ids fall in a range at most {@link #DENSE_SLACK} times the vertex count (RMAT, the
 * loaders' id blocks), the numbers live in an int array over that range: one array read per edge. Otherwise a hash
 * map. Not thread-safe while numbering; read-only lookups from any thread afterwards.
 *
 * <pre>{@code
 * VertexIndex index = VertexIndex.forRange(minId, maxId, vertices);
 * int a = index.number(42);    // 0: first numbered
 * int b = index.of(42);        // 0; of(unknown) is -1
 * }</pre>
 */
final class VertexIndex {
    /** Array slots allowed per vertex before the hash map is used instead. */
    static final int DENSE_SLACK = 16;
    /** The largest array (ints) a dense index may take: 1 GiB of table is never worth it. */
    static final long MAX_DENSE = 1L << 28;

    private final long base;
    private final int[] dense;
    private final Long2LongHashMap sparse;
    private int size;

    private VertexIndex(long base, int[] dense, Long2LongHashMap sparse) {
        this.base = base;
        this.dense = dense;
        this.sparse = sparse;
    }

    /**
     * An empty index for ids in {@code [min, max]} of about {@code vertices} vertices: dense when the range is at most
     * {@link #DENSE_SLACK} slots a vertex, else a hash map.
     */
    static VertexIndex forRange(long min, long max, long vertices) {
        long range = max - min + 1; // overflows (<= 0) for a range wider than a long: then sparse
        if (max >= min && range > 0 && range <= MAX_DENSE && range <= DENSE_SLACK * Math.max(1, vertices)) {
            int[] table = new int[(int) range];
            Arrays.fill(table, -1);
            return new VertexIndex(min, table, null);
        }
        return new VertexIndex(0, null, new Long2LongHashMap(-1));
    }

    boolean isDense() {
        return dense != null;
    }

    /** Vertices numbered so far. */
    int size() {
        return size;
    }

    /** The number of {@code vid}, numbering it next if it has none yet. */
    int number(long vid) {
        int at = of(vid);
        if (at >= 0) {
            return at;
        }
        if (dense != null) {
            if (vid < base || vid - base >= dense.length) {
                throw new IllegalArgumentException("vertex " + vid + " is outside this index's range " + base + ".."
                    + (base + dense.length - 1));
            }
            dense[(int) (vid - base)] = size;
        } else {
            sparse.put(vid, size);
        }
        return size++;
    }

    /** The number of {@code vid}, or -1 when it has none. */
    int of(long vid) {
        if (dense != null) {
            long at = vid - base;
            return at >= 0 && at < dense.length ? dense[(int) at] : -1;
        }
        return (int) sparse.get(vid);
    }

    /** Every numbered vertex, as the map {@link PageRank.Result} hands out. */
    Long2LongHashMap toMap() {
        if (sparse != null) {
            return sparse;
        }
        Long2LongHashMap map = new Long2LongHashMap(size * 2, Hashing.DEFAULT_LOAD_FACTOR, -1);
        for (int i = 0; i < dense.length; i++) {
            if (dense[i] >= 0) {
                map.put(base + i, dense[i]);
            }
        }
        return map;
    }
}
