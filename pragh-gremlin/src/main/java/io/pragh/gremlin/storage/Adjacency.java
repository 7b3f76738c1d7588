package io.pragh.gremlin.storage;

/**
 * The value under an OUT or IN key (vertex, edge label): packed 16-byte entries {@code neighbourVid:i64,
 * edgeNumber:i64}, in insertion order. An edge is added by appending its entry at the value's host (the store's APPEND
 * mutator), so concurrent inserts never overwrite each other; it is removed by {@link GraphMutations#REMOVE_EDGE}.
 *
 * <pre>
 *   edge number (the second long of an entry; the same in the edge's OUT and IN entry)
 *    63  62  61 .. 44   43 ............................. 0
 *   +---+---+----------+----------------------------------+
 *   | 0 | C |    0     |  number, unique in the store      |
 *   +---+---+----------+----------------------------------+
 * </pre>
 *
 * C ({@link #COMPACT}) set: the edge's id is compact, {@code (out vid, label, number)}, found from its out-vertex's
 * OUT list, and the edge has no EDGE_INDEX record; so a property-less edge costs its two entries and nothing else.
 * C clear: the id is the number itself (a user-supplied id, or one written before compact ids), found through its
 * {@link EdgeIndexRecord}. Numbers come from the store's id blocks or are user-supplied ids, which the blocks skip,
 * so a number names one edge of the whole store.
 *
 * <p>Example: {@code for (int i = 0; i < Adjacency.count(v); i++) visit(Adjacency.neighbour(v, i));}
 */
public final class Adjacency {
    public static final int ENTRY_BYTES = 16;
    /** The edge-number bit of edges with a compact id (no index record). */
    public static final long COMPACT = 1L << 62;

    private Adjacency() {
    }

    /** The bytes to append for one edge. */
    public static byte[] entry(final long neighbourVid, final long edgeNumber) {
        final byte[] entry = new byte[ENTRY_BYTES];
        ByteWriter.putLongAt(entry, 0, neighbourVid);
        ByteWriter.putLongAt(entry, 8, edgeNumber);
        return entry;
    }

    /** Whether an edge number (as entries carry it) belongs to an edge with a compact id and no index record. */
    public static boolean isCompact(final long edgeNumber) {
        return (edgeNumber & COMPACT) != 0;
    }

    /** The index of the entry carrying {@code edgeNumber} in {@code value}, or -1 when none does. */
    public static int indexOf(final byte[] value, final long edgeNumber) {
        for (int i = 0, n = count(value); i < n; i++) {
            if (edgeId(value, i) == edgeNumber) {
                return i;
            }
        }
        return -1;
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
