package io.pragh.gremlin.storage;

/**
 * The stamp a sealed segment carries: the sealing token ({@link SealLease}) of the holder that wrote it, as one
 * leading head entry before the body entries. Segments are only ever written through {@link #write} (the mutator
 * SEGMENT_WRITE), which refuses a token below the stamp there: since a list's holders have increasing tokens, a
 * holder that lost the list to a takeover can no longer change a segment the taker wrote, so the slow sealer's late
 * write neither corrupts a committed segment nor leaks a second one.
 *
 * <pre>
 *   a sealed segment: [ STAMP head entry (token) ] body entry ... body entry
 *   +-----------------+------------------+-------------------------+
 *   | HEAD|tag STAMP  | HEAD|token       | neighbour : i64 | edge : i64 | ...
 *   +-----------------+------------------+-------------------------+
 *   no stamp (segments a bulk load wrote whole) = stamp 0; a stamp alone = a freed slot, fenced
 * </pre>
 *
 * Readers skip the stamp with one test of the first long ({@link #bodyFrom(long, int)}): a segment is read as before.
 *
 * <p>Example: {@code store.update(GraphKeys.segment(vid, slot), GraphMutations.SEGMENT_WRITE, SegmentStamp.writeArgument(token, entries, from, length));}
 */
public final class SegmentStamp {
    private SegmentStamp() {
    }

    /** The argument of SEGMENT_WRITE: {@code token:i64} then the body entries ({@code length} bytes from {@code from}). */
    public static byte[] writeArgument(final long token, final byte[] entries, final int from, final int length) {
        final byte[] arg = new byte[8 + length];
        ByteWriter.putLongAt(arg, 0, token);
        System.arraycopy(entries, from, arg, 8, length);
        return arg;
    }

    /**
     * SEGMENT_WRITE: the stamp of {@code token} and the argument's entries replace the segment, unless it carries a
     * larger stamp (a later holder of the list wrote it); an empty entry list frees the slot and leaves the stamp as
     * its fence. A bulk-loaded segment (no stamp) takes any token.
     */
    static byte[] write(final byte[] cur, final byte[] arg) {
        final long token = ByteReader.longAt(arg, 0);
        if (stamp(cur) > token) {
            return cur;
        }
        final byte[] out = new byte[Adjacency.ENTRY_BYTES + arg.length - 8];
        AdjacencySegments.putHead(out, 0, AdjacencySegments.STAMP, token);
        System.arraycopy(arg, 8, out, Adjacency.ENTRY_BYTES, arg.length - 8);
        return out;
    }

    /** The token that wrote the segment, or 0 (none, or a segment a bulk load wrote). */
    public static long stamp(final byte[] segment) {
        return bodyFrom(segment) == 0 ? 0 : AdjacencySegments.payload(Adjacency.edgeId(segment, 0));
    }

    /** The first body entry of a segment: 1 after a stamp, else 0. */
    public static int bodyFrom(final byte[] segment) {
        return Adjacency.count(segment) > 0 && AdjacencySegments.isHead(Adjacency.neighbour(segment, 0)) ? 1 : 0;
    }

    /**
     * The first body entry of a segment of {@code length} bytes whose first long is {@code first} (read where the
     * GET left the value): 1 after a stamp, else 0.
     */
    public static int bodyFrom(final long first, final int length) {
        return length >= Adjacency.ENTRY_BYTES && AdjacencySegments.isHead(first) ? 1 : 0;
    }

    /** Body entries of a segment: what a reader lists from it (0 for a freed slot or none). */
    public static int entries(final byte[] segment) {
        return Adjacency.count(segment) - bodyFrom(segment);
    }
}
