package io.pragh.server.metrics;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * {@code GET /metrics}: the Prometheus text of one registry ({@link PrometheusMeterRegistry#scrape()}), served over
 * HTTP/1.1 on one Netty event-loop thread. Anything but {@code GET /metrics} gets 404 (another path) or 405 (another
 * method). Every connection must send its whole request within the idle timeout of being opened, and is closed once
 * answered: a scraper reconnects each few seconds anyway, and a client that connects and sends nothing, or trickles a
 * request in a header at a time, holds nothing for longer than the timeout. (The JDK's {@code com.sun.net.httpserver}
 * served this before: its timeouts are JVM-wide system properties read once, off by default for a request being
 * read, and one slow client held its only thread.)
 *
 * <pre>{@code
 * try (MetricsEndpoint http = MetricsEndpoint.start(registry, new InetSocketAddress("127.0.0.1", 9182),
 *                                                   Duration.ofSeconds(60))) {
 *     // curl -s 127.0.0.1:9182/metrics
 * }
 * }</pre>
 */
public final class MetricsEndpoint implements AutoCloseable {
    public static final String PATH = "/metrics";
    private static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";
    /** A request line and headers; a scrape request has no body. */
    private static final int MAX_REQUEST_BYTES = 16 * 1024;
    /** The idle timeout when none is given: {@code limits.idleTimeout}'s default. */
    private static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(60);

    private final EventLoopGroup group;
    private final Channel channel;

    private MetricsEndpoint(EventLoopGroup group, Channel channel) {
        this.group = group;
        this.channel = channel;
    }

    /** As {@link #start(PrometheusMeterRegistry, InetSocketAddress, Duration)} with a 60 s idle timeout. */
    public static MetricsEndpoint start(PrometheusMeterRegistry registry, InetSocketAddress address) {
        return start(registry, address, DEFAULT_IDLE_TIMEOUT);
    }

    /**
     * Binds {@code address} (port 0 picks a free one) and serves; a port already taken fails here with a message
     * naming the address. A connection that has not sent a whole request {@code idleTimeout} after it opened is
     * closed.
     */
    public static MetricsEndpoint start(PrometheusMeterRegistry registry, InetSocketAddress address,
                                        Duration idleTimeout) {
        EventLoopGroup group = new NioEventLoopGroup(1, new DefaultThreadFactory("pragh-metrics-http", true));
        long idleMillis = idleTimeout.toMillis();
        ChannelFuture bound = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
            .option(ChannelOption.SO_REUSEADDR, true)
            .childHandler(new ChannelInitializer<SocketChannel>() {
                @Override
                protected void initChannel(SocketChannel ch) {
                    ch.eventLoop().schedule(() -> {
                        // Answered connections are closed already: one still open has not sent its request.
                        ch.close();
                    }, idleMillis, TimeUnit.MILLISECONDS);
                    ch.pipeline().addLast(new HttpServerCodec(4096, MAX_REQUEST_BYTES, 8192),
                        new HttpObjectAggregator(MAX_REQUEST_BYTES), new Answer(registry));
                }
            }).bind(address).awaitUninterruptibly();
        if (!bound.isSuccess()) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly();
            throw new UncheckedIOException("cannot serve metrics on " + address.getHostString() + ":"
                + address.getPort() + ": " + bound.cause().getMessage(),
                bound.cause() instanceof java.io.IOException io ? io : new java.io.IOException(bound.cause()));
        }
        return new MetricsEndpoint(group, bound.channel());
    }

    /** Answers one request and closes the connection. */
    private static final class Answer extends SimpleChannelInboundHandler<FullHttpRequest> {
        private final PrometheusMeterRegistry registry;

        Answer(PrometheusMeterRegistry registry) {
            this.registry = registry;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
            HttpMethod method = request.method();
            boolean head = HttpMethod.HEAD.equals(method);
            FullHttpResponse response;
            if (!request.decoderResult().isSuccess()) {
                response = text(HttpResponseStatus.BAD_REQUEST, "bad request\n", false);
            } else if (!PATH.equals(new QueryStringDecoder(request.uri()).path())) {
                response = text(HttpResponseStatus.NOT_FOUND, "not found: metrics are at " + PATH + "\n", head);
            } else if (!HttpMethod.GET.equals(method) && !head) {
                response = text(HttpResponseStatus.METHOD_NOT_ALLOWED, "method not allowed: GET " + PATH + "\n",
                    false);
                response.headers().set(HttpHeaderNames.ALLOW, "GET, HEAD");
            } else {
                response = text(HttpResponseStatus.OK, registry.scrape(), head);
                response.headers().set(HttpHeaderNames.CONTENT_TYPE, CONTENT_TYPE);
            }
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close(); // a broken or oversized request: nothing to answer
        }

        /** A response with {@code body}; for HEAD only its length is sent. */
        private static FullHttpResponse text(HttpResponseStatus status, String body, boolean head) {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            ByteBuf content = head ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(bytes);
            FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, content);
            r.headers().set(HttpHeaderNames.CONTENT_LENGTH, bytes.length);
            return r;
        }
    }

    /** The address bound (with the port chosen when 0 was asked for). */
    public InetSocketAddress address() {
        return (InetSocketAddress) channel.localAddress();
    }

    /** {@code http://host:port/metrics}. */
    public String url() {
        InetSocketAddress a = address();
        return "http://" + a.getHostString() + ":" + a.getPort() + PATH;
    }

    @Override
    public void close() {
        channel.close().awaitUninterruptibly();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(3, TimeUnit.SECONDS);
    }
}
