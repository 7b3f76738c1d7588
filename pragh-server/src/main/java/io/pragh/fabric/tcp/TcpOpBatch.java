package io.pragh.fabric.tcp;

import io.pragh.fabric.FabricException;
import io.pragh.fabric.OpBatch;
import io.pragh.fabric.Region;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * A batch on the TCP fabric. Posting queues every new operation on its target's connection and schedules one
 * drain per connection, so a batch leaves in one flush per peer; event loops complete the operations (copying READ
 * data straight into the caller's buffers) and count them, and the posting thread polls that count. The last
 * write to each peer in a post is always sent signalled, so every unsignalled write is followed by an answer that
 * implies its completion.
 */
final class TcpOpBatch implements OpBatch {
    private static final int SPINS = 200;

    private final TcpEndpoint endpoint;
    private final PendingOp[] ops;
    private final AtomicInteger finished = new AtomicInteger();
    private final ClientHandler[] touched;
    private final boolean[] seenTarget;
    private volatile Thread waiter;
    private int size;
    private int posted;

    TcpOpBatch(TcpEndpoint endpoint, int capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("batch capacity must be positive, got " + capacity);
        }
        this.endpoint = endpoint;
        this.ops = new PendingOp[capacity];
        for (int i = 0; i < capacity; i++) {
            ops[i] = new PendingOp(endpoint.stats(), this);
        }
        int machines = endpoint.machineCount();
        this.touched = new ClientHandler[machines];
        this.seenTarget = new boolean[machines];
    }

    /** Event loop or abandoning thread: one more operation reached its end. */
    void onFinished() {
        finished.incrementAndGet();
        Thread w = waiter;
        if (w != null) {
            LockSupport.unpark(w);
        }
    }

    private PendingOp add(byte kind, int target, Region region, long offset, int length) {
        if (size == ops.length) {
            throw new IllegalStateException("batch is full (" + ops.length + " operations)");
        }
        PendingOp op = ops[size];
        op.prepare(kind, target, region, offset, length);
        return op;
    }

    @Override
    public int read(int target, Region region, long offset, MutableDirectBuffer dst, int dstOffset, int length) {
        endpoint.checkPayload("READ", length);
        dst.boundsCheck(dstOffset, length);
        PendingOp op = add(PendingOp.READ, target, region, offset, length);
        op.dst = dst;
        op.dstOffset = dstOffset;
        return size++;
    }

    @Override
    public int write(int target, Region region, long offset, DirectBuffer src, int srcOffset, int length,
                     boolean signalled) {
        endpoint.checkPayload("WRITE", length);
        src.boundsCheck(srcOffset, length);
        PendingOp op = add(PendingOp.WRITE, target, region, offset, length);
        op.src = src;
        op.srcOffset = srcOffset;
        op.signalled = signalled;
        return size++;
    }

    @Override
    public int compareAndSwap(int target, Region region, long offset, long expected, long desired) {
        PendingOp op = add(PendingOp.CAS, target, region, offset, 8);
        op.expected = expected;
        op.desired = desired;
        return size++;
    }

    @Override
    public void post() {
        if (posted == size) {
            return;
        }
        for (int i = size - 1; i >= posted; i--) {
            int t = ops[i].target;
            if (t >= 0 && t < seenTarget.length && !seenTarget[t]) {
                seenTarget[t] = true;
                ops[i].signalled = true;
            }
        }
        Arrays.fill(seenTarget, false);
        for (int i = posted; i < size; i++) {
            PendingOp op = ops[i];
            ClientHandler connection;
            try {
                connection = endpoint.connection(op.target);
            } catch (FabricException e) {
                op.fail(e);
                continue;
            }
            connection.submit(op);
            touched[op.target] = connection;
        }
        for (int t = 0; t < touched.length; t++) {
            if (touched[t] != null) {
                touched[t].scheduleDrain();
                touched[t] = null;
            }
        }
        posted = size;
    }

    @Override
    public int poll() {
        return size - finished.get();
    }

    @Override
    public void awaitAll() {
        post();
        for (int i = 0; i < SPINS && poll() > 0; i++) {
            Thread.onSpinWait();
        }
        if (poll() > 0) {
            waitParked();
        }
        for (int i = 0; i < size; i++) {
            if (ops[i].state() != PendingOp.DONE) {
                FabricException f = ops[i].failure;
                throw new FabricException("batched operation " + i + " failed: " + f.getMessage(), f.retryable(), f);
            }
        }
    }

    /** Parks until every operation finished; past twice the request timeout the rest are abandoned. */
    private void waitParked() {
        long timeout = 2 * endpoint.fabric().options().requestTimeout().toNanos();
        long deadline = System.nanoTime() + timeout;
        waiter = Thread.currentThread();
        try {
            while (poll() > 0) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    FabricException why = new FabricException("batch: no answer within "
                        + TimeUnit.NANOSECONDS.toMillis(timeout) + " ms", true);
                    for (int i = 0; i < size; i++) {
                        ops[i].abandon(why);
                    }
                    left = TimeUnit.MICROSECONDS.toNanos(10);
                }
                LockSupport.parkNanos(this, left);
            }
        } finally {
            waiter = null;
        }
    }

    @Override
    public boolean isDone(int op) {
        return op >= 0 && op < posted && ops[op].isFinished();
    }

    @Override
    public long casResult(int op) {
        if (op < 0 || op >= size || ops[op].kind != PendingOp.CAS) {
            throw new IllegalArgumentException("operation " + op + " is not a CAS of this batch");
        }
        int state = ops[op].state();
        if (state != PendingOp.DONE) {
            throw new IllegalStateException("CAS " + op + (state == PendingOp.FAILED || state == PendingOp.ABANDONED
                ? " failed: " + ops[op].failure.getMessage() : " has not completed"));
        }
        return ops[op].result;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public int capacity() {
        return ops.length;
    }

    @Override
    public void clear() {
        if (poll() > 0) {
            throw new IllegalStateException("cannot clear a batch with " + poll() + " outstanding operations");
        }
        for (int i = 0; i < size; i++) {
            if (ops[i].state() == PendingOp.ABANDONED) {
                // A connection may still hold it; a fresh record keeps its late answer away from this batch.
                ops[i] = new PendingOp(endpoint.stats(), this);
            } else {
                ops[i].src = null;
                ops[i].dst = null;
            }
        }
        size = 0;
        posted = 0;
        finished.set(0);
    }
}
