package io.pragh.server.rpc;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.LengthFieldPrepender;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.pragh.embedded.Machine;
import io.pragh.fabric.tcp.ClusterSecret;
import io.pragh.fabric.tcp.ClusterTls;
import io.pragh.server.extension.ServerExtension;
import io.pragh.server.extension.ServerExtensions;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Serves the client RPC ({@link ClientProtocol}) of one machine on its own port: the port and its lifetime, and the
 * routing of each request to the protocol's own operations ({@code UserOperations}) or to a server extension's
 * ({@code ExtensionTable}), bounded by {@code timeoutMillis}. Connections, their handshake and the order of their
 * requests are {@code ClientConnection}'s. Requests run on the machine's worker threads (reads, traversals) or
 * complete asynchronously (updates, migrations), never on the event loop; a request that needs a machine that is down
 * is answered RETRY at once rather than left to time out. No request is read before the client proved it holds the
 * cluster secret (and, with TLS, presented a certificate from the cluster's CA); a client that fails that, sends
 * anything else first or stays silent past {@code timeoutMillis} is disconnected with one log line.
 *
 * <pre>{@code
 * try (ClientServer rpc = ClientServer.start(machine, new InetSocketAddress("127.0.0.1", 7500), 5_000, () -> 0,
 *                                            secret, null, coordination, ServerExtensions.NONE)) {
 *     System.out.println("clients on " + rpc.localAddress());
 * }
 * }</pre>
 */
public final class ClientServer implements AutoCloseable {
    private final int machine;
    private final long timeoutMillis;
    private final UserOperations user;
    private final ExtensionTable extensions;
    private final EventLoopGroup group;
    private final Channel channel;

    private ClientServer(Machine machine, InetSocketAddress bind, long timeoutMillis, LongSupplier restoredValues,
                         ClusterSecret secret, ClusterTls tls, MigrationDriver migrations,
                         ServerExtensions extensions) {
        this.machine = machine.id();
        this.timeoutMillis = timeoutMillis;
        java.util.Objects.requireNonNull(secret, "secret");
        this.user = new UserOperations(machine, timeoutMillis, restoredValues, migrations);
        this.extensions = new ExtensionTable(extensions, new ServerExtension.Host() {
            @Override
            public Machine machine() {
                return machine;
            }

            @Override
            public CompletableFuture<Void> update(long key, int mutator, byte[] argument) {
                return user.update(key, mutator, argument);
            }
        });
        this.group = new NioEventLoopGroup(1, new DefaultThreadFactory("pragh-m" + machine.id() + "-rpc", true));
        int maxFrame = machine.store().config().maxValueBytes() + 64;
        ChannelFuture bound = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
            .option(ChannelOption.SO_REUSEADDR, true)
            .childOption(ChannelOption.TCP_NODELAY, true)
            .childHandler(new ChannelInitializer<SocketChannel>() {
                @Override
                protected void initChannel(SocketChannel ch) {
                    if (tls != null) {
                        ch.pipeline().addLast(tls.serverHandler(ch.alloc(), Duration.ofMillis(timeoutMillis)));
                    }
                    ch.pipeline().addLast(ClientConnection.FRAMES,
                            ClientConnection.frames(ClientConnection.HANDSHAKE_FRAME))
                        .addLast(new LengthFieldPrepender(4), new ClientConnection(machine.id(), secret,
                            timeoutMillis, maxFrame, ClientServer.this::serve));
                }
            }).bind(bind).awaitUninterruptibly();
        if (!bound.isSuccess()) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly();
            throw new IllegalStateException("machine " + machine.id() + " cannot serve clients on " + bind + ": "
                + bound.cause().getMessage(), bound.cause());
        }
        this.channel = bound.channel();
    }

    /**
     * Listens on {@code bind} now; requests are served until {@link #close}.
     *
     * @param restoredValues what PING reports as values this machine restored after peers' crashes
     * @param secret         the cluster secret every client must prove it holds
     * @param tls            mutual TLS for every connection, or null for none
     * @param migrations     the machine's migration policy: MIGRATE, STATS and the manual phases go through it
     * @param extensions     the server extensions whose operations this port serves besides its own
     */
    public static ClientServer start(Machine machine, InetSocketAddress bind, long timeoutMillis,
                                     LongSupplier restoredValues, ClusterSecret secret, ClusterTls tls,
                                     MigrationDriver migrations, ServerExtensions extensions) {
        return new ClientServer(machine, bind, timeoutMillis, restoredValues, secret, tls, migrations, extensions);
    }

    public InetSocketAddress localAddress() {
        return (InetSocketAddress) channel.localAddress();
    }

    @Override
    public void close() {
        channel.close().awaitUninterruptibly();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(3, TimeUnit.SECONDS);
    }

    /**
     * The answer to one authenticated request, never a failed future: an extension's operation goes to its table,
     * any other to the protocol's own; a failure or a timeout becomes RETRY or ERROR ({@code Reply.failure}).
     */
    private CompletableFuture<Reply> serve(byte[] request) {
        CompletableFuture<Reply> reply;
        try {
            reply = request.length > 0 && ClientProtocol.isExtension(request[0])
                ? extensions.serve(new UnsafeBuffer(request), request.length).thenApply(Reply::ok)
                : user.serve(request);
        } catch (RuntimeException e) {
            return CompletableFuture.completedFuture(Reply.failure(e, machine, timeoutMillis));
        }
        return reply.orTimeout(timeoutMillis + UserOperations.waitMillis(request), TimeUnit.MILLISECONDS)
            .exceptionally(t -> Reply.failure(t, machine, timeoutMillis));
    }
}
