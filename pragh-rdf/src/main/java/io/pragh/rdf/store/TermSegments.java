package io.pragh.rdf.store;

import io.pragh.gremlin.storage.AdjacencySegments;
import io.pragh.gremlin.storage.GraphKeys;
import io.pragh.keys.KeyLayout;
import io.pragh.store.ValueView;

import java.nio.ByteOrder;

/**
 * Supernodes of an RDF store: a {@link TermList} longer than a segment (the index vertex's lists, a class's
 * {@code (T, rdf:type, IN)}) kept as <em>sealed segments</em> under keys of their own plus a <em>tail</em> under the
 * list's own key, as the property graph keeps its supernodes ({@link AdjacencySegments}), with the same head entry
 * shape, segment keys ({@link GraphKeys#segment}) and slot record ({@link GraphKeys#segmentSlots}, claimed with the
 * store's SEGMENT_SLOT mutator), so one vertex's slots never collide whichever model wrote them. A load writes or
 * appends one segment at a time, whatever the list's length, and a reader gets the tail in one batch of GETs and then
 * every segment of every segmented list of the frontier in one more.
 *
 * <pre>
 *   the tail (value under RdfKeys.out/in(term, p)): head entries (16 bytes each) first, then body ids (8 bytes each)
 *   +------------------------+----------------------------------------+-----+------------+------------+-----
 *   | HEAD|SEGMENT : i64     | HEAD| entries:32 | slot:16 : i64       | ... | term : i64 | term : i64 | ...
 *   +------------------------+----------------------------------------+-----+------------+------------+-----
 *   a sealed segment (value under GraphKeys.segment(term, slot)): body ids only, sorted
 *   slot tag in the term's slot record: AdjacencySegments.slotTag(RdfKeys.OUT | IN, p, ordinal)
 * </pre>
 *
 * A head entry is told from a body id by its sign (term ids are never negative), so an ordinary list costs a reader
 * one load and one branch. Unlike the property graph's head, the payload carries the segment's length beside its slot:
 * a walk choosing its start counts a list from its tail alone. Segments have no stamp and the tail has no sealing
 * lease: RDF lists change only by loads, which run one at a time ({@code RdfLoad}), so a tail has one writer.
 *
 * <p>Example: {@code for (int h = 0; h < TermSegments.heads(tail); h++) keys[h] = TermSegments.segmentKey(key, TermSegments.slot(tail, h));}
 */
public final class TermSegments {
    /** Ids of a sealed segment (512 KiB); a longer list is segmented. */
    public static final int DEFAULT_SEGMENT_ENTRIES = 1 << 16;
    /** The longest segment a head entry can describe. */
    public static final int MAX_SEGMENT_ENTRIES = Integer.MAX_VALUE / TermList.ENTRY_BYTES;
    /** Bytes of one head entry: two ids' worth. */
    public static final int HEAD_BYTES = 16;
    private static final long HEAD = Long.MIN_VALUE;

    private TermSegments() {
    }

    /** Head entries leading the list (0 for an ordinary list, or null). */
    public static int heads(final ValueView list) {
        if (list == null) {
            return 0;
        }
        int h = 0;
        while ((h + 1) * HEAD_BYTES <= list.length() && list.buffer().getLong(list.offset() + h * HEAD_BYTES,
            ByteOrder.LITTLE_ENDIAN) < 0) {
            h++;
        }
        return h;
    }

    /** The slot of the segment head entry {@code head} names. */
    public static int slot(final ValueView list, final int head) {
        return (int) (payload(list, head) & 0xFFFF);
    }

    /** The ids in the segment head entry {@code head} names. */
    public static int entries(final ValueView list, final int head) {
        return (int) (payload(list, head) >>> 16);
    }

    private static long payload(final ValueView list, final int head) {
        return list.buffer().getLong(list.offset() + head * HEAD_BYTES + 8, ByteOrder.LITTLE_ENDIAN) & ~HEAD;
    }

    /** Every id of the list, sealed segments and tail body together, counted from the tail alone. */
    public static long total(final ValueView list) {
        final int h = heads(list);
        long n = TermList.count(list);
        for (int i = 0; i < h; i++) {
            n += entries(list, i);
        }
        return n;
    }

    /** The head entry naming a segment of {@code entries} ids at {@code slot}. */
    public static byte[] head(final int slot, final int entries) {
        if (slot < 1 || slot > AdjacencySegments.MAX_SLOTS || entries < 1) {
            throw new IllegalArgumentException("a segment head needs a slot in 1.." + AdjacencySegments.MAX_SLOTS
                + " and at least one id: slot " + slot + ", " + entries + " ids");
        }
        final byte[] head = new byte[HEAD_BYTES];
        AdjacencySegments.putHead(head, 0, AdjacencySegments.SEGMENT, (long) entries << 16 | slot);
        return head;
    }

    /** The key of the segment at {@code slot} of the list under {@code listKey}: at the list's home. */
    public static long segmentKey(final long listKey, final int slot) {
        return GraphKeys.segment(KeyLayout.vid(listKey), slot);
    }

    /** The key of the slot record of the list's term. */
    public static long slotsKey(final long listKey) {
        return GraphKeys.segmentSlots(KeyLayout.vid(listKey));
    }

    /** The tag of the list's {@code ordinal}-th segment in its term's slot record. */
    public static long slotTag(final long listKey, final int ordinal) {
        return AdjacencySegments.slotTag(KeyLayout.kind(listKey), KeyLayout.label(listKey), ordinal);
    }
}
