package io.pragh.fabric.tcp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.util.concurrent.ScheduledFuture;
import io.pragh.fabric.FabricException;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.agrona.DirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;

/**
 * The issuing side of the connection from this machine to one peer. Any thread hands operations (and encoded
 * messages) to it through a lock-free outbox; the event loop drains the outbox, gives each operation a request id,
 * writes them all and flushes once, so operations of many threads and whole batches share a flush and any number
 * are in flight. Answers are
 * matched by id. The peer serves one connection's requests in order, so an answer also completes every unsignalled
 * write sent before it (the paper's passive ACK), and an overdue answer means the peer is stuck: the connection is
 * closed and everything in flight on it fails with a retryable error.
 */
final class ClientHandler extends FramedHandler {
    private static final int OUTBOX_CAPACITY = 1 << 14;

    private final TcpFabric fabric;
    private final int target;
    private final InetSocketAddress address;
    private final CompletableFuture<Void> ready = new CompletableFuture<>();
    /** Holds {@link PendingOp}s and encoded MESSAGE frames ({@link ByteBuf}s), in the order they were handed over. */
    private final ManyToOneConcurrentArrayQueue<Object> outbox = new ManyToOneConcurrentArrayQueue<>(OUTBOX_CAPACITY);
    private final AtomicBoolean drainScheduled = new AtomicBoolean();
    private final Runnable drainTask = this::drain;
    private final Int2ObjectHashMap<PendingOp> pending = new Int2ObjectHashMap<>();
    private final ArrayDeque<PendingOp> unsignalled = new ArrayDeque<>();
    /**
     * Ids of this connection's requests, from 0 on each connection: an answer comes back on the connection its request
     * went out on, and a connection ends with either side's process, so an answer can never reach a later
     * incarnation of the peer or of this machine (unlike a store ACK, addressed by machine id: RequestIds).
     */
    private int nextId;
    private byte[] serverNonce;
    private byte[] clientNonce;
    private ScheduledFuture<?> sweeper;
    private volatile boolean usable;
    private volatile FabricException down;

    ClientHandler(TcpFabric fabric, int target, InetSocketAddress address) {
        this.fabric = fabric;
        this.target = target;
        this.address = address;
    }

    @Override
    public String role() {
        return "client";
    }

    @Override
    String describePeer() {
        return "machine " + target + " at " + address;
    }

    /** Completes once both sides proved the cluster secret; fails with the reason otherwise. */
    CompletableFuture<Void> ready() {
        return ready;
    }

    boolean isUsable() {
        return usable;
    }

    Channel channel() {
        return ctx.channel();
    }

    // ---------------------------------------------------------------- handshake

    @Override
    public void onHello(int machine, ByteBuf in, int nonceIndex) {
        if (serverNonce != null) {
            throw new FrameException("second HELLO on one connection");
        }
        if (machine != target) {
            handshakeFailed("the fabric port at " + address + " belongs to machine " + machine + ", not machine "
                + target + ": check the cluster's address list", false);
            return;
        }
        serverNonce = Handshake.bytes(in, nonceIndex, Frame.NONCE_BYTES);
        clientNonce = Handshake.nonce();
        ByteBuf auth = ctx.alloc().buffer(FrameWriter.size(Frame.AUTH_BODY));
        FrameWriter.auth(auth, fabric.machine(), target, clientNonce,
            Handshake.FABRIC.clientProof(fabric.secret(), serverNonce, clientNonce, fabric.machine(), target));
        ctx.write(auth, ctx.voidPromise());
    }

    @Override
    public void onAuthOk(ByteBuf in, int macIndex) {
        if (clientNonce == null || usable) {
            throw new FrameException("AUTH_OK out of turn");
        }
        byte[] proof = Handshake.bytes(in, macIndex, Frame.MAC_BYTES);
        if (!Handshake.matches(proof,
            Handshake.FABRIC.serverProof(fabric.secret(), serverNonce, clientNonce, fabric.machine(), target))) {
            handshakeFailed(describePeer() + " did not prove it holds the cluster secret", false);
            return;
        }
        authenticated(fabric.maxFrame());
        usable = true;
        long period = Math.max(10, fabric.options().requestTimeout().toMillis() / 4);
        sweeper = ctx.executor().scheduleAtFixedRate(this::sweep, period, period, TimeUnit.MILLISECONDS);
        ready.complete(null);
    }

    private void handshakeFailed(String reason, boolean retryable) {
        LOG.warn("machine " + fabric.machine() + ": " + reason);
        ready.completeExceptionally(new FabricException(reason, retryable));
        closeWithReason(reason);
    }

    @Override
    void onTlsFailed(String reason, boolean retryable) {
        ready.completeExceptionally(new FabricException("machine " + fabric.machine() + " cannot reach "
            + describePeer() + ": " + reason, retryable));
    }

    @Override
    public void onClose(String reason) {
        String why = describePeer() + " closed the connection: " + reason;
        if (!ready.isDone()) {
            // A refusal (wrong secret, wrong id) will not heal by retrying; anything else may.
            ready.completeExceptionally(new FabricException(describePeer() + " refused this machine's connection: "
                + reason, !reason.startsWith("refused:")));
        }
        closeQuietly(why);
    }

    // ---------------------------------------------------------------- issuing

    /** Any thread: queues an operation; {@link #scheduleDrain} sends it. */
    void submit(PendingOp op) {
        if (!offer(op)) {
            op.fail(downError());
        }
    }

    /** Queues an operation or an encoded frame; false when the connection went down while the outbox was full. */
    private boolean offer(Object item) {
        while (!outbox.offer(item)) {
            // Outbox full: thousands of operations already wait for this event loop; let it catch up.
            scheduleDrain();
            if (!usable) {
                return false;
            }
            LockSupport.parkNanos(10_000);
        }
        return true;
    }

    /** Any thread: makes sure the event loop drains the outbox soon; one task however many operations wait. */
    void scheduleDrain() {
        if (drainScheduled.compareAndSet(false, true)) {
            try {
                ctx.executor().execute(drainTask);
            } catch (RejectedExecutionException e) {
                drainScheduled.set(false);
                failOutbox(fabric.closedError());
            }
        }
    }

    /** Event loop. */
    private void drain() {
        // Cleared before polling: an operation offered after the last poll schedules a new drain.
        drainScheduled.set(false);
        int written = 0;
        Object item;
        while ((item = outbox.poll()) != null) {
            if (item instanceof ByteBuf frame) {
                ctx.write(frame, ctx.voidPromise());
            } else {
                write((PendingOp) item);
            }
            written++;
        }
        if (written > 0) {
            ctx.flush();
        }
    }

    private void write(PendingOp op) {
        if (op.state() != PendingOp.PENDING) {
            return; // abandoned by its caller before it was sent
        }
        if (!usable || isClosing()) {
            op.fail(downError());
            return;
        }
        int id = nextId++;
        op.requestId = id;
        op.sentAtNanos = System.nanoTime();
        pending.put(id, op);
        if (!op.signalled) {
            unsignalled.addLast(op);
        }
        ByteBuf buf;
        switch (op.kind) {
            case PendingOp.READ -> {
                buf = ctx.alloc().ioBuffer(FrameWriter.readSize());
                FrameWriter.read(buf, id, op.region, op.offset, op.length);
            }
            case PendingOp.WRITE -> {
                buf = ctx.alloc().ioBuffer(FrameWriter.writeSize(op.length));
                FrameWriter.writeHeader(buf, id, op.signalled, op.region, op.offset, op.length);
                ByteBufView.appendFrom(buf, op.src, op.srcOffset, op.length);
            }
            default -> {
                buf = ctx.alloc().ioBuffer(FrameWriter.casSize());
                FrameWriter.cas(buf, id, op.region, op.offset, op.expected, op.desired);
            }
        }
        ctx.write(buf, ctx.voidPromise());
    }

    /** Any thread: sends a message, waiting (bounded) while the peer is not taking what was sent before. */
    void sendMessage(DirectBuffer message, int offset, int length) {
        Channel ch = ctx.channel();
        if (!ch.isWritable()) {
            long timeout = fabric.options().requestTimeout().toNanos();
            long deadline = System.nanoTime() + timeout;
            while (!ch.isWritable()) {
                if (!usable) {
                    throw downError();
                }
                if (System.nanoTime() - deadline > 0) {
                    throw new FabricException(describePeer() + " has not taken this machine's messages for "
                        + TimeUnit.NANOSECONDS.toMillis(timeout) + " ms", true);
                }
                LockSupport.parkNanos(50_000);
            }
        }
        ByteBuf buf = ctx.alloc().ioBuffer(FrameWriter.messageSize(length));
        FrameWriter.message(buf, message, offset, length);
        if (!offer(buf)) {
            buf.release();
            throw downError();
        }
        scheduleDrain();
    }

    // ---------------------------------------------------------------- answers

    /** The operation answered by {@code id}; completes the unsignalled writes sent before it on the way. */
    private PendingOp take(int id, byte type) {
        while (!unsignalled.isEmpty() && unsignalled.peekFirst().requestId - id < 0) {
            PendingOp done = unsignalled.pollFirst();
            pending.remove(done.requestId);
            done.completeWrite();
        }
        PendingOp op = pending.remove(id);
        if (op == null) {
            throw new FrameException(Frame.typeName(type) + " answers unknown request id " + id);
        }
        if (!unsignalled.isEmpty() && unsignalled.peekFirst() == op) {
            unsignalled.pollFirst();
        }
        return op;
    }

    private void mismatch(PendingOp op, String what) {
        FrameException e = new FrameException(describePeer() + " answered request " + op.requestId + " with " + what);
        op.fail(e);
        throw e;
    }

    @Override
    public void onReadOk(int id, ByteBuf in, int index, int length) {
        PendingOp op = take(id, Frame.READ_OK);
        if (op.kind != PendingOp.READ || length != op.length) {
            mismatch(op, "READ_OK of " + length + " bytes");
        }
        op.completeRead(in, index);
    }

    @Override
    public void onWriteOk(int id) {
        PendingOp op = take(id, Frame.WRITE_OK);
        if (op.kind != PendingOp.WRITE) {
            mismatch(op, "WRITE_OK");
        }
        op.completeWrite();
    }

    @Override
    public void onCasOk(int id, long witnessed) {
        PendingOp op = take(id, Frame.CAS_OK);
        if (op.kind != PendingOp.CAS) {
            mismatch(op, "CAS_OK");
        }
        op.completeCas(witnessed);
    }

    @Override
    public void onError(int id, boolean retryable, String reason) {
        PendingOp op = take(id, Frame.ERROR);
        String what = switch (op.kind) {
            case PendingOp.READ -> "READ of " + op.length + " bytes";
            case PendingOp.WRITE -> "WRITE of " + op.length + " bytes";
            default -> "CAS";
        };
        op.fail(new FabricException("machine " + target + " refused a " + what + " at " + op.region + " offset "
            + op.offset + ": " + reason, retryable));
    }

    /** Event loop, periodically: a peer that leaves a request unanswered past the timeout is considered stuck. */
    private void sweep() {
        long timeout = fabric.options().requestTimeout().toNanos();
        long now = System.nanoTime();
        for (PendingOp op : pending.values()) {
            if (now - op.sentAtNanos > timeout) {
                String reason = describePeer() + " did not answer within "
                    + TimeUnit.NANOSECONDS.toMillis(timeout) + " ms";
                LOG.warn("machine " + fabric.machine() + ": " + reason + "; closing the connection");
                closeWithReason(reason);
                return;
            }
        }
    }

    // ---------------------------------------------------------------- teardown

    private FabricException downError() {
        FabricException d = down;
        if (fabric.isClosed()) {
            return fabric.closedError();
        }
        return d != null ? d : new FabricException("connection to " + describePeer() + " is closed", true);
    }

    /** Fails the queued operations; queued messages are dropped, as a message in flight on a lost connection is. */
    private void failOutbox(FabricException why) {
        Object item;
        while ((item = outbox.poll()) != null) {
            if (item instanceof ByteBuf frame) {
                frame.release();
            } else {
                ((PendingOp) item).fail(why);
            }
        }
    }

    @Override
    void onDisconnected(String reason) {
        usable = false;
        down = fabric.isClosed() ? fabric.closedError()
            : new FabricException("connection to " + describePeer() + " lost: " + reason, true);
        if (sweeper != null) {
            sweeper.cancel(false);
        }
        ready.completeExceptionally(down);
        for (PendingOp op : pending.values()) {
            op.fail(down);
        }
        pending.clear();
        unsignalled.clear();
        failOutbox(down);
    }

    /** Any thread: closes this connection (the fabric is closing or the peer moved). */
    void shutdown() {
        shutdown(fabric.isClosed() ? "fabric closed" : "peer address changed");
    }

    /** Closes the connection from any thread; operations in flight on it fail retryably, giving {@code reason}. */
    void shutdown(String reason) {
        try {
            ctx.executor().execute(() -> closeQuietly(reason));
        } catch (RejectedExecutionException e) {
            ctx.channel().close();
        }
    }
}
