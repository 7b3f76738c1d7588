package io.pragh.gremlin.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import org.apache.tinkerpop.gremlin.server.handler.Frame;
import org.apache.tinkerpop.gremlin.util.message.ResponseMessage;
import org.apache.tinkerpop.gremlin.util.message.ResponseStatusCode;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Keeps a Gremlin connection from sending a response frame larger than the frame limit: a client reads at most its
 * own limit (10 MiB by default in the Java and Python drivers) and fails the whole connection past it. A batch of
 * results that serializes larger is dropped and replaced by an error response to its request that names the limit
 * ({@link FrameLimit#tooLargeResponse}); the request's later batches are dropped too, so the client sees one final
 * answer. Two handlers around Gremlin Server's response encoder share one instance per connection: {@link #after}
 * measures each encoded frame and reads its request id from the frame's first bytes, {@link #before} drops the
 * messages (errors, say) that a cut request is still sent.
 *
 * <p>Example ({@link PraghChannelizer}):
 * {@code p.addAfter("response-frame-encoder", "pragh-response-cut", limit.before());
 * p.addAfter("ws-frame-encoder", "pragh-response-limit", limit.after());}
 */
final class ResponseFrameLimit {
    private static final System.Logger LOG = System.getLogger(ResponseFrameLimit.class.getName());

    private final int limit;
    /** Requests whose response was cut: their further batches are dropped. Event-loop confined. */
    private final Set<UUID> cut = new HashSet<>();

    ResponseFrameLimit(final int limit) {
        this.limit = limit;
    }

    ChannelHandler before() {
        return new ChannelOutboundHandlerAdapter() {
            @Override
            public void write(final ChannelHandlerContext ctx, final Object msg, final ChannelPromise promise) {
                if (msg instanceof ResponseMessage response) {
                    final UUID id = response.getRequestId();
                    if (cut.contains(id)) {
                        if (response.getStatus().getCode() != ResponseStatusCode.PARTIAL_CONTENT) {
                            cut.remove(id);
                        }
                        promise.trySuccess();
                        return;
                    }
                }
                ctx.write(msg, promise);
            }
        };
    }

    ChannelHandler after() {
        return new ChannelOutboundHandlerAdapter() {
            @Override
            public void write(final ChannelHandlerContext ctx, final Object msg, final ChannelPromise promise) {
                if (!(msg instanceof Frame frame)) {
                    ctx.write(msg, promise);
                    return;
                }
                // Gremlin Server serializes result batches itself and writes them as frames: only errors and the
                // like pass through its response encoder as messages. A frame names its request in its first bytes.
                final long bytes = frame.getMsg() instanceof ByteBuf b ? b.readableBytes()
                    : frame.getMsg() instanceof String text ? ByteBufUtil.utf8Bytes(text) : 0;
                final Head head = bytes > limit || !cut.isEmpty() ? Head.of(frame.getMsg()) : null;
                if (head != null && cut.contains(head.id)) {
                    frame.tryRelease();
                    if (head.code != ResponseStatusCode.PARTIAL_CONTENT.getValue()) {
                        cut.remove(head.id);
                    }
                    promise.trySuccess();
                    return;
                }
                if (bytes <= limit || head == null) {
                    ctx.write(msg, promise);
                    return;
                }
                frame.tryRelease();
                final String message = FrameLimit.tooLargeResponse(bytes, limit);
                LOG.log(System.Logger.Level.WARNING, "cut the response to " + ctx.channel().remoteAddress() + ": "
                    + message);
                // Written from the pipeline's tail, so it is encoded as the client asked, as every response is.
                ctx.channel().write(ResponseMessage.build(head.id).code(ResponseStatusCode.SERVER_ERROR)
                    .statusMessage(message).create(), promise);
                if (head.code == ResponseStatusCode.PARTIAL_CONTENT.getValue()) {
                    cut.add(head.id);
                }
            }
        };
    }

    /** The request id and status code at the start of a serialized response. */
    record Head(UUID id, int code) {
        private static final Pattern JSON = Pattern.compile("\"requestId\"\\s*:\\s*\"([0-9a-fA-F-]{36})\""
            + "[^}]*?\"status\"\\s*:\\s*\\{[^}]*?\"code\"\\s*:\\s*(\\d+)");
        private static final int GRAPHBINARY_VERSION = 0x81;

        /** Read from a GraphBinary buffer or a GraphSON string; null when neither form is recognized. */
        static Head of(final Object serialized) {
            final String text;
            if (serialized instanceof ByteBuf b) {
                final int at = b.readerIndex();
                if (b.readableBytes() >= 22 && (b.getByte(at) & 0xff) == GRAPHBINARY_VERSION) {
                    // GraphBinary: version, the request id as a nullable UUID (flag byte, two longs), status code.
                    return b.getByte(at + 1) != 0 ? null
                        : new Head(new UUID(b.getLong(at + 2), b.getLong(at + 10)), b.getInt(at + 18));
                }
                text = b.toString(at, Math.min(b.readableBytes(), 4096), StandardCharsets.UTF_8); // GraphSON bytes
            } else if (serialized instanceof String s) {
                text = s.substring(0, Math.min(s.length(), 4096));
            } else {
                return null;
            }
            final Matcher m = JSON.matcher(text);
            return m.find() ? new Head(UUID.fromString(m.group(1)), Integer.parseInt(m.group(2))) : null;
        }
    }
}
