package io.pragh.gremlin.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketCloseStatus;
import io.netty.util.concurrent.ScheduledFuture;

import java.nio.charset.StandardCharsets;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Sits in front of the WebSocket frame decoder of a Gremlin connection and keeps frames larger than the frame limit
 * from it. Netty's decoder would buffer such a frame up to the limit, then close the connection mid-upload, so the
 * client saw only "Connection lost" and the reason stayed in the server log. Here the frame's header is read as it
 * arrives, the oversized payload is skipped without being buffered (only its first bytes are kept, unmasked, to find
 * the request id), and once it has all passed the request gets an ordinary error response naming the limit
 * ({@link FrameLimit#tooLargeRequest}); the connection stays usable. Frames within the limit pass through unchanged,
 * as slices of the bytes read.
 *
 * <p>A frame must also arrive whole within the idle timeout from its first byte, or the connection is closed: a
 * client that trickles a large frame in would otherwise hold the frame's memory in the decoder for as long as it
 * likes.
 *
 * <p>Example: inserted by {@link PraghChannelizer} once the WebSocket upgrade completes:
 * {@code pipeline.addBefore("wsdecoder", "pragh-frame-guard", new RequestFrameGuard(limit, responder, idleMillis))}.
 */
final class RequestFrameGuard extends ChannelInboundHandlerAdapter {
    private static final System.Logger LOG = System.getLogger(RequestFrameGuard.class.getName());
    /** Enough of a refused frame to find its request id: GraphBinary's is in the first 60 bytes, GraphSON's first. */
    private static final int PREFIX_BYTES = 4096;
    private static final Pattern JSON_REQUEST_ID = Pattern.compile(
        "\"requestId\"\\s*:\\s*(?:\\{[^}]*?\"@value\"\\s*:\\s*)?\"([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-"
            + "[0-9a-fA-F]{4}-[0-9a-fA-F]{12})\"");
    private static final int OPCODE_TEXT = 1;
    private static final byte GRAPHBINARY_VERSION = (byte) 0x81;

    private enum State { HEADER, PASS, SKIP }

    private final int limit;
    private final FrameLimit.Responder responder;
    private final long idleMillis;
    private State state = State.HEADER;
    /** The frame header being read: at most 2 + 8 (length) + 4 (mask) bytes. */
    private final byte[] header = new byte[14];
    private int headerBytes;
    /** Header bytes that arrived in earlier reads and are not forwarded yet (the frame's fate was not known). */
    private int held;
    private long remaining;
    private long announced;
    private int opcode;
    /** Where the refused frame's mask key sits in {@link #header}, or -1 when it is not masked. */
    private int maskAt;
    private byte[] prefix;
    private int prefixBytes;
    private long skipped;
    /** Counts frames, so that a deadline set for one frame does not fire for a later one. */
    private long frameNumber;
    private ScheduledFuture<?> deadline;

    RequestFrameGuard(final int limit, final FrameLimit.Responder responder, final long idleMillis) {
        this.limit = limit;
        this.responder = responder;
        this.idleMillis = idleMillis;
    }

    @Override
    public void channelRead(final ChannelHandlerContext ctx, final Object msg) {
        if (!(msg instanceof ByteBuf in)) {
            ctx.fireChannelRead(msg);
            return;
        }
        try {
            read(ctx, in);
        } finally {
            in.release();
        }
    }

    private void read(final ChannelHandlerContext ctx, final ByteBuf in) {
        int i = in.readerIndex();
        final int end = in.writerIndex();
        int forwardFrom = i;
        int headerStart = i;
        while (i < end) {
            switch (state) {
                case HEADER -> {
                    if (headerBytes == 0) {
                        headerStart = i;
                    }
                    header[headerBytes++] = in.getByte(i++);
                    if (headerBytes == headerLength()) {
                        final long payload = payloadLength();
                        frameNumber++;
                        if (payload <= limit) {
                            if (held > 0) {
                                ctx.fireChannelRead(Unpooled.copiedBuffer(header, 0, held));
                            }
                            state = payload == 0 ? State.HEADER : State.PASS;
                        } else {
                            // The header's bytes in this read are not forwarded; those held from earlier ones drop.
                            forward(ctx, in, forwardFrom, held > 0 ? in.readerIndex() : headerStart);
                            forwardFrom = i;
                            startSkipping(payload);
                        }
                        remaining = payload;
                        held = 0;
                        headerBytes = 0;
                    }
                }
                case PASS -> {
                    final int n = (int) Math.min(remaining, end - i);
                    i += n;
                    remaining -= n;
                    if (remaining == 0) {
                        state = State.HEADER;
                    }
                }
                case SKIP -> {
                    final int n = (int) Math.min(remaining, end - i);
                    keepPrefix(in, i, n);
                    i += n;
                    remaining -= n;
                    skipped += n;
                    forwardFrom = i;
                    if (remaining == 0) {
                        state = State.HEADER;
                        refuse(ctx);
                    }
                }
                default -> throw new IllegalStateException(state.name());
            }
        }
        if (state == State.HEADER && headerBytes > 0) {
            forward(ctx, in, forwardFrom, held > 0 ? in.readerIndex() : headerStart);
            held = headerBytes;
        } else {
            forward(ctx, in, forwardFrom, end);
        }
        if ((state != State.HEADER || headerBytes > 0) && deadline == null && idleMillis > 0) {
            // A frame is under way past this read: it must be whole within the idle timeout.
            final long frame = frameNumber;
            deadline = ctx.executor().schedule(() -> frameOverdue(ctx, frame), idleMillis, TimeUnit.MILLISECONDS);
        } else if (state == State.HEADER && headerBytes == 0 && deadline != null) {
            deadline.cancel(false);
            deadline = null;
        }
    }

    private void frameOverdue(final ChannelHandlerContext ctx, final long frame) {
        deadline = null;
        if (frameNumber == frame && (state != State.HEADER || headerBytes > 0)) {
            LOG.log(System.Logger.Level.WARNING, "closing Gremlin connection from " + ctx.channel().remoteAddress()
                + ": a request frame was not complete within the idle timeout of " + idleMillis / 1000 + " s");
            ctx.close();
        }
    }

    private static void forward(final ChannelHandlerContext ctx, final ByteBuf in, final int from, final int to) {
        if (to > from) {
            ctx.fireChannelRead(in.retainedSlice(from, to - from));
        }
    }

    /** Header length once its first two bytes are in: 2, plus 2 or 8 for a long length, plus 4 for a mask. */
    private int headerLength() {
        if (headerBytes < 2) {
            return -1;
        }
        final int len7 = header[1] & 0x7f;
        return 2 + (len7 == 126 ? 2 : len7 == 127 ? 8 : 0) + ((header[1] & 0x80) != 0 ? 4 : 0);
    }

    private long payloadLength() {
        final int len7 = header[1] & 0x7f;
        if (len7 < 126) {
            return len7;
        }
        if (len7 == 126) {
            return ((header[2] & 0xffL) << 8) | (header[3] & 0xffL);
        }
        long n = 0;
        for (int k = 2; k < 10; k++) {
            n = (n << 8) | (header[k] & 0xffL);
        }
        return n < 0 ? Long.MAX_VALUE : n; // the top bit must be 0; a frame that sets it is too large anyway
    }

    private void startSkipping(final long payload) {
        state = State.SKIP;
        announced = payload;
        opcode = header[0] & 0x0f;
        maskAt = (header[1] & 0x80) != 0 ? headerLength() - 4 : -1;
        prefix = new byte[PREFIX_BYTES];
        prefixBytes = 0;
        skipped = 0;
    }

    private void keepPrefix(final ByteBuf in, final int from, final int n) {
        for (int k = 0; k < n && prefixBytes < PREFIX_BYTES; k++) {
            byte b = in.getByte(from + k);
            if (maskAt >= 0) {
                b ^= header[maskAt + (int) ((skipped + k) & 3)];
            }
            prefix[prefixBytes++] = b;
        }
    }

    /** The whole refused frame has passed: answer its request, or close naming the limit if it names none. */
    private void refuse(final ChannelHandlerContext ctx) {
        final String mime = opcode == OPCODE_TEXT ? null : mimeType();
        final UUID id = requestId(mime);
        final String message = FrameLimit.tooLargeRequest(announced, limit);
        LOG.log(System.Logger.Level.WARNING, "refused a request frame from " + ctx.channel().remoteAddress() + ": "
            + message);
        prefix = null;
        if (id == null || !responder.respond(ctx.channel(), id, mime, message)) {
            ctx.channel().writeAndFlush(new CloseWebSocketFrame(WebSocketCloseStatus.MESSAGE_TOO_BIG, message))
                .addListener(ChannelFutureListener.CLOSE);
        }
    }

    /** A binary Gremlin frame starts with its serializer's MIME type: one length byte, then the name. */
    private String mimeType() {
        final int n = prefixBytes > 0 ? prefix[0] & 0xff : 0;
        return n == 0 || 1 + n > prefixBytes ? null : new String(prefix, 1, n, StandardCharsets.US_ASCII);
    }

    private UUID requestId(final String mime) {
        final int body = mime == null ? 0 : 1 + mime.length();
        if (mime != null && mime.contains("graphbinary")) {
            // GraphBinary request: version byte, then the request id as two longs.
            if (prefixBytes < body + 17 || prefix[body] != GRAPHBINARY_VERSION) {
                return null;
            }
            final ByteBuf b = Unpooled.wrappedBuffer(prefix, body + 1, 16);
            return new UUID(b.readLong(), b.readLong());
        }
        final Matcher m = JSON_REQUEST_ID.matcher(
            new String(prefix, body, prefixBytes - body, StandardCharsets.UTF_8));
        return m.find() ? UUID.fromString(m.group(1)) : null;
    }
}
