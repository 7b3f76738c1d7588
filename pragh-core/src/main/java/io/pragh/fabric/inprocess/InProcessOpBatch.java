package io.pragh.fabric.inprocess;

import io.pragh.fabric.FabricException;
import io.pragh.fabric.OpBatch;
import io.pragh.fabric.RecordedOps;
import io.pragh.fabric.Region;
import io.pragh.memory.ChunkedRegion;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Batched one-sided operations on the in-process fabric. Posting performs every queued operation at once; the
 * batch completes one emulated latency plus a small per-operation gap after posting, which is what pipelining buys
 * on a real NIC: operations in flight together share one round trip but still queue at the NIC.
 */
final class InProcessOpBatch implements OpBatch {
    private final InProcessEndpoint endpoint;
    private final RecordedOps ops;
    private final long[] doneAt;
    /** Operations that failed (their target unreachable): a failed CAS witnessed nothing. */
    private final boolean[] failedOp;
    private int size;
    private int posted;
    private RuntimeException failure;

    InProcessOpBatch(InProcessEndpoint endpoint, int capacity) {
        this.ops = new RecordedOps(capacity);
        this.endpoint = endpoint;
        doneAt = new long[capacity];
        failedOp = new boolean[capacity];
    }

    /** The index of a new operation, not yet done. */
    private int next() {
        if (size == ops.capacity()) {
            throw new IllegalStateException("batch is full (" + ops.capacity() + " operations)");
        }
        doneAt[size] = Long.MAX_VALUE;
        failedOp[size] = false;
        return size++;
    }

    @Override
    public int read(int target, Region region, long offset, MutableDirectBuffer dst, int dstOffset, int length) {
        int i = next();
        ops.read(i, target, region, offset, dst, dstOffset, length);
        return i;
    }

    @Override
    public int write(int target, Region region, long offset, DirectBuffer src, int srcOffset, int length,
                     boolean signalled) {
        int i = next();
        ops.write(i, target, region, offset, src, srcOffset, length, signalled);
        return i;
    }

    @Override
    public int compareAndSwap(int target, Region region, long offset, long expectedValue, long desiredValue) {
        int i = next();
        ops.compareAndSwap(i, target, region, offset, expectedValue, desiredValue);
        return i;
    }

    @Override
    public void post() {
        InProcessFabric fabric = endpoint.fabric();
        long completion = System.nanoTime() + fabric.batchNanos(size - posted);
        for (int i = posted; i < size; i++) {
            try {
                InProcessEndpoint peer = fabric.peer(endpoint.machine(), ops.targets[i]);
                ChunkedRegion region = InProcessFabric.region(peer, ops.regions[i]);
                switch (ops.kinds[i]) {
                    case RecordedOps.READ -> {
                        InProcessFabric.Ops.read(region, ops.offsets[i], ops.dsts[i], ops.bufOffsets[i],
                            ops.lengths[i]);
                        endpoint.stats().remoteRead(ops.lengths[i]);
                    }
                    case RecordedOps.WRITE -> {
                        InProcessFabric.Ops.write(region, ops.offsets[i], ops.srcs[i], ops.bufOffsets[i],
                            ops.lengths[i]);
                        endpoint.stats().remoteWrite(ops.lengths[i]);
                    }
                    default -> {
                        ops.results[i] = InProcessFabric.Ops.cas(region, ops.offsets[i], ops.expected[i],
                            ops.desired[i]);
                        endpoint.stats().remoteAtomic();
                    }
                }
            } catch (RuntimeException e) {
                failedOp[i] = true;
                if (failure == null) {
                    failure = e instanceof FabricException ? e
                        : new FabricException("batched operation " + i + " failed: " + e.getMessage(), false, e);
                }
            }
            doneAt[i] = completion;
        }
        posted = size;
    }

    @Override
    public int poll() {
        long now = System.nanoTime();
        int outstanding = size - posted;
        for (int i = 0; i < posted; i++) {
            if (doneAt[i] > now) {
                outstanding++;
            }
        }
        return outstanding;
    }

    @Override
    public void awaitAll() {
        if (posted < size) {
            post();
        }
        while (poll() > 0) {
            Thread.onSpinWait();
        }
        if (failure != null) {
            RuntimeException f = failure;
            failure = null;
            throw f;
        }
    }

    @Override
    public boolean isDone(int op) {
        return op < posted && doneAt[op] <= System.nanoTime();
    }

    @Override
    public long casResult(int op) {
        if (ops.kinds[op] != RecordedOps.CAS) {
            throw new IllegalArgumentException("operation " + op + " is not a CAS");
        }
        if (!isDone(op)) {
            throw new IllegalStateException("CAS " + op + " has not completed");
        }
        if (failedOp[op]) {
            throw new IllegalStateException("CAS " + op + " failed; it witnessed nothing");
        }
        return ops.results[op];
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public int capacity() {
        return ops.capacity();
    }

    @Override
    public void clear() {
        if (poll() > 0) {
            throw new IllegalStateException("cannot clear a batch with outstanding operations");
        }
        ops.release(size);
        size = 0;
        posted = 0;
        failure = null;
    }
}
