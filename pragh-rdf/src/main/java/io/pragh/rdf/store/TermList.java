package io.pragh.rdf.store;

import io.pragh.store.ValueView;

import java.nio.ByteOrder;

/**
 * The value under an OUT or IN key of an RDF store: packed little-endian 8-byte term ids, sorted and without
 * duplicates when a load wrote it whole (a later load appends its own sorted run). Unlike the property graph's
 * 16-byte {@code Adjacency} entries there is no edge number: an RDF triple has no identity beyond its three terms,
 * so half the bytes per hop. A list longer than a segment leads with head entries naming its sealed segments
 * ({@link TermSegments}); the methods here read its body, the ids after them.
 *
 * <p>Example: {@code for (int i = 0, f = TermList.bodyFrom(v), n = TermList.count(v); i < n; i++) visit(TermList.term(v, f, i));}
 */
public final class TermList {
    public static final int ENTRY_BYTES = 8;

    private TermList() {
    }

    /** Body ids of a list read where it lies (a segmented list's tail: the ids after its heads); zero when absent. */
    public static int count(final ValueView list) {
        if (list == null) {
            return 0;
        }
        if (list.length() % ENTRY_BYTES != 0) {
            throw new IllegalStateException("term list of " + list.length() + " bytes is not a whole number of "
                + ENTRY_BYTES + "-byte ids");
        }
        return (list.length() - bodyFrom(list)) / ENTRY_BYTES;
    }

    /** Body id {@code index}: the id at {@code from + index * 8} where {@code from} is {@link #bodyFrom}. */
    public static long term(final ValueView list, final int from, final int index) {
        return list.buffer().getLong(list.offset() + from + index * ENTRY_BYTES, ByteOrder.LITTLE_ENDIAN);
    }

    /** The byte where the body starts: after the head entries of a segmented list's tail, else 0. */
    public static int bodyFrom(final ValueView list) {
        return TermSegments.heads(list) * TermSegments.HEAD_BYTES;
    }

    /** The body ids of a list as an array (empty when absent): what a step keeps once the GET's buffer is gone. */
    public static long[] toArray(final ValueView list) {
        final long[] ids = new long[count(list)];
        copyBody(list, ids, 0);
        return ids;
    }

    /** Copies the body ids into {@code into} from {@code at}; returns where the copy ended. */
    public static int copyBody(final ValueView list, final long[] into, final int at) {
        final int from = bodyFrom(list);
        final int n = count(list);
        for (int i = 0; i < n; i++) {
            into[at + i] = term(list, from, i);
        }
        return at + n;
    }

    /** The value of a list holding {@code ids[from..to)}. */
    public static byte[] encode(final long[] ids, final int from, final int to) {
        final byte[] value = new byte[(to - from) * ENTRY_BYTES];
        final java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(value).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = from; i < to; i++) {
            b.putLong(ids[i]);
        }
        return value;
    }
}
