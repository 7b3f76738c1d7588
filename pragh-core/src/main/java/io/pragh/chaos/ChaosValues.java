package io.pragh.chaos;

import io.pragh.linearizability.Operation;
import java.nio.ByteBuffer;

/**
 * Self-describing values: a PUT's value names its key, its writer and the writer's sequence number, then pads to a
 * length derived from both (so one key's records move between size classes and the allocator reuses memory across
 * keys); an APPEND adds one 8-byte id naming its writer and sequence number. A value read back says which writes
 * produced it, so a violation report reads as a story rather than hex.
 *
 * <pre>
 *  PUT value:  | key: 8 bytes | writer: 4 | sequence: 4 | padding: 0..(maxPadding) bytes, byte i = f(key, writer, i) |
 *  APPEND id:  | 0xA1 | writer: 3 bytes | sequence: 4 |      (the marker byte tells ids from a PUT's key)
 * </pre>
 *
 * <pre>{@code
 * byte[] v = ChaosValues.put(key, 3, 41, 47);
 * String s = ChaosValues.FORMAT.describe(v);    // "PUT 3#41 of key ..."
 * }</pre>
 */
public final class ChaosValues {
    public static final int PUT_HEADER_BYTES = 16;
    public static final int APPEND_BYTES = 8;
    private static final int ID_MARKER = 0xA1;
    /** Renders values of this class; anything else in hex. */
    public static final Operation.ValueFormat FORMAT = ChaosValues::describe;

    private ChaosValues() {
    }

    /** A PUT's value, padded by 0..{@code maxPadding} bytes depending on the write. */
    public static byte[] put(long key, int writer, int sequence, int maxPadding) {
        int padding = maxPadding <= 0 ? 0
            : (int) Long.remainderUnsigned((((long) writer << 32) | sequence) * 0x9E3779B97F4A7C15L, maxPadding + 1);
        return putPadded(key, writer, sequence, padding);
    }

    /** A PUT's value with exactly {@code padding} bytes of padding. */
    public static byte[] putPadded(long key, int writer, int sequence, int padding) {
        ByteBuffer b = ByteBuffer.allocate(PUT_HEADER_BYTES + padding);
        b.putLong(key).putInt(writer).putInt(sequence);
        for (int i = 0; i < padding; i++) {
            b.put((byte) (key * 31 + writer * 17 + i * 13 + sequence));
        }
        return b.array();
    }

    /** An APPEND's id. */
    public static byte[] append(int writer, int sequence) {
        if (writer < 0 || writer > 0xFF_FFFF) {
            throw new IllegalArgumentException("writer must fit 24 bits, got " + writer);
        }
        return ByteBuffer.allocate(APPEND_BYTES).putInt(ID_MARKER << 24 | writer).putInt(sequence).array();
    }

    /**
     * "PUT w#s of key k (n bytes)", followed by the ids appended to it, for a PUT's value; "[w#s ...]" for appended
     * ids alone; hex for anything else.
     */
    public static String describe(byte[] v) {
        if (v.length >= PUT_HEADER_BYTES && (v[0] & 0xFF) != ID_MARKER) {
            ByteBuffer b = ByteBuffer.wrap(v);
            long key = b.getLong();
            int writer = b.getInt();
            int sequence = b.getInt();
            // The longest padding that matches, with whole appended ids after it.
            for (int padding = v.length - PUT_HEADER_BYTES; padding >= 0; padding--) {
                int end = PUT_HEADER_BYTES + padding;
                if ((v.length - end) % APPEND_BYTES != 0) {
                    continue;
                }
                byte[] expected = putPadded(key, writer, sequence, padding);
                if (java.util.Arrays.equals(v, 0, end, expected, 0, end)) {
                    return "PUT " + writer + "#" + sequence + " of key " + key + " (" + end + " bytes)"
                        + (end == v.length ? "" : " + [" + ids(v, end) + "]");
                }
            }
        }
        if (v.length % APPEND_BYTES == 0) {
            return "[" + ids(v, 0) + "]";
        }
        return Operation.ValueFormat.HEX.describe(v);
    }

    private static String ids(byte[] v, int from) {
        StringBuilder s = new StringBuilder();
        ByteBuffer b = ByteBuffer.wrap(v);
        for (int at = from; at + APPEND_BYTES <= v.length; at += APPEND_BYTES) {
            if (s.length() > 0) {
                s.append(' ');
            }
            s.append(b.getInt(at) & 0xFF_FFFF).append('#').append(b.getInt(at + 4));
        }
        return s.toString();
    }
}
