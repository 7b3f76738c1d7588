package io.pragh.rdf.store;

import io.pragh.store.ValueView;

import java.nio.ByteOrder;

/**
 * The value under an OUT or IN key of an RDF store: packed little-endian 8-byte term ids, sorted and without
 * duplicates when a load wrote it whole (a later load appends its own sorted run). Unlike the property graph's
 * 16-byte {@code Adjacency} entries there is no edge number: an RDF triple has no identity beyond its three terms,
 * so half the bytes per hop.
 *
 * <p>Example: {@code for (int i = 0, n = TermList.count(v); i < n; i++) visit(TermList.term(v, i));}
 */
public final class TermList {
    public static final int ENTRY_BYTES = 8;

    private TermList() {
    }

    /** Entries in a list read where it lies; zero when absent (null). */
    public static int count(final ValueView list) {
        if (list == null) {
            return 0;
        }
        if (list.length() % ENTRY_BYTES != 0) {
            throw new IllegalStateException("term list of " + list.length() + " bytes is not a whole number of "
                + ENTRY_BYTES + "-byte ids");
        }
        return list.length() / ENTRY_BYTES;
    }

    public static long term(final ValueView list, final int index) {
        return list.buffer().getLong(list.offset() + index * ENTRY_BYTES, ByteOrder.LITTLE_ENDIAN);
    }

    /** The ids of a list as an array (empty when absent): what a step keeps once the GET's buffer is gone. */
    public static long[] toArray(final ValueView list) {
        final long[] ids = new long[count(list)];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = term(list, i);
        }
        return ids;
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
