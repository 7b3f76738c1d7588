package io.pragh.fabric.tcp;

import io.pragh.LimitExceededException;
import io.pragh.fabric.Endpoint;
import io.pragh.fabric.FabricException;
import io.pragh.fabric.FabricStats;
import io.pragh.fabric.OpBatch;
import io.pragh.fabric.Region;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * This machine's endpoint on the TCP fabric. A single operation is queued on the target's connection and the calling
 * thread waits for its answer: a short spin (answers on loopback come back in microseconds), then parking until the
 * event loop unparks it. Each thread reuses one operation record, so a steady stream of operations allocates nothing
 * here.
 */
final class TcpEndpoint implements Endpoint {
    private static final int SPINS = 200;

    private final TcpFabric fabric;
    private final FabricStats stats = new FabricStats();
    private final ThreadLocal<PendingOp> syncOps;

    TcpEndpoint(TcpFabric fabric) {
        this.fabric = fabric;
        this.syncOps = ThreadLocal.withInitial(() -> new PendingOp(stats, null));
    }

    @Override
    public int machine() {
        return fabric.machine();
    }

    @Override
    public int machineCount() {
        return fabric.machineCount();
    }

    @Override
    public FabricStats stats() {
        return stats;
    }

    TcpFabric fabric() {
        return fabric;
    }

    /** The connection to {@code target}, or a FabricException naming why there is none. */
    ClientHandler connection(int target) {
        if (fabric.isClosed()) {
            throw fabric.closedError();
        }
        if (target < 0 || target >= fabric.machineCount()) {
            throw new FabricException("machine " + target + " does not exist in this " + fabric.machineCount()
                + "-machine fabric", false);
        }
        return fabric.link(target).handler();
    }

    void checkPayload(String what, int length) {
        if (length < 0) {
            throw new IllegalArgumentException(what + " length must be >= 0, got " + length);
        }
        if (length > fabric.options().maxPayloadBytes()) {
            throw new LimitExceededException(what + " of " + length + " bytes exceeds the TCP fabric's "
                + fabric.options().maxPayloadBytes() + "-byte limit for one operation (maxPayloadBytes)");
        }
    }

    @Override
    public void read(int target, Region region, long offset, MutableDirectBuffer dst, int dstOffset, int length) {
        checkPayload("READ", length);
        dst.boundsCheck(dstOffset, length);
        PendingOp op = syncOps.get();
        op.prepare(PendingOp.READ, target, region, offset, length);
        op.dst = dst;
        op.dstOffset = dstOffset;
        run(op);
    }

    @Override
    public void write(int target, Region region, long offset, DirectBuffer src, int srcOffset, int length) {
        checkPayload("WRITE", length);
        src.boundsCheck(srcOffset, length);
        PendingOp op = syncOps.get();
        op.prepare(PendingOp.WRITE, target, region, offset, length);
        op.src = src;
        op.srcOffset = srcOffset;
        run(op);
    }

    @Override
    public long compareAndSwap(int target, Region region, long offset, long expected, long desired) {
        PendingOp op = syncOps.get();
        op.prepare(PendingOp.CAS, target, region, offset, 8);
        op.expected = expected;
        op.desired = desired;
        run(op);
        return op.result;
    }

    private void run(PendingOp op) {
        ClientHandler connection = connection(op.target);
        connection.submit(op);
        connection.scheduleDrain();
        await(op);
        op.src = null;
        op.dst = null;
        if (op.state() != PendingOp.DONE) {
            FabricException f = op.failure;
            // Rethrown with this thread's stack, keeping the event loop's original as the cause.
            throw new FabricException(f.getMessage(), f.retryable(), f);
        }
    }

    /** Waits for the answer; past twice the request timeout (the event loop's own sweep should have failed it
     * long before) the caller gives up on it, and the abandoned record is replaced, never reused. */
    private void await(PendingOp op) {
        for (int i = 0; i < SPINS; i++) {
            if (op.isFinished()) {
                return;
            }
            Thread.onSpinWait();
        }
        long timeout = 2 * fabric.options().requestTimeout().toNanos();
        long deadline = System.nanoTime() + timeout;
        op.waiter = Thread.currentThread();
        while (!op.isFinished()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                if (op.abandon(new FabricException("no answer from machine " + op.target + " within "
                    + TimeUnit.NANOSECONDS.toMillis(timeout) + " ms", true))) {
                    syncOps.set(new PendingOp(stats, null));
                    return;
                }
                left = TimeUnit.MICROSECONDS.toNanos(10);
            }
            LockSupport.parkNanos(op, left);
        }
    }

    @Override
    public OpBatch newBatch(int capacity) {
        return new TcpOpBatch(this, capacity);
    }

    @Override
    public int maxMessageBytes() {
        return fabric.inbox().maxMessageBytes();
    }

    @Override
    public void send(int target, DirectBuffer message, int offset, int length) {
        int max = maxMessageBytes();
        if (length < 0 || length > max) {
            throw new LimitExceededException("message of " + length + " bytes is outside the TCP fabric's 0.." + max
                + "-byte message limit (an eighth of inboxBytes)");
        }
        message.boundsCheck(offset, length);
        connection(target).sendMessage(message, offset, length);
        stats.message(length);
    }

    @Override
    public boolean isReachable(int target) {
        try {
            connection(target);
            return true;
        } catch (FabricException e) {
            return false;
        }
    }
}
