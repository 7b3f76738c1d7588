package io.pragh.gremlin.storage;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A little-endian cursor over a byte array, the reading side of {@link ByteWriter}. Reading past the end throws
 * {@link CorruptRecordException} rather than returning garbage.
 *
 * <p>Example: {@code long v = new ByteReader(bytes).getLong();}
 */
public final class ByteReader {
    private static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final byte[] bytes;
    private final int limit;
    private int position;

    public ByteReader(final byte[] bytes) {
        this(bytes, 0, bytes.length);
    }

    public ByteReader(final byte[] bytes, final int offset, final int length) {
        this.bytes = bytes;
        this.position = offset;
        this.limit = offset + length;
    }

    public int position() {
        return position;
    }

    public boolean hasRemaining() {
        return position < limit;
    }

    public int getByte() {
        need(1);
        return bytes[position++];
    }

    /** An unsigned 16-bit value. */
    public int getShort() {
        need(2);
        final int v = (short) SHORT.get(bytes, position) & 0xFFFF;
        position += 2;
        return v;
    }

    public short getSignedShort() {
        need(2);
        final short v = (short) SHORT.get(bytes, position);
        position += 2;
        return v;
    }

    public int getInt() {
        need(4);
        final int v = (int) INT.get(bytes, position);
        position += 4;
        return v;
    }

    public long getLong() {
        need(8);
        final long v = (long) LONG.get(bytes, position);
        position += 8;
        return v;
    }

    public byte[] getBytes(final int length) {
        if (length < 0) {
            throw new CorruptRecordException("negative length " + length + " at byte " + position);
        }
        need(length);
        final byte[] out = Arrays.copyOfRange(bytes, position, position + length);
        position += length;
        return out;
    }

    public void skip(final int length) {
        need(length);
        position += length;
    }

    /** The long at an absolute little-endian offset of {@code bytes}, for scanning packed arrays without a cursor. */
    public static long longAt(final byte[] bytes, final int offset) {
        return (long) LONG.get(bytes, offset);
    }

    private void need(final int n) {
        if (n > limit - position) {
            throw new CorruptRecordException("record ends at byte " + limit + " but " + n + " more bytes were expected at " + position);
        }
    }
}
