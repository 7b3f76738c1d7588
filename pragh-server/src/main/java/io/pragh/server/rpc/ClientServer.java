package io.pragh.server.rpc;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.LengthFieldPrepender;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.util.concurrent.ScheduledFuture;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.pragh.address.Address;
import io.pragh.cluster.Machine;
import io.pragh.fabric.FabricException;
import io.pragh.fabric.tcp.ClusterSecret;
import io.pragh.fabric.tcp.ClusterTls;
import io.pragh.fabric.tcp.Handshake;
import io.pragh.graph.KHopTraversal;
import io.pragh.keys.KeyLayout;
import io.pragh.store.MachineStore;
import io.pragh.store.Mutators;
import io.pragh.store.Session;
import io.pragh.server.extension.ServerExtension;
import io.pragh.server.extension.ServerExtensions;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Serves the client RPC ({@link ClientProtocol}) of one machine on its own port. Requests run on the machine's
 * worker threads (reads, traversals) or complete asynchronously (updates, migrations), never on the event loop; a
 * request that needs a machine that is down is answered RETRY at once rather than left to time out, and every
 * request is bounded by {@code timeoutMillis}. No request is read before the client proved it holds the cluster
 * secret (and, with TLS, presented a certificate from the cluster's CA); a client that fails that, sends anything
 * else first or stays silent past {@code timeoutMillis} is disconnected with one log line.
 *
 * <pre>{@code
 * try (ClientServer rpc = ClientServer.start(machine, new InetSocketAddress("127.0.0.1", 7500), 5_000, () -> 0,
 *                                            secret, null, coordination)) {
 *     System.out.println("clients on " + rpc.localAddress());
 * }
 * }</pre>
 */
public final class ClientServer implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(ClientServer.class.getName());
    /** Requests of one connection running at once (a pipelining client's). */
    static final int MAX_IN_FLIGHT = 256;
    /** Requests of one connection waiting to start, past which it stops reading from the client. */
    static final int MAX_QUEUED = 4096;

    private final Machine machine;
    private final java.util.function.LongSupplier restoredValues;
    private final long timeoutMillis;
    private final int maxValueBytes;
    private final ClusterSecret secret;
    private final MigrationDriver migrations;
    private final EventLoopGroup group;
    private final Channel channel;
    private final ExtensionTable extensions;

    private ClientServer(Machine machine, InetSocketAddress bind, long timeoutMillis,
                         java.util.function.LongSupplier restoredValues, ClusterSecret secret, ClusterTls tls,
                         MigrationDriver migrations, ServerExtensions extensions) {
        this.machine = machine;
        this.migrations = java.util.Objects.requireNonNull(migrations, "migrations");
        this.secret = java.util.Objects.requireNonNull(secret, "secret");
        this.restoredValues = restoredValues;
        this.timeoutMillis = timeoutMillis;
        this.maxValueBytes = machine.store().config().maxValueBytes();
        this.extensions = new ExtensionTable(extensions, new ServerExtension.Host() {
            @Override
            public Machine machine() {
                return machine;
            }

            @Override
            public CompletableFuture<Void> update(long key, int mutator, byte[] argument) {
                return ClientServer.this.update(key, mutator, argument);
            }
        });
        this.group = new NioEventLoopGroup(1, new DefaultThreadFactory("pragh-m" + machine.id() + "-rpc", true));
        int maxFrame = maxValueBytes + 64;
        ChannelFuture bound = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
            .option(ChannelOption.SO_REUSEADDR, true)
            .childOption(ChannelOption.TCP_NODELAY, true)
            .childHandler(new ChannelInitializer<SocketChannel>() {
                @Override
                protected void initChannel(SocketChannel ch) {
                    if (tls != null) {
                        ch.pipeline().addLast(tls.serverHandler(ch.alloc(), Duration.ofMillis(timeoutMillis)));
                    }
                    ch.pipeline().addLast(FRAMES,
                            frames(ClientProtocol.LENGTH_BYTES + ClientProtocol.HANDSHAKE_MAX_FRAME))
                        .addLast(new LengthFieldPrepender(4), new Connection(maxFrame));
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
                                     java.util.function.LongSupplier restoredValues, ClusterSecret secret,
                                     ClusterTls tls, MigrationDriver migrations, ServerExtensions extensions) {
        return new ClientServer(machine, bind, timeoutMillis, restoredValues, secret, tls, migrations, extensions);
    }

    private static final String FRAMES = "frames";

    private static LengthFieldBasedFrameDecoder frames(int maxFrame) {
        return new LengthFieldBasedFrameDecoder(maxFrame, 0, 4, 0, 4);
    }

    public InetSocketAddress localAddress() {
        return (InetSocketAddress) channel.localAddress();
    }

    @Override
    public void close() {
        channel.close().awaitUninterruptibly();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(3, TimeUnit.SECONDS);
    }

    /** An answer: status and body. */
    private record Reply(byte status, byte[] body) {
        static final Reply OK = new Reply(ClientProtocol.OK, new byte[0]);
        static final Reply ABSENT = new Reply(ClientProtocol.ABSENT, new byte[0]);

        static Reply ok(byte[] body) {
            return new Reply(ClientProtocol.OK, body);
        }

        static Reply retry(String why) {
            return new Reply(ClientProtocol.RETRY, ClientProtocol.text(why));
        }

        static Reply error(String why) {
            return new Reply(ClientProtocol.ERROR, ClientProtocol.text(why));
        }
    }

    /**
     * One client connection: first the handshake, then requests answered in the order they came. A client may send
     * requests without waiting for answers (pipelining): up to {@link #MAX_IN_FLIGHT} run at once, except that a
     * request waits for the earlier ones of its key (PUT, DELETE, GET, edge inserts: so one connection's requests of
     * a key take effect in order, and a GET sees the PUT sent before it) and any other request waits for, and holds
     * back, all others (traversals, scans, migrations, statistics: they see every earlier request's effect). Requests
     * start in the order they came; past {@link #MAX_QUEUED} waiting ones the connection stops reading until some
     * are answered.
     */
    private final class Connection extends SimpleChannelInboundHandler<ByteBuf> {
        /** Requests received and not started yet, in order. */
        private final ArrayDeque<byte[]> queued = new ArrayDeque<>();
        /** Requests started and not answered yet, in order: answers go out in this order. */
        private final ArrayDeque<InFlight> inFlight = new ArrayDeque<>();
        /** Keys of started requests whose reply is not done yet, with how many each. */
        private final Long2LongHashMap keysInFlight = new Long2LongHashMap(0);
        private final int maxFrame;
        /** A request that holds back all others is running. */
        private boolean exclusive;
        private ChannelHandlerContext ctx;
        private byte[] serverNonce;
        private boolean authenticated;
        private boolean closing;
        private ScheduledFuture<?> handshakeTimer;

        Connection(int maxFrame) {
            this.maxFrame = maxFrame;
        }

        @Override
        public void handlerAdded(ChannelHandlerContext c) {
            // Set here, not in channelActive: a TLS failure may be reported before or without the channel going active.
            this.ctx = c;
        }

        @Override
        public void channelActive(ChannelHandlerContext c) {
            serverNonce = Handshake.nonce();
            ByteBuf hello = c.alloc().buffer(ClientProtocol.HELLO_LENGTH);
            hello.writeByte(ClientProtocol.HELLO).writeInt(machine.id()).writeBytes(serverNonce);
            c.writeAndFlush(hello);
            handshakeTimer = c.executor().schedule(() -> {
                if (!authenticated) {
                    refuse("no valid handshake within " + timeoutMillis + " ms");
                }
            }, timeoutMillis, TimeUnit.MILLISECONDS);
        }

        @Override
        public void channelInactive(ChannelHandlerContext c) {
            if (handshakeTimer != null) {
                handshakeTimer.cancel(false);
            }
            c.fireChannelInactive();
        }

        /** Logs one line and closes; whatever the peer sends afterwards is ignored. */
        private void refuse(String why) {
            if (closing) {
                return;
            }
            closing = true;
            LOG.log(System.Logger.Level.WARNING, "pragh: machine " + machine.id() + " closes the client connection"
                + " from " + ctx.channel().remoteAddress() + ": " + why);
            ctx.close();
        }

        private void authenticate(ByteBuf frame) {
            if (frame.readableBytes() != ClientProtocol.AUTH_LENGTH
                || frame.getByte(frame.readerIndex()) != ClientProtocol.AUTH) {
                refuse("a frame of " + frame.readableBytes() + " bytes instead of the handshake (AUTH)");
                return;
            }
            frame.skipBytes(1);
            byte[] clientNonce = new byte[Handshake.NONCE_BYTES];
            byte[] proof = new byte[Handshake.MAC_BYTES];
            frame.readBytes(clientNonce).readBytes(proof);
            if (!Handshake.matches(proof, Handshake.CLIENT_PORT.clientProof(secret, serverNonce, clientNonce,
                Handshake.CLIENT_ID, machine.id()))) {
                byte[] reason = ClientProtocol.text("refused: the client does not hold the cluster secret");
                ctx.writeAndFlush(ctx.alloc().buffer(1 + reason.length).writeByte(ClientProtocol.ERROR)
                    .writeBytes(reason));
                refuse("authentication failed: the client does not hold the cluster secret");
                return;
            }
            authenticated = true;
            handshakeTimer.cancel(false);
            // Only now may frames be as large as a value: an unauthenticated peer cannot make this side buffer.
            ctx.pipeline().replace(FRAMES, FRAMES, frames(maxFrame));
            ctx.writeAndFlush(ctx.alloc().buffer(1 + Handshake.MAC_BYTES).writeByte(ClientProtocol.OK).writeBytes(
                Handshake.CLIENT_PORT.serverProof(secret, serverNonce, clientNonce, Handshake.CLIENT_ID,
                    machine.id())));
        }

        @Override
        protected void channelRead0(ChannelHandlerContext c, ByteBuf frame) {
            if (closing) {
                return;
            }
            if (!authenticated) {
                authenticate(frame);
                return;
            }
            byte[] request = new byte[frame.readableBytes()];
            frame.readBytes(request);
            queued.add(request);
            startQueued();
            if (queued.size() >= MAX_QUEUED) {
                ctx.channel().config().setAutoRead(false); // back-pressure on a client that sends faster than served
            }
        }

        /** Starts waiting requests, in order, while the head of the queue may start. */
        private void startQueued() {
            while (!queued.isEmpty() && inFlight.size() < MAX_IN_FLIGHT && !exclusive) {
                byte[] request = queued.peek();
                long key = orderingKey(request);
                if (key == ClientProtocol.NO_KEY ? !inFlight.isEmpty() : keysInFlight.get(key) > 0) {
                    return;
                }
                queued.poll();
                serve(request, key);
            }
            if (queued.size() < MAX_QUEUED / 2 && !ctx.channel().config().isAutoRead()) {
                ctx.channel().config().setAutoRead(true);
            }
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext c, Object evt) {
            if (evt instanceof SslHandshakeCompletionEvent done && !done.isSuccess()) {
                refuse("TLS failed: " + done.cause().getMessage());
                return;
            }
            c.fireUserEventTriggered(evt);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext c, Throwable cause) {
            String why;
            if (cause instanceof TooLongFrameException) {
                why = authenticated ? "a frame over the limit" : "a frame over the handshake's limit before"
                    + " authenticating (not a Pragh client?)";
            } else if (cause.getCause() instanceof javax.net.ssl.SSLException ssl) {
                why = "TLS failed: " + ssl.getMessage();
            } else {
                why = cause.toString();
            }
            refuse(why);
        }

        private void serve(byte[] request, long key) {
            InFlight started = new InFlight(key);
            inFlight.add(started);
            if (key == ClientProtocol.NO_KEY) {
                exclusive = true;
            } else {
                keysInFlight.put(key, keysInFlight.get(key) + 1);
            }
            CompletableFuture<Reply> reply;
            try {
                reply = dispatch(request);
            } catch (RuntimeException e) {
                reply = CompletableFuture.completedFuture(classify(e));
            }
            reply.orTimeout(timeoutMillis + waitMillis(request), TimeUnit.MILLISECONDS)
                .exceptionally(ClientServer.this::classify)
                .thenAccept(r -> ctx.executor().execute(() -> done(started, r)));
        }

        /** On the event loop: a reply is ready; answers every ready one at the head, in order, then starts more. */
        private void done(InFlight request, Reply r) {
            request.reply = r;
            if (request.key == ClientProtocol.NO_KEY) {
                exclusive = false;
            } else if (keysInFlight.get(request.key) <= 1) {
                keysInFlight.remove(request.key);
            } else {
                keysInFlight.put(request.key, keysInFlight.get(request.key) - 1);
            }
            boolean wrote = false;
            while (!inFlight.isEmpty() && inFlight.peek().reply != null) {
                Reply next = inFlight.poll().reply;
                ByteBuf out = ctx.alloc().buffer(1 + next.body().length);
                out.writeByte(next.status()).writeBytes(next.body());
                ctx.write(out);
                wrote = true;
            }
            if (wrote) {
                ctx.flush(); // one flush for every answer ready together
            }
            startQueued();
        }
    }

    /** A started request of a connection: the key it holds back others of (or none) and, once done, its reply. */
    private static final class InFlight {
        final long key;
        Reply reply;

        InFlight(long key) {
            this.key = key;
        }
    }

    /**
     * The key whose requests of one connection must take effect in order ({@link ClientProtocol#orderingKey}), or
     * {@link ClientProtocol#NO_KEY} for a request that runs alone.
     */
    private static long orderingKey(byte[] request) {
        return ClientProtocol.orderingKey(new UnsafeBuffer(request), request.length);
    }

    private CompletableFuture<Reply> dispatch(byte[] request) {
        UnsafeBuffer b = new UnsafeBuffer(request);
        if (request.length > 0 && ClientProtocol.isExtension(request[0])) {
            return extensions.serve(b, request.length).thenApply(Reply::ok);
        }
        String problem = ClientProtocol.check(b, 0, request.length, maxValueBytes);
        if (problem != null) {
            return CompletableFuture.completedFuture(Reply.error(problem));
        }
        byte op = b.getByte(0);
        return switch (op) {
            case ClientProtocol.PING -> CompletableFuture.completedFuture(ping());
            case ClientProtocol.PUT -> userUpdate(b.getLong(1), Mutators.SET, Arrays.copyOfRange(request, 9, request.length));
            case ClientProtocol.DELETE -> userUpdate(b.getLong(1), Mutators.DELETE, new byte[0]);
            case ClientProtocol.ADD_EDGE -> userUpdate(KeyLayout.key(b.getLong(1), b.getInt(9), KeyLayout.OUT),
                Mutators.APPEND, KHopTraversal.encode(b.getLong(13)));
            case ClientProtocol.GET -> get(b.getLong(1));
            case ClientProtocol.K_HOP -> kHop(b.getLong(1), b.getInt(9), b.getInt(13), b.getInt(17));
            case ClientProtocol.SCAN_KEYS -> scanKeys(b.getInt(1), b.getLong(5), b.getInt(13));
            case ClientProtocol.MIGRATE -> migrations.migrate(b.getLong(1))
                .thenApply(o -> new Reply(ClientProtocol.OK, new byte[] {(byte) o.ordinal()}));
            case ClientProtocol.STATS -> CompletableFuture.completedFuture(stats());
            case ClientProtocol.MONITOR_START -> migrations.startMonitoring().thenApply(v -> Reply.OK);
            case ClientProtocol.END_INTERVAL -> migrations.endInterval().thenApply(v -> Reply.OK);
            case ClientProtocol.DECIDE -> migrations.decide(b.getLong(1)).thenApply(d -> {
                UnsafeBuffer u = new UnsafeBuffer(new byte[Decided.BYTES]);
                u.putInt(0, d.approvals());
                u.putInt(4, d.track());
                u.putInt(8, d.untrack());
                return new Reply(ClientProtocol.OK, u.byteArray());
            });
            default -> CompletableFuture.completedFuture(Reply.error("unknown operation " + op));
        };
    }

    /** How long past the usual timeout a well-formed request may wait by design: a DECIDE, for reports. */
    private static long waitMillis(byte[] request) {
        if (request.length != 9 || request[0] != ClientProtocol.DECIDE) {
            return 0;
        }
        long wait = new UnsafeBuffer(request).getLong(1);
        return wait >= 0 && wait <= ClientProtocol.MAX_DECIDE_MILLIS ? wait : 0; // else refused as malformed anyway
    }

    private Reply stats() {
        MachineStats s = new MachineStats(machine.id(), machine.stats().snapshot(), machine.store().forwardedUpdates(),
            migrations.migrationsRequested(), migrations.migrationsDone(), migrations.valuesMigrated(),
            machine.migrationThread().migrator().bytesMoved(), migrations.approvals(), migrations.isCoordinator());
        UnsafeBuffer u = new UnsafeBuffer(new byte[MachineStats.BYTES]);
        s.encode(u, 0);
        return new Reply(ClientProtocol.OK, u.byteArray());
    }

    private Reply ping() {
        byte[] body = new byte[24];
        UnsafeBuffer u = new UnsafeBuffer(body);
        u.putInt(0, machine.id());
        u.putInt(4, machine.store().machineCount());
        u.putLong(8, machine.store().keys().size());
        u.putLong(16, restoredValues.getAsLong());
        return new Reply(ClientProtocol.OK, body);
    }

    private CompletableFuture<Reply> get(long key) {
        return machine.submit(() -> {
            byte[] v = machine.get(key);
            return v == null ? Reply.ABSENT : new Reply(ClientProtocol.OK, v);
        });
    }

    private CompletableFuture<Reply> scanKeys(int kind, long cursor, int max) {
        return machine.submit(() -> {
            HomeKeyScan.Page page = HomeKeyScan.page(machine.store().keys(), kind, cursor, max);
            byte[] body = new byte[12 + 8 * page.keys().length];
            UnsafeBuffer u = new UnsafeBuffer(body);
            u.putLong(0, page.next());
            u.putInt(8, page.keys().length);
            for (int i = 0; i < page.keys().length; i++) {
                u.putLong(12 + 8 * i, page.keys()[i]);
            }
            return new Reply(ClientProtocol.OK, body);
        });
    }

    private CompletableFuture<Reply> kHop(long start, int label, int hops, int fanout) {
        return machine.submit(() -> {
            long[] vids = KHopTraversal.toArray(new KHopTraversal(machine.session()).run(start, label, hops, fanout));
            Arrays.sort(vids);
            byte[] body = new byte[4 + 8 * vids.length];
            UnsafeBuffer u = new UnsafeBuffer(body);
            u.putInt(0, vids.length);
            for (int i = 0; i < vids.length; i++) {
                u.putLong(4 + 8 * i, vids[i]);
            }
            return new Reply(ClientProtocol.OK, body);
        });
    }

    /**
     * An update, failed at once (retryably) when the key's home or its value's host is unreachable: the store would
     * otherwise forward it into a dead peer and the client would learn only from the timeout.
     */
    private CompletableFuture<Void> update(long key, int mutator, byte[] arg) {
        return machine.submit(() -> {
            String down = unreachableFor(key);
            if (down != null) {
                return CompletableFuture.<Void>failedFuture(new io.pragh.PraghException(down));
            }
            CompletableFuture<Void> f = machine.updateAsync(key, mutator, arg);
            return f.orTimeout(timeoutMillis, TimeUnit.MILLISECONDS).whenComplete((ok, e) -> {
                if (e != null) {
                    machine.store().abandon(f);
                }
            });
        }).thenCompose(f -> f);
    }

    private CompletableFuture<Reply> userUpdate(long key, int mutator, byte[] arg) {
        return update(key, mutator, arg).thenApply(v -> Reply.OK);
    }

    /** Which machine the key needs and cannot reach, or null. */
    private String unreachableFor(long key) {
        MachineStore store = machine.store();
        int home = store.placement().home(key);
        if (home != store.id() && !store.endpoint().isReachable(home)) {
            return "machine " + home + ", home of key " + key + ", is unreachable";
        }
        Session s = machine.session();
        if (s.locate(key, true)) {
            int host = Address.host(s.address(), s.home());
            if (host != store.id() && !store.endpoint().isReachable(host)) {
                return "machine " + host + ", which holds the value of key " + key + ", is unreachable";
            }
        }
        return null;
    }

    /** RETRY for what may pass (a peer down, a timeout, a stale address seen repeatedly), ERROR for the rest. */
    private Reply classify(Throwable t) {
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        if (t instanceof FabricException f) {
            return f.retryable() ? Reply.retry(t.getMessage()) : Reply.error(t.getMessage());
        }
        if (t instanceof TimeoutException) {
            return Reply.retry("machine " + machine.id() + ": not completed within " + timeoutMillis + " ms (a machine"
                + " it needs may be down)");
        }
        if (t instanceof io.pragh.LimitExceededException || t instanceof IllegalArgumentException) {
            return Reply.error(String.valueOf(t.getMessage()));
        }
        if (t instanceof io.pragh.PraghException) {
            // Stale addresses seen repeatedly, a refused update: states a recovery or a retry resolves.
            return Reply.retry(t.getMessage());
        }
        LOG.log(System.Logger.Level.WARNING, "pragh: machine " + machine.id() + " failed a client request", t);
        // The log has the stack; the client gets words, never a Java class name.
        return Reply.error("machine " + machine.id() + " failed the request: " + (t.getMessage() == null
            ? "an internal error (see its log)" : t.getMessage()));
    }
}
