package io.pragh.fabric.tcp;

import io.netty.buffer.ByteBuf;
import io.pragh.fabric.Region;
import java.nio.charset.StandardCharsets;
import org.agrona.DirectBuffer;

/**
 * Encodes frames at a buffer's writer index; the inverse of {@link FrameDecoder}. Each method writes exactly one
 * frame, length prefix included, and returns nothing: sizes come from {@link Frame}, so callers allocate the exact
 * buffer up front with {@code *Size} methods.
 *
 * <pre>{@code
 * ByteBuf buf = alloc.ioBuffer(FrameWriter.readSize());
 * FrameWriter.read(buf, id, Region.VALUES, offset, 64);
 * }</pre>
 */
final class FrameWriter {
    private FrameWriter() {
    }

    private static void header(ByteBuf buf, byte type, int bodyLength) {
        buf.writeInt(Frame.TYPE_BYTES + bodyLength);
        buf.writeByte(type);
    }

    static int size(int bodyLength) {
        return Frame.LENGTH_FIELD + Frame.TYPE_BYTES + bodyLength;
    }

    static void hello(ByteBuf buf, int machine, byte[] nonce) {
        header(buf, Frame.HELLO, Frame.HELLO_BODY);
        buf.writeInt(Frame.MAGIC).writeShort(Frame.VERSION).writeShort(machine).writeBytes(nonce, 0, Frame.NONCE_BYTES);
    }

    static void auth(ByteBuf buf, int client, int server, byte[] nonce, byte[] mac) {
        header(buf, Frame.AUTH, Frame.AUTH_BODY);
        buf.writeInt(Frame.MAGIC).writeShort(Frame.VERSION).writeShort(client).writeShort(server)
            .writeBytes(nonce, 0, Frame.NONCE_BYTES).writeBytes(mac, 0, Frame.MAC_BYTES);
    }

    static void authOk(ByteBuf buf, byte[] mac) {
        header(buf, Frame.AUTH_OK, Frame.AUTH_OK_BODY);
        buf.writeBytes(mac, 0, Frame.MAC_BYTES);
    }

    /** Reasons are cut to {@link Frame#MAX_REASON_BYTES} (at a character boundary) so a CLOSE is always valid. */
    static byte[] reasonBytes(String reason) {
        String r = reason;
        byte[] b = r.getBytes(StandardCharsets.UTF_8);
        while (b.length > Frame.MAX_REASON_BYTES) {
            r = r.substring(0, r.length() - Math.max(1, (b.length - Frame.MAX_REASON_BYTES) / 4));
            b = r.getBytes(StandardCharsets.UTF_8);
        }
        return b;
    }

    static int closeSize(byte[] reason) {
        return size(Frame.CLOSE_HEADER + reason.length);
    }

    static void close(ByteBuf buf, byte[] reason) {
        header(buf, Frame.CLOSE, Frame.CLOSE_HEADER + reason.length);
        buf.writeShort(reason.length).writeBytes(reason);
    }

    static int readSize() {
        return size(Frame.READ_BODY);
    }

    static void read(ByteBuf buf, int id, Region region, long offset, int length) {
        header(buf, Frame.READ, Frame.READ_BODY);
        buf.writeInt(id).writeByte(region.ordinal()).writeLong(offset).writeInt(length);
    }

    static int writeSize(int length) {
        return size(Frame.WRITE_HEADER + length);
    }

    /** Writes the WRITE header; the caller appends exactly {@code length} data bytes. */
    static void writeHeader(ByteBuf buf, int id, boolean signalled, Region region, long offset, int length) {
        header(buf, Frame.WRITE, Frame.WRITE_HEADER + length);
        buf.writeInt(id).writeByte(signalled ? Frame.FLAG_SIGNALLED : 0).writeByte(region.ordinal())
            .writeLong(offset).writeInt(length);
    }

    static int casSize() {
        return size(Frame.CAS_BODY);
    }

    static void cas(ByteBuf buf, int id, Region region, long offset, long expected, long desired) {
        header(buf, Frame.CAS, Frame.CAS_BODY);
        buf.writeInt(id).writeByte(region.ordinal()).writeLong(offset).writeLong(expected).writeLong(desired);
    }

    static int messageSize(int length) {
        return size(length);
    }

    static void message(ByteBuf buf, DirectBuffer src, int offset, int length) {
        header(buf, Frame.MESSAGE, length);
        ByteBufView.appendFrom(buf, src, offset, length);
    }

    static int readOkSize(int length) {
        return size(Frame.READ_OK_HEADER + length);
    }

    /** Writes the READ_OK header; the caller appends exactly {@code length} data bytes. */
    static void readOkHeader(ByteBuf buf, int id, int length) {
        header(buf, Frame.READ_OK, Frame.READ_OK_HEADER + length);
        buf.writeInt(id);
    }

    static int writeOkSize() {
        return size(Frame.WRITE_OK_BODY);
    }

    static void writeOk(ByteBuf buf, int id) {
        header(buf, Frame.WRITE_OK, Frame.WRITE_OK_BODY);
        buf.writeInt(id);
    }

    static int casOkSize() {
        return size(Frame.CAS_OK_BODY);
    }

    static void casOk(ByteBuf buf, int id, long witnessed) {
        header(buf, Frame.CAS_OK, Frame.CAS_OK_BODY);
        buf.writeInt(id).writeLong(witnessed);
    }

    static int errorSize(byte[] reason) {
        return size(Frame.ERROR_HEADER + reason.length);
    }

    static void error(ByteBuf buf, int id, boolean retryable, byte[] reason) {
        header(buf, Frame.ERROR, Frame.ERROR_HEADER + reason.length);
        buf.writeInt(id).writeByte(retryable ? 1 : 0).writeShort(reason.length).writeBytes(reason);
    }
}
