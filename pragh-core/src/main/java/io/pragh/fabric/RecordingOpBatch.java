package io.pragh.fabric;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * The half of an {@link OpBatch} that only records: operations go into {@link RecordedOps} at the next index, and a
 * fabric's batch keeps beside them only what posting and completing need (its per-operation state, reset in
 * {@link #resetOp}). The in-process, verbs and fault batches share it; a fabric whose operations are objects handed
 * to other threads (TCP's pending operations) records its own way. Plain fields: one thread owns a batch.
 *
 * <pre>{@code
 * final class MyBatch extends RecordingOpBatch {
 *     private final boolean[] failed;
 *     MyBatch(int capacity) { super(capacity); failed = new boolean[capacity]; }
 *     protected void resetOp(int i) { failed[i] = false; }
 *     public void post() { for (int i = posted; i < size; i++) { perform(i); } posted = size; }
 *     ...
 * }
 * }</pre>
 */
public abstract class RecordingOpBatch implements OpBatch {
    /** What each operation is; indices 0 to {@link #size} - 1 are in use. */
    protected final RecordedOps ops;
    /** Operations added since the last clear. */
    protected int size;
    /** Operations handed to the fabric: 0 to posted - 1. */
    protected int posted;

    protected RecordingOpBatch(int capacity) {
        this.ops = new RecordedOps(capacity);
    }

    /** Resets the fabric's own state of operation {@code i} as it is added; its recording follows. */
    protected abstract void resetOp(int i);

    /** The index of a new operation, its own state reset. */
    protected int next() {
        if (size == ops.capacity()) {
            throw new IllegalStateException("batch is full (" + ops.capacity() + " operations)");
        }
        int i = size++;
        resetOp(i);
        return i;
    }

    @Override
    public final int read(int target, Region region, long offset, MutableDirectBuffer dst, int dstOffset, int length) {
        int i = next();
        ops.read(i, target, region, offset, dst, dstOffset, length);
        return i;
    }

    @Override
    public final int write(int target, Region region, long offset, DirectBuffer src, int srcOffset, int length,
                           boolean signalled) {
        int i = next();
        ops.write(i, target, region, offset, src, srcOffset, length, signalled);
        return i;
    }

    @Override
    public final int compareAndSwap(int target, Region region, long offset, long expected, long desired) {
        int i = next();
        ops.compareAndSwap(i, target, region, offset, expected, desired);
        return i;
    }

    /**
     * {@link #casResult}'s answer once a fabric knows the operation's state: refused unless it is a CAS that
     * completed without failing (a failed CAS witnessed nothing).
     */
    protected final long checkedCasResult(int op, boolean isCas, boolean done, boolean failed) {
        if (!isCas) {
            throw new IllegalArgumentException("operation " + op + " is not a CAS");
        }
        if (!done) {
            throw new IllegalStateException("CAS " + op + " has not completed");
        }
        if (failed) {
            throw new IllegalStateException("CAS " + op + " failed; it witnessed nothing");
        }
        return ops.results[op];
    }

    /** What an operation's failure is reported as: a fabric's own failure as it is, anything else wrapped. */
    protected static FabricException asFabricException(int op, RuntimeException e) {
        return e instanceof FabricException f ? f
            : new FabricException("batched operation " + op + " failed: " + e.getMessage(), false, e);
    }

    /** Forgets every operation and the callers' buffers; a fabric's {@link #clear} calls it after its own checks. */
    protected final void forgetAll() {
        ops.release(size);
        size = 0;
        posted = 0;
    }

    @Override
    public final int size() {
        return size;
    }

    @Override
    public final int capacity() {
        return ops.capacity();
    }
}
