package io.pragh.gremlin.server;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.websocketx.PongWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolHandler;
import io.netty.util.concurrent.ScheduledFuture;
import org.apache.tinkerpop.gremlin.server.channel.WebSocketChannelizer;
import org.apache.tinkerpop.gremlin.server.util.ServerGremlinExecutor;

import java.util.concurrent.TimeUnit;

/**
 * Gremlin Server's WebSocket channelizer with {@link ClientErrors} placed so that every response passes it before it
 * is framed (those of the authenticator and the authorizer included), and with Pragh's connection limits: the frame limit ({@link FrameLimit}) both
 * ways, answered with error responses rather than a dropped connection ({@link RequestFrameGuard},
 * {@link ResponseFrameLimit}), no compression (so the limit bounds what is held in memory, not what a compressed
 * frame inflates to), and a deadline for the WebSocket upgrade. Gremlin Server's idle monitor closes a
 * connection that sends nothing for {@code idleConnectionTimeout} and pings live clients at
 * {@code keepAliveInterval}; but a client that trickles the bytes of its HTTP upgrade request in is never idle, so
 * the upgrade must also be done within the idle timeout or the connection is closed. The limits come from
 * Gremlin Server's settings: {@code maxContentLength} (the frame limit) and {@code idleConnectionTimeout}.
 *
 * <p>Example: {@code settings.channelizer = PraghChannelizer.class.getName();} (as {@link PraghServer} does).
 */
public final class PraghChannelizer extends WebSocketChannelizer {
    private static final System.Logger LOG = System.getLogger(PraghChannelizer.class.getName());
    private static final String WEBSOCKET_DECODER = "wsdecoder";
    private static final String COMPRESSION = "web-socket-server-compression-handler";
    /** The handler of WebSocketChannelizer that turns responses into frames (outbound messages travel toward it). */
    static final String RESPONSE_ENCODER = "response-frame-encoder";
    private final ClientErrors clientErrors = new ClientErrors();

    private FrameLimit.Responder responder;

    @Override
    public void init(final ServerGremlinExecutor executor) {
        super.init(executor);
        responder = new FrameLimit.Responder(serializers);
    }

    @Override
    public void configure(final ChannelPipeline pipeline) {
        super.configure(pipeline);
        // No permessage-deflate: this Netty inflates a compressed message without bound, so a frame within the limit
        // could inflate to gigabytes, and the limit must hold for what the server and the client hold in memory.
        if (pipeline.get(COMPRESSION) != null) {
            pipeline.remove(COMPRESSION);
        }
        final ResponseFrameLimit responses = new ResponseFrameLimit(settings.maxContentLength);
        pipeline.addAfter(RESPONSE_ENCODER, "pragh-response-cut", responses.before());
        pipeline.addAfter("ws-frame-encoder", "pragh-response-limit", responses.after());
        // Next to the encoder: every response, a frame-limit error included, is cleaned just before it is framed.
        pipeline.addAfter(RESPONSE_ENCODER, "pragh-client-errors", clientErrors);
        pipeline.addLast("pragh-upgrade", new Upgrade(settings.maxContentLength, settings.idleConnectionTimeout));
    }

    /**
     * Drops a client's pong before the authenticator and authorizer see it: they take only requests and close the
     * connection on anything else, so a client answering the server's keep-alive ping was cut off after
     * {@code keepAliveInterval} of silence (a streamed subscription to a quiet view, {@code pragh.subscribe}). The
     * idle monitor, earlier in the pipeline, has counted the pong as the client's sign of life by then.
     */
    @Override
    public void finalize(final ChannelPipeline pipeline) {
        super.finalize(pipeline);
        for (final String name : new String[] {PIPELINE_AUTHENTICATOR, PIPELINE_AUTHORIZER}) {
            if (pipeline.get(name) != null) {
                pipeline.addBefore(name, "pragh-pong", new SimpleChannelInboundHandler<PongWebSocketFrame>() {
                    @Override
                    protected void channelRead0(final ChannelHandlerContext ctx, final PongWebSocketFrame pong) {
                        // released by SimpleChannelInboundHandler: nothing more to do with it
                    }
                });
                return;
            }
        }
    }

    /** Closes a connection not upgraded in time; once upgraded, puts the request frame guard in place. */
    private final class Upgrade extends ChannelInboundHandlerAdapter {
        private final int limit;
        private final long idleMillis;
        private ScheduledFuture<?> deadline;

        Upgrade(final int limit, final long idleMillis) {
            this.limit = limit;
            this.idleMillis = idleMillis;
        }

        @Override
        public void channelActive(final ChannelHandlerContext ctx) {
            if (idleMillis > 0) {
                deadline = ctx.executor().schedule(() -> {
                    LOG.log(System.Logger.Level.WARNING, "closing Gremlin connection from "
                        + ctx.channel().remoteAddress() + ": no WebSocket upgrade within the idle timeout of "
                        + idleMillis / 1000 + " s");
                    ctx.close();
                }, idleMillis, TimeUnit.MILLISECONDS);
            }
            ctx.fireChannelActive();
        }

        @Override
        public void userEventTriggered(final ChannelHandlerContext ctx, final Object event) {
            if (event instanceof WebSocketServerProtocolHandler.HandshakeComplete) {
                if (deadline != null) {
                    deadline.cancel(false);
                }
                if (ctx.pipeline().get(WEBSOCKET_DECODER) != null) {
                    ctx.pipeline().addBefore(WEBSOCKET_DECODER, "pragh-frame-guard",
                        new RequestFrameGuard(limit, responder, idleMillis));
                }
            }
            ctx.fireUserEventTriggered(event);
        }

        @Override
        public void channelInactive(final ChannelHandlerContext ctx) {
            if (deadline != null) {
                deadline.cancel(false);
            }
            ctx.fireChannelInactive();
        }
    }
}
