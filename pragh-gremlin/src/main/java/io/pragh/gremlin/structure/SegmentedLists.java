package io.pragh.gremlin.structure;

import io.pragh.gremlin.storage.Adjacency;
import io.pragh.gremlin.storage.AdjacencySegments;
import io.pragh.gremlin.storage.ByteWriter;
import io.pragh.gremlin.storage.GraphKeys;
import io.pragh.gremlin.storage.SegmentStamp;
import io.pragh.store.ValueView;
import java.nio.ByteOrder;
import org.agrona.collections.LongHashSet;

/**
 * Adjacency lists read whole by the Structure API, supernodes included ({@link AdjacencySegments}): one batched GET
 * of the lists, then one more of the sealed segments of those that are segmented (none for ordinary lists), put
 * together in insertion order, removed edges left out. The fused hop reads segments its own way, where the GET left
 * them ({@code process.Frontier}).
 *
 * <p>Example: {@code byte[][] lists = SegmentedLists.getAll(store, new long[] {GraphKeys.out(vid, label)});}
 */
public final class SegmentedLists {
    private SegmentedLists() {
    }

    /** The list under {@code key} as plain entries (an ordinary list is returned as stored), or null. */
    public static byte[] get(final GraphStore store, final long key) {
        return getAll(store, new long[] {key})[0];
    }

    /** The lists under {@code keys}, in their order, as plain entries (null where a key has none). */
    public static byte[][] getAll(final GraphStore store, final long[] keys) {
        final byte[][] lists = new byte[keys.length][];
        store.getAll(keys, keys.length, (i, value) -> lists[i] = value);
        int segmented = 0;
        for (int k = 0; k < keys.length; k++) {
            final int h = AdjacencySegments.headEntries(lists[k]);
            final int slots = h == 0 ? 0 : AdjacencySegments.slots(lists[k]).length;
            if (h > 0 && slots == 0) {
                // a head without segments (a sealer holds the list, or let it go): only the body is the list
                lists[k] = Adjacency.count(lists[k]) == h ? null
                    : java.util.Arrays.copyOfRange(lists[k], h * Adjacency.ENTRY_BYTES, lists[k].length);
            }
            segmented += slots;
        }
        if (segmented == 0) {
            return lists;
        }
        final long[] segmentKeys = new long[segmented];
        int s = 0;
        for (int k = 0; k < keys.length; k++) {
            for (final long slot : AdjacencySegments.slots(lists[k])) {
                segmentKeys[s++] = GraphKeys.segment(GraphKeys.vid(keys[k]), (int) slot);
            }
        }
        final byte[][] segments = new byte[segmented][];
        store.getAll(segmentKeys, segmented, (i, value) -> segments[i] = value);
        s = 0;
        for (int k = 0; k < keys.length; k++) {
            final long[] slots = AdjacencySegments.slots(lists[k]);
            if (slots.length > 0) {
                lists[k] = joined(lists[k], segments, s, slots.length);
                s += slots.length;
            }
        }
        return lists;
    }

    /** Sealed segments {@code segments[from..from+count)} then the tail's body, tombstoned entries left out. */
    private static byte[] joined(final byte[] tail, final byte[][] segments, final int from, final int count) {
        final LongHashSet removed = tombstones(tail);
        long bytes = tail.length;
        for (int i = from; i < from + count; i++) {
            bytes += segments[i] == null ? 0 : segments[i].length;
        }
        if (bytes > Integer.MAX_VALUE - 16) {
            throw new IllegalStateException("an adjacency list of " + bytes / Adjacency.ENTRY_BYTES + " entries is"
                + " too long to read whole: walk it with a hop (g.V(x).out()) instead");
        }
        final ByteWriter w = new ByteWriter((int) bytes);
        for (int i = from; i < from + count; i++) {
            final byte[] segment = segments[i];
            for (int e = SegmentStamp.bodyFrom(segment), n = Adjacency.count(segment); e < n; e++) {
                if (removed == null || !removed.contains(Adjacency.edgeId(segment, e))) {
                    w.putBytes(segment, e * Adjacency.ENTRY_BYTES, Adjacency.ENTRY_BYTES);
                }
            }
        }
        final int h = AdjacencySegments.headEntries(tail) * Adjacency.ENTRY_BYTES;
        w.putBytes(tail, h, tail.length - h);
        return w.toByteArray();
    }

    /** The tail's tombstones as a set, or null when it has none (the common case). */
    static LongHashSet tombstones(final byte[] tail) {
        final long[] numbers = AdjacencySegments.tombstones(tail);
        if (numbers.length == 0) {
            return null;
        }
        final LongHashSet set = new LongHashSet(numbers.length * 2);
        for (final long n : numbers) {
            set.add(n);
        }
        return set;
    }

    /**
     * The neighbour at the far end of edge {@code edgeNumber} in the list under {@code key}, or -1 when the list has
     * no such edge: one GET for an ordinary list, one more batch of the sealed segments for a segmented one.
     */
    public static long neighbourOf(final GraphStore store, final long key, final long edgeNumber) {
        final byte[] tail = store.get(key);
        final int h = AdjacencySegments.headEntries(tail);
        for (int i = h, n = Adjacency.count(tail); i < n; i++) {
            if (Adjacency.edgeId(tail, i) == edgeNumber) {
                return Adjacency.neighbour(tail, i);
            }
        }
        final long[] slots = AdjacencySegments.slots(tail);
        final LongHashSet removed = tombstones(tail);
        if (slots.length == 0 || removed != null && removed.contains(edgeNumber)) {
            return -1;
        }
        final long[] keys = new long[slots.length];
        for (int s = 0; s < slots.length; s++) {
            keys[s] = GraphKeys.segment(GraphKeys.vid(key), (int) slots[s]);
        }
        final long[] found = {-1};
        store.getAllViews(keys, keys.length, (s, segment) -> {
            final int from = bodyFrom(segment);
            for (int i = from, n = segment == null ? 0 : segment.length() / Adjacency.ENTRY_BYTES; i < n; i++) {
                final int at = segment.offset() + i * Adjacency.ENTRY_BYTES;
                if (segment.buffer().getLong(at + 8, ByteOrder.LITTLE_ENDIAN) == edgeNumber) {
                    found[0] = segment.buffer().getLong(at, ByteOrder.LITTLE_ENDIAN);
                }
            }
        });
        return found[0];
    }

    /** The first body entry of a segment read as a view: 1 after its stamp ({@link SegmentStamp}), else 0. */
    public static int bodyFrom(final ValueView segment) {
        return segment == null || segment.length() < Adjacency.ENTRY_BYTES ? 0
            : SegmentStamp.bodyFrom(segment.buffer().getLong(segment.offset(), ByteOrder.LITTLE_ENDIAN), segment.length());
    }

    /** The token that wrote a segment read as a view, or 0 (none, no stamp). */
    public static long stampOf(final ValueView segment) {
        return bodyFrom(segment) == 0 ? 0
            : AdjacencySegments.payload(segment.buffer().getLong(segment.offset() + 8, ByteOrder.LITTLE_ENDIAN));
    }

    /** Deletes a vertex's sealed segments and its slot record, after its lists were deleted. */
    public static void deleteSegmentsOf(final GraphStore store, final long vid) {
        final byte[] slots = store.get(GraphKeys.segmentSlots(vid));
        if (slots == null) {
            return;
        }
        for (int slot = 1; slot <= slots.length / 8; slot++) {
            store.delete(GraphKeys.segment(vid, slot));
        }
        store.delete(GraphKeys.segmentSlots(vid));
    }
}
