package io.pragh.rdf.store;

import io.pragh.store.ValueView;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The value under a TERM_HASH key: every (term, id) pair whose term hashes to the key, so a string finds its id with
 * one GET whatever the collisions. Entries are appended (a load adds its new terms with the store's APPEND mutator),
 * each laid out as:
 *
 * <pre>
 *   0        8        12
 *   +--------+--------+---------------------+
 *   | id:i64 | len:i32| N-Triples form UTF-8 |  (len bytes)
 *   +--------+--------+---------------------+
 * </pre>
 *
 * <p>Example: {@code long id = HashBucket.find(bucket, utf8);  // -1 when absent}
 */
public final class HashBucket {
    private static final int HEADER = 12;

    private HashBucket() {
    }

    /** The 44-bit hash that names a term's bucket: FNV-1a over its UTF-8 form, mixed, so close forms spread. */
    public static long hash44(final byte[] utf8) {
        long h = 0xcbf29ce484222325L;
        for (final byte b : utf8) {
            h ^= b & 0xff;
            h *= 0x100000001b3L;
        }
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        return h & RdfKeys.MAX_TERM;
    }

    /** The bytes one pair adds to a bucket. */
    public static byte[] entry(final byte[] utf8, final long id) {
        final byte[] e = new byte[HEADER + utf8.length];
        final java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(e).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(id).putInt(utf8.length).put(utf8);
        return e;
    }

    /** The id paired with {@code utf8} in a bucket read where it lies, or -1 (also for an absent bucket). */
    public static long find(final ValueView bucket, final byte[] utf8) {
        if (bucket == null) {
            return -1;
        }
        final org.agrona.DirectBuffer buf = bucket.buffer();
        final int end = bucket.offset() + bucket.length();
        int at = bucket.offset();
        while (at + HEADER <= end) {
            final int len = buf.getInt(at + 8, ByteOrder.LITTLE_ENDIAN);
            if (len < 0 || at + HEADER + len > end) {
                throw new IllegalStateException("term hash bucket is corrupt: an entry of " + len + " bytes at "
                    + (at - bucket.offset()) + " passes its end (" + bucket.length() + " bytes)");
            }
            if (len == utf8.length && equalAt(buf, at + HEADER, utf8)) {
                return buf.getLong(at, ByteOrder.LITTLE_ENDIAN);
            }
            at += HEADER + len;
        }
        return -1;
    }

    private static boolean equalAt(final org.agrona.DirectBuffer buf, final int at, final byte[] utf8) {
        for (int i = 0; i < utf8.length; i++) {
            if (buf.getByte(at + i) != utf8[i]) {
                return false;
            }
        }
        return true;
    }

    static byte[] utf8(final String form) {
        return form.getBytes(StandardCharsets.UTF_8);
    }
}
