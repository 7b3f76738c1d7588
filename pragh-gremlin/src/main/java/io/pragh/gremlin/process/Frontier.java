package io.pragh.gremlin.process;

import io.pragh.gremlin.structure.GraphStore;
import io.pragh.gremlin.storage.Adjacency;
import io.pragh.gremlin.storage.AdjacencySegments;
import io.pragh.gremlin.storage.GraphKeys;
import io.pragh.store.ValueView;
import org.agrona.DirectBuffer;
import org.agrona.collections.Long2LongHashMap;
import org.apache.tinkerpop.gremlin.structure.Direction;

import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The vertices reached so far with how many walks reach each (a traverser's bulk), in first-reached order. One
 * {@link #expand} is one hop: the GETs of every (vertex, label, direction) OUT or IN key go out as one batch from
 * the caller's thread, which the fused step runs on the start vertex's home machine. Adjacency lists are read as
 * flyweights over the GET's buffer ({@link GraphStore#getAllViews}): a hop or a count copies no list.
 *
 * <p>Example: {@code Frontier f = Frontier.of(new long[] {1}); f = f.expand(store, Direction.OUT, labels); long walks = f.totalBulk();}
 */
final class Frontier {
    private long[] vids;
    private long[] bulks;
    private int size;
    private final Long2LongHashMap index;
    /** The sealed segments of the hop running now, or null while it has met none. */
    private SegmentBatch segments;

    Frontier(final int capacity) {
        vids = new long[Math.max(4, capacity)];
        bulks = new long[vids.length];
        index = new Long2LongHashMap(Math.max(8, capacity * 2), 0.65f, -1);
    }

    /** A start frontier: each id once per occurrence, merged. */
    static Frontier of(final long[] starts) {
        final Frontier f = new Frontier(starts.length);
        for (final long v : starts) {
            f.add(v, 1);
        }
        return f;
    }

    int size() {
        return size;
    }

    long vid(final int i) {
        return vids[i];
    }

    long bulk(final int i) {
        return bulks[i];
    }

    long totalBulk() {
        long sum = 0;
        for (int i = 0; i < size; i++) {
            sum += bulks[i];
        }
        return sum;
    }

    void add(final long vid, final long bulk) {
        final long at = index.get(vid);
        if (at >= 0) {
            bulks[(int) at] += bulk;
            return;
        }
        if (size == vids.length) {
            vids = Arrays.copyOf(vids, size * 2);
            bulks = Arrays.copyOf(bulks, size * 2);
        }
        index.put(vid, size);
        vids[size] = vid;
        bulks[size] = bulk;
        size++;
    }

    /**
     * The frontier one hop further: one batched GET of every adjacency the hop reads, and one more of the sealed
     * segments of the supernodes among them, only when there are any ({@link SegmentBatch}).
     */
    Frontier expand(final GraphStore store, final Direction direction, final int[] labels) {
        final Frontier next = new Frontier(size * 4);
        final int[] owner = new int[hopKeyCount(direction, labels)];
        final long[] keys = hopKeys(direction, labels, owner);
        segments = null;
        store.getAllViews(keys, keys.length, (k, adjacency) -> addAll(next, adjacency, bulks[owner[k]], keys[k]));
        if (segments != null) {
            segments.expandInto(store, next);
        }
        return next;
    }

    /** Walks one step further onto edges, counted but not materialised: {@code sum(bulk * degree)}. */
    long countEdges(final GraphStore store, final Direction direction, final int[] labels) {
        final int[] owner = new int[hopKeyCount(direction, labels)];
        final long[] keys = hopKeys(direction, labels, owner);
        final long[] count = {0};
        segments = null;
        store.getAllViews(keys, keys.length, (k, adjacency) -> {
            final int head = isSegmented(adjacency) ? segments().addTail(keys[k], adjacency, bulks[owner[k]]) : 0;
            count[0] += (degree(adjacency) - head) * bulks[owner[k]];
        });
        return segments == null ? count[0] : count[0] + segments.countEdges(store);
    }

    /** The sealed segments this hop still reads, noted as tails come back. */
    private SegmentBatch segments() {
        if (segments == null) {
            segments = new SegmentBatch();
        }
        return segments;
    }

    /** Whether a list begins with a head entry: one load and a sign test, all an ordinary list costs. */
    private static boolean isSegmented(final ValueView adjacency) {
        return adjacency != null && adjacency.length() >= Adjacency.ENTRY_BYTES
            && AdjacencySegments.isHead(adjacency.buffer().getLong(adjacency.offset(), ByteOrder.LITTLE_ENDIAN));
    }

    private int hopKeyCount(final Direction direction, final int[] labels) {
        return size * labels.length * (direction == Direction.BOTH ? 2 : 1);
    }

    /** The adjacency keys one hop reads; {@code owner[k]} is the frontier index key {@code k} belongs to. */
    private long[] hopKeys(final Direction direction, final int[] labels, final int[] owner) {
        final long[] keys = new long[owner.length];
        int k = 0;
        for (int i = 0; i < size; i++) {
            for (final int label : labels) {
                if (direction != Direction.IN) {
                    owner[k] = i;
                    keys[k++] = GraphKeys.out(vids[i], label);
                }
                if (direction != Direction.OUT) {
                    owner[k] = i;
                    keys[k++] = GraphKeys.in(vids[i], label);
                }
            }
        }
        return keys;
    }

    /**
     * Adds every neighbour of an adjacency list, read where the GET left it (no copy), with {@code bulk}; a
     * segmented list's head names the segments to read next, and its body is its newest entries.
     */
    private void addAll(final Frontier next, final ValueView adjacency, final long bulk, final long key) {
        if (adjacency == null) {
            return;
        }
        final DirectBuffer buffer = adjacency.buffer();
        final int at = adjacency.offset();
        final int head = isSegmented(adjacency) ? segments().addTail(key, adjacency, bulk) : 0;
        for (int j = head, n = degree(adjacency); j < n; j++) {
            next.add(buffer.getLong(at + Adjacency.neighbourOffset(j), ByteOrder.LITTLE_ENDIAN), bulk);
        }
    }

    /** Entries of an adjacency list (zero when absent), counted from its length alone. */
    private static int degree(final ValueView adjacency) {
        return adjacency == null ? 0 : Adjacency.countOfLength(adjacency.length());
    }
}
