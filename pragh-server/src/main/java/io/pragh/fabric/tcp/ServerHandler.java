package io.pragh.fabric.tcp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.util.concurrent.ScheduledFuture;
import io.pragh.fabric.MachineMemory;
import io.pragh.fabric.Region;
import io.pragh.memory.ChunkedRegion;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * The serving side of one connection from a peer: proves the handshake, then performs the peer's one-sided
 * operations right here on the event loop, directly on the registered regions (what a NIC does on an RDMA
 * fabric; no worker thread of this machine is involved), and passes its messages to the {@link Inbox}. A request
 * that is well formed but wrong (outside the region, misaligned CAS) gets an ERROR answer and the connection
 * stays; a malformed frame closes it.
 */
final class ServerHandler extends FramedHandler {
    private final TcpFabric fabric;
    private byte[] serverNonce;
    private int peer = -1;
    private ScheduledFuture<?> handshakeTimer;

    ServerHandler(TcpFabric fabric) {
        this.fabric = fabric;
    }

    @Override
    public String role() {
        return "server";
    }

    @Override
    String describePeer() {
        String remote = ctx == null ? "?" : String.valueOf(ctx.channel().remoteAddress());
        return peer >= 0 ? "machine " + peer + " at " + remote : "unauthenticated peer at " + remote;
    }

    @Override
    public void channelActive(ChannelHandlerContext context) {
        serverNonce = Handshake.nonce();
        ByteBuf hello = context.alloc().buffer(FrameWriter.size(Frame.HELLO_BODY));
        FrameWriter.hello(hello, fabric.machine(), serverNonce);
        context.writeAndFlush(hello, context.voidPromise());
        long timeoutMs = fabric.options().handshakeTimeout().toMillis();
        handshakeTimer = context.executor().schedule(() -> {
            if (peer < 0) {
                protocolViolation("no valid handshake within " + timeoutMs + " ms");
            }
        }, timeoutMs, TimeUnit.MILLISECONDS);
        context.fireChannelActive();
    }

    @Override
    public void onAuth(int client, int server, ByteBuf in, int nonceIndex, int macIndex) {
        if (peer >= 0) {
            throw new FrameException("second AUTH on an authenticated connection");
        }
        if (server != fabric.machine()) {
            refuse("this is machine " + fabric.machine() + ", not machine " + server);
            return;
        }
        if (client >= fabric.machineCount()) {
            refuse("machine id " + client + " is outside this cluster's 0.." + (fabric.machineCount() - 1));
            return;
        }
        byte[] clientNonce = Handshake.bytes(in, nonceIndex, Frame.NONCE_BYTES);
        byte[] proof = Handshake.bytes(in, macIndex, Frame.MAC_BYTES);
        if (!Handshake.matches(proof,
            Handshake.FABRIC.clientProof(fabric.secret(), serverNonce, clientNonce, client, server))) {
            refuse("authentication failed: the peer does not hold the cluster secret");
            return;
        }
        peer = client;
        // A peer that connects is alive, whatever the membership presumed (a new incarnation connects before its
        // node is seen, to announce its restart, and must hear the answer).
        fabric.link(client).heardFrom();
        handshakeTimer.cancel(false);
        authenticated(fabric.maxFrame());
        ByteBuf ok = ctx.alloc().buffer(FrameWriter.size(Frame.AUTH_OK_BODY));
        FrameWriter.authOk(ok, Handshake.FABRIC.serverProof(fabric.secret(), serverNonce, clientNonce, client, server));
        ctx.write(ok, ctx.voidPromise());
    }

    private void refuse(String reason) {
        LOG.warn("machine " + fabric.machine() + " refused a fabric connection from "
            + ctx.channel().remoteAddress() + ": " + reason);
        closeWithReason("refused: " + reason);
    }

    private void requireAuthenticated(byte type) {
        if (peer < 0) {
            throw new FrameException(Frame.typeName(type) + " frame before the handshake completed");
        }
    }

    /** The region a request names, or null after answering that this machine has not attached its memory yet. */
    private ChunkedRegion region(int id, Region region) {
        MachineMemory memory = fabric.memory();
        if (memory == null) {
            error(id, true, "machine " + fabric.machine() + " has not attached its memory yet");
            return null;
        }
        return memory.region(region);
    }

    @Override
    public void onRead(int id, Region region, long offset, int length) {
        requireAuthenticated(Frame.READ);
        if (length > fabric.options().maxPayloadBytes()) {
            error(id, false, "READ of " + length + " bytes exceeds machine " + fabric.machine() + "'s "
                + fabric.options().maxPayloadBytes() + "-byte payload limit");
            return;
        }
        ChunkedRegion r = region(id, region);
        if (r == null || !inRange(id, r, offset, length)) {
            return;
        }
        ByteBuf buf = ctx.alloc().ioBuffer(FrameWriter.readOkSize(length));
        FrameWriter.readOkHeader(buf, id, length);
        ByteBufView.appendFrom(buf, r.chunkFor(offset), r.indexInChunk(offset), length);
        ctx.write(buf, ctx.voidPromise());
    }

    @Override
    public void onWrite(int id, boolean signalled, Region region, long offset, ByteBuf in, int index, int length) {
        requireAuthenticated(Frame.WRITE);
        ChunkedRegion r = region(id, region);
        if (r == null || !inRange(id, r, offset, length)) {
            return;
        }
        ByteBufView.copy(in, index, r.chunkFor(offset), r.indexInChunk(offset), length);
        if (signalled) {
            ByteBuf buf = ctx.alloc().ioBuffer(FrameWriter.writeOkSize());
            FrameWriter.writeOk(buf, id);
            ctx.write(buf, ctx.voidPromise());
        }
    }

    @Override
    public void onCas(int id, Region region, long offset, long expected, long desired) {
        requireAuthenticated(Frame.CAS);
        ChunkedRegion r = region(id, region);
        if (r == null) {
            return;
        }
        try {
            r.checkAligned(offset);
        } catch (IndexOutOfBoundsException | IllegalArgumentException e) {
            error(id, false, e.getMessage());
            return;
        }
        // Full-fence CAS, the same instruction local CAS uses, so remote and local atomics on a word are atomic
        // with respect to each other (as RDMA atomics are with IB_ATOMIC_GLOB).
        long witnessed = r.compareAndExchangeLong(offset, expected, desired);
        ByteBuf buf = ctx.alloc().ioBuffer(FrameWriter.casOkSize());
        FrameWriter.casOk(buf, id, witnessed);
        ctx.write(buf, ctx.voidPromise());
    }

    private boolean inRange(int id, ChunkedRegion r, long offset, int length) {
        try {
            r.checkRange(offset, length);
            return true;
        } catch (IndexOutOfBoundsException e) {
            error(id, false, e.getMessage());
            return false;
        }
    }

    private void error(int id, boolean retryable, String reason) {
        byte[] r = FrameWriter.reasonBytes(reason);
        ByteBuf buf = ctx.alloc().ioBuffer(FrameWriter.errorSize(r));
        FrameWriter.error(buf, id, retryable, r);
        ctx.write(buf, ctx.voidPromise());
    }

    @Override
    public boolean onMessage(ByteBuf in, int index, int length) {
        requireAuthenticated(Frame.MESSAGE);
        Inbox inbox = fabric.inbox();
        if (length > inbox.maxMessageBytes()) {
            throw new FrameException("message of " + length + " bytes exceeds machine " + fabric.machine() + "'s "
                + inbox.maxMessageBytes() + "-byte message limit");
        }
        return inbox.offer(peer, in, index, length);
    }

    @Override
    void onPaused() {
        fabric.inbox().onStall(() -> {
            try {
                ctx.executor().execute(this::resume);
            } catch (RejectedExecutionException e) {
                // The fabric is shutting down; there is nothing left to resume.
            }
        });
    }

    @Override
    public void onClose(String reason) {
        LOG.debug("machine " + fabric.machine() + ": " + describePeer() + " closed its connection: "
            + reason);
        closeQuietly(describePeer() + " closed the connection: " + reason);
    }

    @Override
    void onDisconnected(String reason) {
        if (handshakeTimer != null) {
            handshakeTimer.cancel(false);
        }
    }
}
