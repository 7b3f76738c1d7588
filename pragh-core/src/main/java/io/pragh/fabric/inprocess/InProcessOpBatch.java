package io.pragh.fabric.inprocess;

import io.pragh.fabric.RecordedOps;
import io.pragh.fabric.RecordingOpBatch;
import io.pragh.memory.ChunkedRegion;

/**
 * Batched one-sided operations on the in-process fabric. Posting performs every queued operation at once; the
 * batch completes one emulated latency plus a small per-operation gap after posting, which is what pipelining buys
 * on a real NIC: operations in flight together share one round trip but still queue at the NIC.
 */
final class InProcessOpBatch extends RecordingOpBatch {
    private final InProcessEndpoint endpoint;
    private final long[] doneAt;
    /** Operations that failed (their target unreachable): a failed CAS witnessed nothing. */
    private final boolean[] failedOp;
    private RuntimeException failure;

    InProcessOpBatch(InProcessEndpoint endpoint, int capacity) {
        super(capacity);
        this.endpoint = endpoint;
        doneAt = new long[capacity];
        failedOp = new boolean[capacity];
    }

    /** A new operation is not done yet. */
    @Override
    protected void resetOp(int i) {
        doneAt[i] = Long.MAX_VALUE;
        failedOp[i] = false;
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
                    failure = asFabricException(i, e);
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
        return checkedCasResult(op, ops.kinds[op] == RecordedOps.CAS, isDone(op), failedOp[op]);
    }

    @Override
    public void clear() {
        if (poll() > 0) {
            throw new IllegalStateException("cannot clear a batch with outstanding operations");
        }
        forgetAll();
        failure = null;
    }
}
