package io.pragh.fabric.tcp;

import io.netty.buffer.ByteBuf;
import io.pragh.fabric.FabricException;
import io.pragh.fabric.FabricStats;
import io.pragh.fabric.Region;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * One one-sided operation on its way: what to do, where its answer goes, and how far it got. Owned by the thread
 * that issues it until it is handed to a connection's event loop; from then on only a winning state transition may
 * touch its result. The event loop goes PENDING -> COMPLETING -> DONE or FAILED; the issuing thread may give up
 * with PENDING -> ABANDONED (timeout), after which the event loop never writes into the caller's buffer. An
 * abandoned op may still sit in a connection's tables, so it is never reused.
 */
final class PendingOp {
    static final byte READ = 1;
    static final byte WRITE = 2;
    static final byte CAS = 3;

    static final int IDLE = 0;
    static final int PENDING = 1;
    static final int COMPLETING = 2;
    static final int DONE = 3;
    static final int FAILED = 4;
    static final int ABANDONED = 5;

    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(PendingOp.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final FabricStats stats;
    /** The batch to tell about completion, or null for a synchronous operation. */
    private final TcpOpBatch batch;

    byte kind;
    int target;
    Region region;
    long offset;
    int length;
    DirectBuffer src;
    int srcOffset;
    MutableDirectBuffer dst;
    int dstOffset;
    long expected;
    long desired;
    boolean signalled;

    /** Assigned by the connection's event loop when the request is written. */
    int requestId;
    long sentAtNanos;

    long result;
    FabricException failure;

    @SuppressWarnings("unused") // accessed through STATE
    private volatile int state;
    volatile Thread waiter;

    PendingOp(FabricStats stats, TcpOpBatch batch) {
        this.stats = stats;
        this.batch = batch;
    }

    void prepare(byte kind, int target, Region region, long offset, int length) {
        this.kind = kind;
        this.target = target;
        this.region = region;
        this.offset = offset;
        this.length = length;
        this.src = null;
        this.dst = null;
        this.signalled = true;
        this.failure = null;
        this.result = 0;
        this.waiter = null;
        STATE.setRelease(this, PENDING);
    }

    /** Volatile read: pairs with {@link #finish}'s volatile store so a waiter that set {@link #waiter} first
     * either sees the outcome or is unparked (a Dekker pair, which acquire/release alone would not give). */
    int state() {
        return (int) STATE.getVolatile(this);
    }

    boolean isFinished() {
        int s = state();
        return s == DONE || s == FAILED || s == ABANDONED;
    }

    /** The event loop claims the right to deliver a result; false if the caller gave up meanwhile. */
    private boolean claim() {
        return STATE.compareAndSet(this, PENDING, COMPLETING);
    }

    /** The caller gives up waiting; false if the event loop already claimed the op (it will finish shortly). */
    boolean abandon(FabricException why) {
        if (STATE.compareAndSet(this, PENDING, ABANDONED)) {
            failure = why;
            notifyBatch();
            return true;
        }
        return false;
    }

    /** Event loop: a READ's data arrived; copies it into the caller's buffer. */
    void completeRead(ByteBuf in, int index) {
        if (claim()) {
            ByteBufView.copy(in, index, dst, dstOffset, length);
            stats.remoteRead(length);
            finish(DONE);
        }
    }

    void completeWrite() {
        if (claim()) {
            stats.remoteWrite(length);
            finish(DONE);
        }
    }

    void completeCas(long witnessed) {
        if (claim()) {
            result = witnessed;
            stats.remoteAtomic();
            finish(DONE);
        }
    }

    void fail(FabricException why) {
        if (claim()) {
            failure = why;
            finish(FAILED);
        }
    }

    /**
     * Publishes the outcome. The volatile store of the state orders the result fields and the copied bytes before
     * it, so a thread that reads DONE sees them, and is ordered before the read of {@link #waiter}.
     */
    private void finish(int outcome) {
        STATE.setVolatile(this, outcome);
        notifyBatch();
        Thread w = waiter;
        if (w != null) {
            LockSupport.unpark(w);
        }
    }

    private void notifyBatch() {
        if (batch != null) {
            batch.onFinished();
        }
    }
}
