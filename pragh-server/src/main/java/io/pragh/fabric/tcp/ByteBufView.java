package io.pragh.fabric.tcp;

import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.UnsafeAccess;

/**
 * Copies between Netty buffers and Agrona buffers (user buffers, region chunks) without intermediate arrays:
 * one {@code Unsafe.copyMemory} from base object plus offset to base object plus offset, whether each side is on
 * or off the heap. Like {@code ChunkedRegion.getBytes}, an aligned 8-byte word is copied whole, so a peer reading
 * a header word sees it before or after a concurrent store, never torn.
 */
final class ByteBufView {
    private static final long ARRAY_BASE = UnsafeAccess.UNSAFE.arrayBaseOffset(byte[].class);

    private ByteBufView() {
    }

    /** Appends {@code length} bytes of {@code src} at {@code buf}'s writer index. */
    static void appendFrom(ByteBuf buf, DirectBuffer src, int srcOffset, int length) {
        buf.ensureWritable(length);
        int at = buf.writerIndex();
        copy(src, srcOffset, buf, at, length);
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
