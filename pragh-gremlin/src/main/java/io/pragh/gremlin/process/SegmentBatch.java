package io.pragh.gremlin.process;

import io.pragh.gremlin.storage.Adjacency;
import io.pragh.gremlin.storage.AdjacencySegments;
import io.pragh.gremlin.storage.GraphKeys;
import io.pragh.gremlin.structure.GraphStore;
import io.pragh.gremlin.structure.SegmentedLists;
import io.pragh.store.ValueView;
import org.agrona.DirectBuffer;
import org.agrona.collections.LongHashSet;

import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The sealed segments one hop must still read ({@link AdjacencySegments}): the tails of segmented lists name them as
 * the hop's batch comes back, and they are then read together in one more batched GET, however many lists and
 * segments the frontier reached; a hop that meets no segmented list never makes one. Each segment carries the bulk
 * of the vertex whose list it belongs to and the tombstones of that list's tail.
 *
 * <p>Example: {@code int head = batch.addTail(key, tail, bulk); ... batch.expandInto(store, next);}
 */
final class SegmentBatch {
    private long[] keys = new long[8];
    private long[] bulks = new long[8];
    private LongHashSet[] removed = new LongHashSet[8];
    private int size;

    boolean isEmpty() {
        return size == 0;
    }

    /**
     * Notes the sealed segments a tail (a list whose first entry is a head entry) names, with {@code bulk}; returns
     * its head entries, which the caller skips before the tail's own body entries.
     */
    int addTail(final long listKey, final ValueView tail, final long bulk) {
        final DirectBuffer buffer = tail.buffer();
        final int at = tail.offset();
        final int n = Adjacency.countOfLength(tail.length());
        int h = 0;
        LongHashSet tombstones = null;
        while (h < n && AdjacencySegments.isHead(buffer.getLong(at + h * Adjacency.ENTRY_BYTES, ByteOrder.LITTLE_ENDIAN))) {
            if (tag(buffer, at, h) == AdjacencySegments.TOMBSTONE) {
                tombstones = tombstones == null ? new LongHashSet() : tombstones;
                tombstones.add(payload(buffer, at, h));
            }
            h++;
        }
        final long vid = GraphKeys.vid(listKey);
        for (int i = 0; i < h; i++) {
            if (tag(buffer, at, i) == AdjacencySegments.SEGMENT) {
                add(GraphKeys.segment(vid, (int) payload(buffer, at, i)), bulk, tombstones);
            }
        }
        return h;
    }

    private static int tag(final DirectBuffer buffer, final int at, final int entry) {
        return AdjacencySegments.tag(buffer.getLong(at + entry * Adjacency.ENTRY_BYTES, ByteOrder.LITTLE_ENDIAN));
    }

    private static long payload(final DirectBuffer buffer, final int at, final int entry) {
        return AdjacencySegments.payload(buffer.getLong(at + entry * Adjacency.ENTRY_BYTES + 8, ByteOrder.LITTLE_ENDIAN));
    }

    private void add(final long key, final long bulk, final LongHashSet tombstones) {
        if (size == keys.length) {
            keys = Arrays.copyOf(keys, size * 2);
            bulks = Arrays.copyOf(bulks, size * 2);
            removed = Arrays.copyOf(removed, size * 2);
        }
        keys[size] = key;
        bulks[size] = bulk;
        removed[size] = tombstones;
        size++;
    }

    /** Reads every noted segment in one batch and adds its neighbours to {@code next}. */
    void expandInto(final GraphStore store, final Frontier next) {
        if (size == 0) {
            return; // only heads without segments (a list a sealer holds, or let go before its first seal)
        }
        store.getAllViews(keys, size, (s, segment) -> {
            if (segment == null) {
                return;
            }
            final DirectBuffer buffer = segment.buffer();
            final int at = segment.offset();
            // the segment's stamp, when it has one, is its first entry and no neighbour (SegmentStamp)
            for (int j = SegmentedLists.bodyFrom(segment), n = Adjacency.countOfLength(segment.length());
                 j < n; j++) {
                final int entry = at + j * Adjacency.ENTRY_BYTES;
                if (removed[s] == null || !removed[s].contains(buffer.getLong(entry + 8, ByteOrder.LITTLE_ENDIAN))) {
                    next.add(buffer.getLong(entry, ByteOrder.LITTLE_ENDIAN), bulks[s]);
                }
            }
        });
    }

    /** Reads every noted segment in one batch: {@code sum(bulk * entries)}, removed edges not counted. */
    long countEdges(final GraphStore store) {
        if (size == 0) {
            return 0;
        }
        final long[] count = {0};
        store.getAllViews(keys, size, (s, segment) -> {
            if (segment == null) {
                return;
            }
            final int n = Adjacency.countOfLength(segment.length());
            final int from = SegmentedLists.bodyFrom(segment);
            long live = n - from;
            if (removed[s] != null) {
                for (int j = from; j < n; j++) {
                    final int entry = segment.offset() + j * Adjacency.ENTRY_BYTES + 8;
                    live -= removed[s].contains(segment.buffer().getLong(entry, ByteOrder.LITTLE_ENDIAN)) ? 1 : 0;
                }
            }
            count[0] += live * bulks[s];
        });
        return count[0];
    }
}
