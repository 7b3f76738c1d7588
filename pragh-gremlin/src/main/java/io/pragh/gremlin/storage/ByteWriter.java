package io.pragh.gremlin.storage;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A growable little-endian byte sink that the record codecs write into.
 *
 * <p>Example: {@code ByteWriter w = new ByteWriter(16); w.putLong(42L); byte[] bytes = w.toByteArray();}
 */
public final class ByteWriter {
    private static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private byte[] bytes;
    private int position;

    /** A writer whose first buffer holds {@code initialCapacity} bytes; it grows as needed. */
    public ByteWriter(final int initialCapacity) {
        this.bytes = new byte[Math.max(8, initialCapacity)];
    }

    /** Bytes written so far. */
    public int position() {
        return position;
    }

    /** Forgets what was written, keeping the buffer. */
    public ByteWriter reset() {
        position = 0;
        return this;
    }

    public ByteWriter putByte(final int v) {
        ensure(1);
        bytes[position++] = (byte) v;
        return this;
    }

    public ByteWriter putShort(final int v) {
        ensure(2);
        SHORT.set(bytes, position, (short) v);
        position += 2;
        return this;
    }

    public ByteWriter putInt(final int v) {
        ensure(4);
        INT.set(bytes, position, v);
        position += 4;
        return this;
    }

    public ByteWriter putLong(final long v) {
        ensure(8);
        LONG.set(bytes, position, v);
        position += 8;
        return this;
    }

    public ByteWriter putBytes(final byte[] src) {
        return putBytes(src, 0, src.length);
    }

    public ByteWriter putBytes(final byte[] src, final int offset, final int length) {
        ensure(length);
        System.arraycopy(src, offset, bytes, position, length);
        position += length;
        return this;
    }

    /** Overwrites an int already written at {@code at} (used to back-fill a length). */
    public void putIntAt(final int at, final int v) {
        INT.set(bytes, at, v);
    }

    /** Writes {@code v} into {@code bytes} at {@code offset}, in this class's byte order, without a writer. */
    public static void putLongAt(final byte[] bytes, final int offset, final long v) {
        LONG.set(bytes, offset, v);
    }

    /** A copy of the bytes written so far. */
    public byte[] toByteArray() {
        return Arrays.copyOf(bytes, position);
    }

    private void ensure(final int more) {
        final int needed = position + more;
        if (needed > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(needed, bytes.length * 2));
        }
    }
}
