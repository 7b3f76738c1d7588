package io.pragh.gremlin.storage;

import java.util.concurrent.ThreadLocalRandom;

/**
 * The lease on a segmented list's sealing token ({@link AdjacencySegments}): one head entry of the tail that says
 * which sealer holds the list and until when, kept in the tail itself so it is as durable as the list (its changes
 * are the logged mutators SEAL_BEGIN, SEAL_COMMIT and COMPACT_COMMIT) and comes back with it after a restart.
 *
 * <pre>
 *   the SEALING head entry (16 bytes)
 *   +------+-----------------------+-------------+------+-----------------------------------+
 *   | 1    | expiry (ms) : 55 bits | tag SEALING | 1    | token : 63 bits                   |
 *   +------+-----------------------+-------------+------+-----------------------------------+
 *     bit 63 of both longs set (a head entry); expiry 0 = released (the entry stays, keeping the last token)
 * </pre>
 *
 * <p><b>Tokens grow.</b> A sealer takes the list with a token above the last one the entry holds ({@link #nextToken}),
 * and {@link #begin} refuses any other, so the holders of one list have increasing tokens in the order they held it.
 * That order is what fences a slow holder: a sealed segment carries the token that wrote it ({@link SegmentStamp})
 * and refuses a write with a smaller one, so once a later holder wrote a slot, an earlier holder's late write there
 * changes nothing; and the commit checks the token, so an earlier holder's late commit changes nothing either. The
 * entry is never dropped while the list lives, so a released list still knows its last token.
 *
 * <p><b>Takeover.</b> A holder that dies (its machine crashed, its thread was interrupted or stalls between writing a
 * segment and committing it) keeps the token only until its lease expires: then {@link #begin} lets a later sealer in
 * (an appender's check, or the sweep), which reuses or frees the segment the dead one left. Time is the caller's clock,
 * passed in the argument, so the mutator is deterministic when the log replays it; a skewed clock only makes a
 * takeover early or late, never unsafe, because safety rests on the token checks, not on the lease.
 *
 * <p>Example: {@code store.update(key, GraphMutations.SEAL_BEGIN, SealLease.beginArgument(SealLease.nextToken(tail), now, 30_000));}
 */
public final class SealLease {
    private static final long HEAD = Long.MIN_VALUE;
    /** Expiries are milliseconds in the 55 bits above the tag. */
    private static final long MAX_EXPIRY = (1L << 55) - 1;
    /** A next token is the last plus 1..2^32: room for 2^31 holders of one list, and two racing sealers rarely tie. */
    private static final long STRIDE = 1L << 32;

    private SealLease() {
    }

    /** The argument of SEAL_BEGIN: {@code token:i64, now:i64, leaseMillis:i64}. */
    public static byte[] beginArgument(final long token, final long nowMillis, final long leaseMillis) {
        if (token <= 0 || nowMillis < 0 || leaseMillis < 1 || nowMillis + leaseMillis > MAX_EXPIRY) {
            throw new IllegalArgumentException("a seal lease needs a token > 0, a time >= 0 and a lease >= 1 ms: token "
                + token + ", now " + nowMillis + ", lease " + leaseMillis);
        }
        return new ByteWriter(24).putLong(token).putLong(nowMillis).putLong(leaseMillis).toByteArray();
    }

    /** A token above the last one {@code tail} holds (held or released), for a sealer about to begin. */
    public static long nextToken(final byte[] tail) {
        final long last = lastToken(tail);
        if (last > Long.MAX_VALUE - 2 * STRIDE) {
            throw new IllegalStateException("a list's sealing tokens ran out at " + last);
        }
        return last + ThreadLocalRandom.current().nextLong(1, STRIDE);
    }

    /**
     * SEAL_BEGIN: takes the list for {@code token} when no sealer holds it (never one did, the last let go, or the
     * holder's lease expired before {@code now}) and the token is above the last; otherwise leaves it as it is. The
     * entry goes at the end of the head (after the slots and tombstones), or replaces the one there.
     */
    static byte[] begin(final byte[] cur, final byte[] arg) {
        if (cur == null) {
            return null;
        }
        final long token = ByteReader.longAt(arg, 0);
        // An 8-byte argument is a log written before leases: a lease that is over at once (nobody from then lives).
        final long now = arg.length >= 24 ? ByteReader.longAt(arg, 8) : 0;
        final long expiry = arg.length >= 24 ? now + ByteReader.longAt(arg, 16) : 1;
        final int at = entry(cur);
        if (at < 0) {
            final int h = AdjacencySegments.headEntries(cur) * Adjacency.ENTRY_BYTES;
            final byte[] out = new byte[cur.length + Adjacency.ENTRY_BYTES];
            System.arraycopy(cur, 0, out, 0, h);
            put(out, h, token, expiry);
            System.arraycopy(cur, h, out, h + Adjacency.ENTRY_BYTES, cur.length - h);
            return out;
        }
        final long held = expiryAt(cur, at);
        if (held != 0 && held > now || token <= tokenAt(cur, at)) {
            return cur;
        }
        final byte[] out = cur.clone();
        put(out, at * Adjacency.ENTRY_BYTES, token, expiry);
        return out;
    }

    /** Writes a SEALING entry at byte {@code offset}; expiry 0 = released. */
    static void put(final byte[] into, final int offset, final long token, final long expiry) {
        ByteWriter.putLongAt(into, offset, HEAD | expiry << 8 | AdjacencySegments.SEALING);
        ByteWriter.putLongAt(into, offset + 8, HEAD | token);
    }

    /** Writes entry {@code i} of {@code list}, a SEALING entry, as released (same token) at byte {@code offset}. */
    static void putReleased(final byte[] into, final int offset, final byte[] list, final int i) {
        put(into, offset, tokenAt(list, i), 0);
    }

    /** Whether {@code token} holds the list now (its lease may have run out: nobody took over yet). */
    static boolean holds(final byte[] list, final long token) {
        final int at = entry(list);
        return at >= 0 && expiryAt(list, at) != 0 && tokenAt(list, at) == token;
    }

    /** The token of the sealer holding the list, or 0 when none does. */
    public static long holder(final byte[] list) {
        final int at = entry(list);
        return at < 0 || expiryAt(list, at) == 0 ? 0 : tokenAt(list, at);
    }

    /** The holder's lease end in the clock of the sealer that took it (ms), or 0 when no sealer holds the list. */
    public static long expiry(final byte[] list) {
        final int at = entry(list);
        return at < 0 ? 0 : expiryAt(list, at);
    }

    /** The last token that held the list (held now or let go), or 0 when none ever did. */
    public static long lastToken(final byte[] list) {
        final int at = entry(list);
        return at < 0 ? 0 : tokenAt(list, at);
    }

    /** Whether a sealer may take the list at {@code now}: nobody holds it, or the holder's lease is over. */
    public static boolean open(final byte[] list, final long nowMillis) {
        final long expiry = expiry(list);
        return expiry == 0 || expiry <= nowMillis;
    }

    /** The index of the SEALING head entry, or -1. */
    private static int entry(final byte[] list) {
        for (int i = 0, h = AdjacencySegments.headEntries(list); i < h; i++) {
            if (AdjacencySegments.tag(Adjacency.neighbour(list, i)) == AdjacencySegments.SEALING) {
                return i;
            }
        }
        return -1;
    }

    private static long expiryAt(final byte[] list, final int i) {
        return (Adjacency.neighbour(list, i) & ~HEAD) >>> 8;
    }

    private static long tokenAt(final byte[] list, final int i) {
        return AdjacencySegments.payload(Adjacency.edgeId(list, i));
    }
}
