package io.pragh.gremlin.server;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import org.apache.tinkerpop.gremlin.util.MessageSerializer;
import org.apache.tinkerpop.gremlin.util.message.ResponseMessage;
import org.apache.tinkerpop.gremlin.util.message.ResponseStatusCode;
import org.apache.tinkerpop.gremlin.util.ser.MessageTextSerializer;
import org.apache.tinkerpop.gremlin.util.ser.SerializationException;

import java.util.Map;
import java.util.UUID;

/**
 * The Gremlin port's frame limit ({@code --max-frame-bytes}, YAML {@code limits.maxFrameBytes}): one number for both
 * directions, so that what the server accepts and what it sends agree with what a client reads. The messages a
 * client gets when a frame is over it, and the responder that sends them as ordinary Gremlin error responses.
 *
 * <p>Example: {@code String why = FrameLimit.tooLargeRequest(11_000_000, 10 << 20);}
 */
final class FrameLimit {
    private FrameLimit() {
    }

    /** Where the limit is set, for the messages. */
    static final String SETTING = "--max-frame-bytes of ./pragh serve, limits.maxFrameBytes of a cluster file";

    static String tooLargeRequest(final long bytes, final int limit) {
        return "request of " + bytes + " bytes exceeds the server's frame limit of " + limit + " bytes ("
            + SETTING + "); send smaller requests, e.g. split a large property value or batch of additions";
    }

    static String tooLargeResponse(final long bytes, final int limit) {
        return "response batch of " + bytes + " bytes exceeds the server's frame limit of " + limit + " bytes ("
            + SETTING + "); the rest of this request's results are dropped: read fewer or smaller values per"
            + " request (a smaller batchSize, values() of one property at a time)";
    }

    /** Sends one error response for a request, serialized as the client asked. */
    static final class Responder {
        private final Map<String, MessageSerializer<?>> serializers;

        Responder(final Map<String, MessageSerializer<?>> serializers) {
            this.serializers = serializers;
        }

        /**
         * Writes an error response to request {@code id} in the serializer named by {@code mime} (a binary frame), or
         * in GraphSON text when {@code mime} is null (the request came as a text frame); false when no serializer
         * serves it.
         */
        boolean respond(final Channel channel, final UUID id, final String mime, final String message) {
            return respond(channel, id, mime, ResponseStatusCode.REQUEST_ERROR_INVALID_REQUEST_ARGUMENTS, message,
                channel.newPromise());
        }

        boolean respond(final Channel channel, final UUID id, final String mime, final ResponseStatusCode code,
                        final String message, final ChannelPromise promise) {
            final MessageSerializer<?> serializer = serializers.get(mime == null ? "application/json" : mime);
            if (serializer == null || (mime == null && !(serializer instanceof MessageTextSerializer))) {
                return false;
            }
            final ResponseMessage error = ResponseMessage.build(id).code(code).statusMessage(message).create();
            try {
                if (mime == null) {
                    channel.writeAndFlush(new TextWebSocketFrame(((MessageTextSerializer<?>) serializer)
                        .serializeResponseAsString(error, channel.alloc())), promise);
                } else {
                    final ByteBuf bytes = serializer.serializeResponseAsBinary(error, channel.alloc());
                    channel.writeAndFlush(new BinaryWebSocketFrame(bytes), promise);
                }
                return true;
            } catch (SerializationException e) {
                return false;
            }
        }
    }
}
