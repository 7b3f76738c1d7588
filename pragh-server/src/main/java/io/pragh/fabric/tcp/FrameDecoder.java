package io.pragh.fabric.tcp;

import io.netty.buffer.ByteBuf;
import io.pragh.fabric.Region;
import java.nio.charset.StandardCharsets;

/**
 * Splits a byte stream into frames and validates each one completely before a visitor sees it: the length against
 * the limit, the type, every fixed body size, every inner length field against the frame, region ordinals, the
 * handshake magic and version. Anything else is a {@link FrameException}, never another exception and never a read
 * outside the frame. Offsets and lengths inside a region are checked later by the region itself, since only the
 * serving side knows its regions.
 *
 * <pre>{@code
 * while (FrameDecoder.decodeOne(in, maxFrame, visitor) > 0) { }   // in: the bytes received so far
 * }</pre>
 */
final class FrameDecoder {
    /** {@link #decodeOne} found no complete frame yet. */
    static final int NEED_MORE = 0;
    /** {@link #decodeOne} found a frame the visitor could not take now; nothing was consumed. */
    static final int REFUSED = -1;

    private static final int REGIONS = Region.values().length;

    private FrameDecoder() {
    }

    /**
     * Decodes the frame at {@code in}'s reader index if it is complete, advancing the reader index past it.
     * Returns the number of bytes consumed, {@link #NEED_MORE} or {@link #REFUSED}.
     */
    static int decodeOne(ByteBuf in, int maxFrame, FrameVisitor visitor) {
        int readable = in.readableBytes();
        if (readable < Frame.LENGTH_FIELD) {
            return NEED_MORE;
        }
        int start = in.readerIndex();
        int length = in.getInt(start);
        if (length < Frame.TYPE_BYTES) {
            throw new FrameException("frame length " + length + " is below the minimum of " + Frame.TYPE_BYTES);
        }
        if (length > maxFrame) {
            throw new FrameException("frame of " + length + " bytes exceeds the " + maxFrame + "-byte limit");
        }
        if (readable - Frame.LENGTH_FIELD < length) {
            return NEED_MORE;
        }
        if (!dispatch(in, start + Frame.LENGTH_FIELD, length, visitor)) {
            return REFUSED;
        }
        in.readerIndex(start + Frame.LENGTH_FIELD + length);
        return Frame.LENGTH_FIELD + length;
    }

    /** Validates the frame of {@code length} bytes at {@code at} (its type byte) and hands it to the visitor. */
    private static boolean dispatch(ByteBuf in, int at, int length, FrameVisitor v) {
        byte type = in.getByte(at);
        int body = at + Frame.TYPE_BYTES;
        int bodyLength = length - Frame.TYPE_BYTES;
        switch (type) {
            case Frame.HELLO -> {
                expect(type, bodyLength, Frame.HELLO_BODY);
                checkMagicAndVersion(in, body);
                v.onHello(in.getUnsignedShort(body + 6), in, body + 8);
            }
            case Frame.AUTH -> {
                expect(type, bodyLength, Frame.AUTH_BODY);
                checkMagicAndVersion(in, body);
                v.onAuth(in.getUnsignedShort(body + 6), in.getUnsignedShort(body + 8), in, body + 10,
                    body + 10 + Frame.NONCE_BYTES);
            }
            case Frame.AUTH_OK -> {
                expect(type, bodyLength, Frame.AUTH_OK_BODY);
                v.onAuthOk(in, body);
            }
            case Frame.CLOSE -> {
                atLeast(type, bodyLength, Frame.CLOSE_HEADER);
                v.onClose(reason(in, body, bodyLength, type));
            }
            case Frame.READ -> {
                expect(type, bodyLength, Frame.READ_BODY);
                int len = in.getInt(body + 13);
                if (len < 0) {
                    throw new FrameException("READ frame asks for a negative length " + len);
                }
                v.onRead(in.getInt(body), region(in, body + 4, type), in.getLong(body + 5), len);
            }
            case Frame.WRITE -> {
                atLeast(type, bodyLength, Frame.WRITE_HEADER);
                int len = in.getInt(body + 14);
                if (len < 0 || len != bodyLength - Frame.WRITE_HEADER) {
                    throw new FrameException("WRITE frame says " + len + " data bytes but carries "
                        + (bodyLength - Frame.WRITE_HEADER));
                }
                byte flags = in.getByte(body + 4);
                if ((flags & ~Frame.FLAG_SIGNALLED) != 0) {
                    throw new FrameException("WRITE frame has unknown flags 0x" + Integer.toHexString(flags & 0xff));
                }
                v.onWrite(in.getInt(body), flags != 0, region(in, body + 5, type), in.getLong(body + 6), in,
                    body + Frame.WRITE_HEADER, len);
            }
            case Frame.CAS -> {
                expect(type, bodyLength, Frame.CAS_BODY);
                v.onCas(in.getInt(body), region(in, body + 4, type), in.getLong(body + 5), in.getLong(body + 13),
                    in.getLong(body + 21));
            }
            case Frame.MESSAGE -> {
                return v.onMessage(in, body, bodyLength);
            }
            case Frame.READ_OK -> {
                atLeast(type, bodyLength, Frame.READ_OK_HEADER);
                v.onReadOk(in.getInt(body), in, body + Frame.READ_OK_HEADER, bodyLength - Frame.READ_OK_HEADER);
            }
            case Frame.WRITE_OK -> {
                expect(type, bodyLength, Frame.WRITE_OK_BODY);
                v.onWriteOk(in.getInt(body));
            }
            case Frame.CAS_OK -> {
                expect(type, bodyLength, Frame.CAS_OK_BODY);
                v.onCasOk(in.getInt(body), in.getLong(body + 4));
            }
            case Frame.ERROR -> {
                atLeast(type, bodyLength, Frame.ERROR_HEADER);
                byte retryable = in.getByte(body + 4);
                if (retryable != 0 && retryable != 1) {
                    throw new FrameException("ERROR frame has retryable flag " + retryable + ", expected 0 or 1");
                }
                v.onError(in.getInt(body), retryable == 1,
                    reason(in, body + 5, bodyLength - 5, type));
            }
            default -> throw new FrameException("unknown frame type " + type);
        }
        return true;
    }

    private static void expect(byte type, int bodyLength, int want) {
        if (bodyLength != want) {
            throw new FrameException(Frame.typeName(type) + " frame body must be " + want + " bytes, got "
                + bodyLength);
        }
    }

    private static void atLeast(byte type, int bodyLength, int min) {
        if (bodyLength < min) {
            throw new FrameException(Frame.typeName(type) + " frame body must be at least " + min + " bytes, got "
                + bodyLength);
        }
    }

    private static void checkMagicAndVersion(ByteBuf in, int body) {
        int magic = in.getInt(body);
        if (magic != Frame.MAGIC) {
            throw new FrameException("not a Pragh peer: handshake magic 0x" + Integer.toHexString(magic)
                + " instead of 0x" + Integer.toHexString(Frame.MAGIC));
        }
        int version = in.getUnsignedShort(body + 4);
        if (version != Frame.VERSION) {
            throw new FrameException("peer speaks fabric protocol version " + version + ", this machine speaks "
                + Frame.VERSION);
        }
    }

    private static Region region(ByteBuf in, int index, byte type) {
        int ordinal = in.getByte(index);
        if (ordinal < 0 || ordinal >= REGIONS) {
            throw new FrameException(Frame.typeName(type) + " frame names unknown region " + ordinal);
        }
        return Region.of(ordinal);
    }

    /** A length-prefixed UTF-8 reason: the prefix must match the bytes left and stay under the reason limit. */
    private static String reason(ByteBuf in, int at, int available, byte type) {
        int len = in.getUnsignedShort(at);
        if (len != available - 2 || len > Frame.MAX_REASON_BYTES) {
            throw new FrameException(Frame.typeName(type) + " frame says its reason has " + len + " bytes but "
                + (available - 2) + " follow (at most " + Frame.MAX_REASON_BYTES + " allowed)");
        }
        return in.toString(at + 2, len, StandardCharsets.UTF_8);
    }
}
