package io.pragh.server.rpc;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.util.concurrent.ScheduledFuture;
import io.pragh.fabric.tcp.ClusterSecret;
import io.pragh.fabric.tcp.Handshake;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client connection of a machine's client port: first the cluster-secret handshake ({@link ClientProtocol}),
 * then requests answered in the order they came. What a request does is not its business: it hands each to
 * {@code requests}, whose future always completes with an answer.
 *
 * <p>A client may send requests without waiting for answers (pipelining): up to {@link #MAX_IN_FLIGHT} run at once,
 * except that a request waits for the earlier ones of its key (PUT, DELETE, GET, edge inserts: so one connection's
 * requests of a key take effect in order, and a GET sees the PUT sent before it) and any other request waits for, and
 * holds back, all others (traversals, scans, migrations, statistics: they see every earlier request's effect).
 * Requests start in the order they came; past {@link #MAX_QUEUED} waiting ones the connection stops reading until
 * some are answered. Every method runs on the connection's event loop.
 *
 * <pre>{@code
 * ch.pipeline().addLast(ClientConnection.FRAMES, ClientConnection.frames(ClientConnection.HANDSHAKE_FRAME))
 *     .addLast(new LengthFieldPrepender(4), new ClientConnection(id, secret, 5_000, maxFrame, server::serve));
 * }</pre>
 */
final class ClientConnection extends SimpleChannelInboundHandler<ByteBuf> {
    /** Logged under the port's name: one line per refused connection. */
    /** Under ClientServer's name: the client port logs as one. */
    private static final Logger LOG = LoggerFactory.getLogger(ClientServer.class);
    /** Requests of one connection running at once (a pipelining client's). */
    static final int MAX_IN_FLIGHT = 256;
    /** Requests of one connection waiting to start, past which it stops reading from the client. */
    static final int MAX_QUEUED = 4096;
    /** The name of the frame decoder, replaced by a larger one once the client proved the secret. */
    static final String FRAMES = "frames";
    /** The frame limit before authentication: an unauthenticated peer cannot make the server buffer. */
    static final int HANDSHAKE_FRAME = ClientProtocol.LENGTH_BYTES + ClientProtocol.HANDSHAKE_MAX_FRAME;

    private final int machine;
    private final ClusterSecret secret;
    private final long timeoutMillis;
    private final int maxFrame;
    private final Function<byte[], CompletableFuture<Reply>> requests;

    /** Requests received and not started yet, in order. */
    private final ArrayDeque<byte[]> queued = new ArrayDeque<>();
    /** Requests started and not answered yet, in order: answers go out in this order. */
    private final ArrayDeque<InFlight> inFlight = new ArrayDeque<>();
    /** Keys of started requests whose reply is not done yet, with how many each. */
    private final Long2LongHashMap keysInFlight = new Long2LongHashMap(0);
    /** A request that holds back all others is running. */
    private boolean exclusive;
    private ChannelHandlerContext ctx;
    private byte[] serverNonce;
    private boolean authenticated;
    private boolean closing;
    private ScheduledFuture<?> handshakeTimer;

    /**
     * @param machine  the machine id the HELLO names and the proofs bind
     * @param maxFrame the frame limit once authenticated
     * @param requests the answer to one request, never failed
     */
    ClientConnection(int machine, ClusterSecret secret, long timeoutMillis, int maxFrame,
                     Function<byte[], CompletableFuture<Reply>> requests) {
        this.machine = machine;
        this.secret = secret;
        this.timeoutMillis = timeoutMillis;
        this.maxFrame = maxFrame;
        this.requests = requests;
    }

    /** The length-prefixed frames of the client port, up to {@code maxFrame} bytes with the prefix. */
    static LengthFieldBasedFrameDecoder frames(int maxFrame) {
        return new LengthFieldBasedFrameDecoder(maxFrame, 0, 4, 0, 4);
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
        hello.writeByte(ClientProtocol.HELLO).writeInt(machine).writeBytes(serverNonce);
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
        LOG.warn("machine " + machine + " closes the client connection"
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
            Handshake.CLIENT_ID, machine))) {
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
            Handshake.CLIENT_PORT.serverProof(secret, serverNonce, clientNonce, Handshake.CLIENT_ID, machine)));
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
            long key = ClientProtocol.orderingKey(new UnsafeBuffer(request), request.length);
            if (key == ClientProtocol.NO_KEY ? !inFlight.isEmpty() : keysInFlight.get(key) > 0) {
                return;
            }
            queued.poll();
            start(request, key);
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

    private void start(byte[] request, long key) {
        InFlight started = new InFlight(key);
        inFlight.add(started);
        if (key == ClientProtocol.NO_KEY) {
            exclusive = true;
        } else {
            keysInFlight.put(key, keysInFlight.get(key) + 1);
        }
        requests.apply(request).thenAccept(r -> ctx.executor().execute(() -> done(started, r)));
    }

    /** A reply is ready; answers every ready one at the head, in order, then starts more. */
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

    /** A started request: the key it holds back others of (or none) and, once done, its reply. */
    private static final class InFlight {
        final long key;
        Reply reply;

        InFlight(long key) {
            this.key = key;
        }
    }
}
