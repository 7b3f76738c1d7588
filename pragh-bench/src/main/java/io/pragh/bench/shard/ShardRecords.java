package io.pragh.bench.shard;

import org.agrona.DirectBuffer;

/**
 * The encoding of a batch of records moved with a shard, the same in memory and on the wire:
 * {@code | count (4) | count x ( key (8) | version (8) | length (4) | value (length) ) |}, in the byte order of every
 * other operand of the client protocol (Agrona's buffers). {@link #check} refuses a malformed batch as a whole, before anything is loaded.
 *
 * <pre>{@code
 * String problem = ShardRecords.check(buffer, 0, length, maxValueBytes);
 * if (problem == null) {
 *     ShardRecords.forEach(buffer, 0, (key, version, value, offset, len) -> store.load(key, version, value, offset, len));
 * }
 * }</pre>
 */
public final class ShardRecords {
    /** The count in front of the records. */
    public static final int HEADER_BYTES = 4;
    /** Key, version and length in front of each value. */
    public static final int RECORD_HEADER_BYTES = 20;

    /** Receives the records of a batch. */
    @FunctionalInterface
    public interface Visitor {
        void record(long key, long version, DirectBuffer value, int offset, int length);
    }

    private ShardRecords() {
    }

    /** Why {@code length} bytes at {@code offset} are not a well-formed batch, or null when they are one. */
    public static String check(DirectBuffer b, int offset, int length, int maxValueBytes) {
        if (length < HEADER_BYTES) {
            return "a record batch of " + length + " bytes (needs a record count of 4 bytes)";
        }
        int count = count(b, offset);
        if (count < 0) {
            return "a record batch with a negative record count (" + count + ")";
        }
        int at = offset + HEADER_BYTES;
        int end = offset + length;
        for (int i = 0; i < count; i++) {
            if (end - at < RECORD_HEADER_BYTES) {
                return "record " + i + " of " + count + " is cut short (" + (end - at) + " bytes left, a record"
                    + " header is " + RECORD_HEADER_BYTES + ")";
            }
            int len = b.getInt(at + 16);
            if (len < 0 || len > maxValueBytes) {
                return "record " + i + " of " + count + " (key " + b.getLong(at) + ") has a value of " + len
                    + " bytes (0.." + maxValueBytes + ")";
            }
            if (end - at - RECORD_HEADER_BYTES < len) {
                return "record " + i + " of " + count + " (key " + b.getLong(at) + ") is cut short: " + len
                    + " value bytes announced, " + (end - at - RECORD_HEADER_BYTES) + " left";
            }
            at += RECORD_HEADER_BYTES + len;
        }
        if (at != end) {
            return (end - at) + " bytes after the last of " + count + " records";
        }
        return null;
    }

    public static int count(DirectBuffer b, int offset) {
        return b.getInt(offset);
    }

    /** Visits the records of a batch that passed {@link #check}. */
    public static void forEach(DirectBuffer b, int offset, Visitor visitor) {
        int count = count(b, offset);
        int at = offset + HEADER_BYTES;
        for (int i = 0; i < count; i++) {
            int len = b.getInt(at + 16);
            visitor.record(b.getLong(at), b.getLong(at + 8), b, at + RECORD_HEADER_BYTES, len);
            at += RECORD_HEADER_BYTES + len;
        }
    }

    /** The value bytes of all records of a batch that passed {@link #check}. */
    public static long valueBytes(DirectBuffer b, int offset) {
        long[] sum = {0};
        forEach(b, offset, (key, version, value, off, len) -> sum[0] += len);
        return sum[0];
    }
}
