package io.pragh.fabric.tcp;

import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.UnsafeAccess;
import org.agrona.concurrent.AtomicBuffer;

/**
 * Copies between Netty buffers and Agrona buffers (user buffers, region chunks) without intermediate arrays:
 * one {@code Unsafe.copyMemory} from base object plus offset to base object plus offset, whether each side is on
 * or off the heap. Like {@code ChunkedRegion.getBytes}, an aligned 8-byte word is copied whole, so a peer reading
 * a header word sees it before or after a concurrent store, never torn.
 */
final class ByteBufView {
    private static final long ARRAY_BASE = UnsafeAccess.UNSAFE.arrayBaseOffset(byte[].class);
    private static final boolean NATIVE_LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    private ByteBufView() {
    }

    /** Appends {@code length} bytes of {@code src} at {@code buf}'s writer index. */
    static void appendFrom(ByteBuf buf, DirectBuffer src, int srcOffset, int length) {
        buf.ensureWritable(length);
        int at = buf.writerIndex();
        copy(src, srcOffset, buf, at, length);
        buf.writerIndex(at + length);
    }

    /**
     * Appends {@code length} bytes of a region chunk, as a READ returns them: like {@code ChunkedRegion.getBytes},
     * the first aligned word is read first, with acquire semantics, and the rest after, so a copy of a value record
     * holds every byte below the length its header states even while the record grows in place ({@code ValueRecord},
     * "Appends in place").
     */
    static void appendRegionFrom(ByteBuf buf, AtomicBuffer chunk, int index, int length) {
        if (length < 8 || ((chunk.addressOffset() + index) & 7) != 0) {
            appendFrom(buf, chunk, index, length);
            return;
        }
        buf.ensureWritable(length);
        int at = buf.writerIndex();
        long first = chunk.getLongVolatile(index);
        copy(chunk, index + 8, buf, at + 8, length - 8);
        if (NATIVE_LITTLE_ENDIAN) {
            buf.setLongLE(at, first);
        } else {
            buf.setLong(at, first);
        }
        buf.writerIndex(at + length);
    }

    /** Copies {@code length} bytes from {@code src} into {@code dst} at an absolute index. */
    static void copy(DirectBuffer src, int srcOffset, ByteBuf dst, int dstIndex, int length) {
        src.boundsCheck(srcOffset, length);
        if (dstIndex < 0 || dstIndex + length > dst.capacity()) {
            throw new IndexOutOfBoundsException("copy of " + length + " bytes at " + dstIndex + " exceeds a buffer of "
                + dst.capacity());
        }
        if (dst.hasMemoryAddress()) {
            UnsafeAccess.UNSAFE.copyMemory(src.byteArray(), src.addressOffset() + srcOffset, null,
                dst.memoryAddress() + dstIndex, length);
        } else if (dst.hasArray()) {
            UnsafeAccess.UNSAFE.copyMemory(src.byteArray(), src.addressOffset() + srcOffset, dst.array(),
                ARRAY_BASE + dst.arrayOffset() + dstIndex, length);
        } else {
            byte[] tmp = new byte[length];
            src.getBytes(srcOffset, tmp);
            dst.setBytes(dstIndex, tmp);
        }
    }

    /** Copies {@code length} bytes from {@code src} at an absolute index into {@code dst}. */
    static void copy(ByteBuf src, int srcIndex, MutableDirectBuffer dst, int dstOffset, int length) {
        dst.boundsCheck(dstOffset, length);
        if (srcIndex < 0 || srcIndex + length > src.capacity()) {
            throw new IndexOutOfBoundsException("copy of " + length + " bytes at " + srcIndex + " exceeds a buffer of "
                + src.capacity());
        }
        if (src.hasMemoryAddress()) {
            UnsafeAccess.UNSAFE.copyMemory(null, src.memoryAddress() + srcIndex, dst.byteArray(),
                dst.addressOffset() + dstOffset, length);
        } else if (src.hasArray()) {
            UnsafeAccess.UNSAFE.copyMemory(src.array(), ARRAY_BASE + src.arrayOffset() + srcIndex, dst.byteArray(),
                dst.addressOffset() + dstOffset, length);
        } else {
            ByteBuffer nio = src.nioBuffer(srcIndex, length);
            dst.putBytes(dstOffset, nio, nio.position(), length);
        }
    }
}
