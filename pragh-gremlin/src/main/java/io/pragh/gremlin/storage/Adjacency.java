package io.pragh.gremlin.storage;

/**
 * The value under an OUT or IN key (vertex, edge label): packed 16-byte entries {@code neighbourVid:i64,
 * edgeId:i64}, in insertion order. An edge is added by appending its entry at the value's host (the store's APPEND
 * mutator), so concurrent inserts never overwrite each other; it is removed by {@link GraphMutations#REMOVE_EDGE}.
 *
 * <p>Example: {@code for (int i = 0; i < Adjacency.count(v); i++) visit(Adjacency.neighbour(v, i));}
 */
public final class Adjacency {
    public static final int ENTRY_BYTES = 16;

    private Adjacency() {
    }

    /** The bytes to append for one edge. */
    public static byte[] entry(final long neighbourVid, final long edgeId) {
        return new ByteWriter(ENTRY_BYTES).putLong(neighbourVid).putLong(edgeId).toByteArray();
    }

    /** Entries in {@code value}; zero for an absent (null) value. */
    public static int count(final byte[] value) {
        return value == null ? 0 : countOfLength(value.length);
    }

    /**
     * Entries in a value of {@code bytes} bytes: what a reader of the value where it lies (a flyweight over the GET's
     * buffer) counts without copying it.
     *
     * @throws CorruptRecordException when {@code bytes} is not a whole number of entries
     */
    public static int countOfLength(final int bytes) {
        if (bytes % ENTRY_BYTES != 0) {
            throw new CorruptRecordException("adjacency value of " + bytes + " bytes is not a whole number of "
                + ENTRY_BYTES + "-byte entries");
        }
        return bytes / ENTRY_BYTES;
    }

    /** Where entry {@code index}'s neighbour id (a little-endian long) starts, from the value's first byte. */
    public static int neighbourOffset(final int index) {
        return index * ENTRY_BYTES;
    }

    public static long neighbour(final byte[] value, final int index) {
        return ByteReader.longAt(value, neighbourOffset(index));
    }

    public static long edgeId(final byte[] value, final int index) {
        return ByteReader.longAt(value, index * ENTRY_BYTES + 8);
    }
}
