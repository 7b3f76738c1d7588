package io.pragh.gremlin.server;

import io.netty.channel.ChannelPipeline;
import org.apache.tinkerpop.gremlin.server.channel.WebSocketChannelizer;

/**
 * Gremlin Server's WebSocket channel as Pragh serves it: TinkerPop's own, with {@link ClientErrors} placed so that
 * every response passes it before it is framed, those of the authenticator and the authorizer included.
 *
 * <p>Example: {@code settings.channelizer = PraghChannelizer.class.getName();}
 */
public final class PraghChannelizer extends WebSocketChannelizer {
    /** The handler of WebSocketChannelizer that turns responses into frames (outbound messages travel toward it). */
    static final String RESPONSE_ENCODER = "response-frame-encoder";
    private final ClientErrors clientErrors = new ClientErrors();

    @Override
    public void configure(final ChannelPipeline pipeline) {
        super.configure(pipeline);
        pipeline.addAfter(RESPONSE_ENCODER, "pragh-client-errors", clientErrors);
    }
}
