package io.pragh.consistency;

/**
 * The self-describing values the history tests PUT: each names the key it was written to and a unique write id
 * (writer, sequence number), and carries a padding whose every byte is derived from both, so that a value read back
 * says which write produced it and whether it arrived whole. Lengths vary with the id, so records of one key move
 * between size classes and the allocator reuses memory across keys.
 *
 * <pre>
 *  | key: 8 bytes | writer: 4 bytes | sequence: 4 bytes | padding: 0..47 bytes, byte i = f(key, id, i) |
 * </pre>
 *
 * <pre>{@code
 * byte[] v = WrittenValue.encode(key, WrittenValue.id(3, 41));
 * WrittenValue.Decoded d = WrittenValue.decode(v);   // d.key() == key, d.id() == id(3, 41)
 * }</pre>
 */
final class WrittenValue {
    static final int FIXED_BYTES = 16;
    static final int MAX_PADDING = 47;

    /** A decoded value, or the reason it does not decode ({@code problem} non-null). */
    record Decoded(long key, long id, String problem) {
    }

    private WrittenValue() {
    }

    static long id(int writer, int sequence) {
        return ((long) writer << 32) | (sequence & 0xFFFF_FFFFL);
    }

    static String describe(long id) {
        return "write " + (id >>> 32) + "#" + (int) id;
    }

    static byte[] encode(long key, long id) {
        int padding = (int) Long.remainderUnsigned(id * 0x9E37_79B9_7F4A_7C15L, MAX_PADDING + 1);
        byte[] v = new byte[FIXED_BYTES + padding];
        putLong(v, 0, key);
        putLong(v, 8, id);
        for (int i = 0; i < padding; i++) {
            v[FIXED_BYTES + i] = padByte(key, id, i);
        }
        return v;
    }

    static Decoded decode(byte[] v) {
        if (v.length < FIXED_BYTES || v.length > FIXED_BYTES + MAX_PADDING) {
            return new Decoded(0, 0, "a value of " + v.length + " bytes, which no PUT of this test writes");
        }
        long key = getLong(v, 0);
        long id = getLong(v, 8);
        if (!java.util.Arrays.equals(v, encode(key, id))) {
            return new Decoded(key, id, "a torn or corrupt value (header says key " + key + ", " + describe(id)
                + ", but its length or padding does not match)");
        }
        return new Decoded(key, id, null);
    }

    private static byte padByte(long key, long id, int i) {
        return (byte) (key * 31 + id * 17 + i * 13 + (id >>> 32));
    }

    private static void putLong(byte[] b, int at, long v) {
        for (int i = 0; i < 8; i++) {
            b[at + i] = (byte) (v >>> (56 - 8 * i));
        }
    }

    private static long getLong(byte[] b, int at) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (b[at + i] & 0xFF);
        }
        return v;
    }
}
