package io.pragh.bench.traversal.history;

import io.pragh.store.ValueView;
import java.util.Locale;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * What a history keeps of an adjacency list (packed 8-byte neighbour ids) instead of its bytes: its length, a
 * polynomial hash over its entries, and its last entry. A hot list of thousands of entries read thousands of times
 * then costs a few bytes a read, and the digest still follows a capped append exactly ({@link #cappedAppend}): the
 * hash of {@code list + n} is {@code hash * BASE + term(n)}, and replacing the last entry {@code l} by {@code n} adds
 * {@code term(n) - term(l)}. A term is one multiplication, not a full mix: a hot list holds thousands of entries and
 * its digest is taken on the query thread at every sampled read. Lists that are not built to collide (neighbour ids
 * are not) collide with probability about 2^-64 per pair compared.
 *
 * <pre>{@code
 * AdjacencyDigest d = AdjacencyDigest.of(view);                  // what a GET read
 * AdjacencyDigest after = d.cappedAppend(neighbour, cap);        // what an edge insert makes of it
 * }</pre>
 *
 * @param length bytes of the value
 * @param hash   {@code sum of term(e_i) * BASE^(count - 1 - i)} over its entries, mod 2^64
 * @param last   its last entry (0 when it has none)
 */
public record AdjacencyDigest(int length, long hash, long last) {
    /** Bytes of {@link #encode()}. */
    public static final int BYTES = 20;
    /** Odd, so that the hash of a list does not lose its first entries' bits as it grows. */
    private static final long BASE = 0x9E3779B97F4A7C15L;
    private static final long SALT = 0x5DEECE66DL;
    /** Odd: a term is a bijection of the entry. */
    private static final long SPREAD = 0xC2B2AE3D27D4EB4FL;

    /** BASE^4: each of the four lanes of {@link #of(ValueView)} steps over four entries. */
    private static final long BASE4 = BASE * BASE * BASE * BASE;

    /**
     * The digest of the value a view shows. Four lanes take every fourth entry each, so that four multiplications
     * are in flight rather than one chain of them: a hub's list of thousands of entries is digested on the query
     * thread at every sampled read. With {@code k = 4m} entries, lane {@code r} holds
     * {@code sum_j term(e_4j+r) * BASE^(4(m-1-j))}, and the hash is {@code sum_r lane_r * BASE^(3-r)}.
     */
    public static AdjacencyDigest of(ValueView v) {
        int count = v.longCount();
        long h0 = 0;
        long h1 = 0;
        long h2 = 0;
        long h3 = 0;
        int i = 0;
        for (; i + 4 <= count; i += 4) {
            h0 = h0 * BASE4 + term(v.getLong(i));
            h1 = h1 * BASE4 + term(v.getLong(i + 1));
            h2 = h2 * BASE4 + term(v.getLong(i + 2));
            h3 = h3 * BASE4 + term(v.getLong(i + 3));
        }
        long h = ((h0 * BASE + h1) * BASE + h2) * BASE + h3;
        for (; i < count; i++) {
            h = h * BASE + term(v.getLong(i));
        }
        return new AdjacencyDigest(v.length(), h, count == 0 ? 0 : v.getLong(count - 1));
    }

    /** The digest of a value's bytes (as the loader PUT them). */
    public static AdjacencyDigest of(byte[] value) {
        return of(new ValueView().over(value));
    }

    /** The digest of a list of entries. */
    public static AdjacencyDigest ofEntries(long... entries) {
        byte[] b = new byte[entries.length * Long.BYTES];
        UnsafeBuffer buf = new UnsafeBuffer(b);
        for (int i = 0; i < entries.length; i++) {
            buf.putLong(i * Long.BYTES, entries[i]);
        }
        return of(b);
    }

    private static long term(long entry) {
        return (entry ^ SALT) * SPREAD;
    }

    /**
     * The digest after the benchmark's edge insert ({@code io.pragh.bench.extension.CappedAppend}): an empty or
     * absent list becomes {@code [neighbour]}; one of fewer than {@code cap} entries grows by it; a full one has its
     * last entry replaced by it.
     */
    public AdjacencyDigest cappedAppend(long neighbour, long cap) {
        int count = length / Long.BYTES;
        if (length <= 0) {
            return new AdjacencyDigest(Long.BYTES, term(neighbour), neighbour);
        }
        if (count < cap) {
            return new AdjacencyDigest(length + Long.BYTES, hash * BASE + term(neighbour), neighbour);
        }
        return new AdjacencyDigest(length, hash - term(last) + term(neighbour), neighbour);
    }

    /** The digest as {@value #BYTES} bytes, as a history's operation carries it. */
    public byte[] encode() {
        byte[] b = new byte[BYTES];
        UnsafeBuffer buf = new UnsafeBuffer(b);
        buf.putInt(0, length);
        buf.putLong(4, hash);
        buf.putLong(12, last);
        return b;
    }

    /** The digest {@link #encode()} made. */
    public static AdjacencyDigest decode(byte[] b) {
        if (b.length != BYTES) {
            throw new IllegalArgumentException("an adjacency digest has " + BYTES + " bytes, got " + b.length);
        }
        UnsafeBuffer buf = new UnsafeBuffer(b);
        return new AdjacencyDigest(buf.getInt(0), buf.getLong(4), buf.getLong(12));
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%d entries, last %d, hash %016x", length / Long.BYTES, last, hash);
    }
}
