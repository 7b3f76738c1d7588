package io.pragh.fabric.inprocess;

import io.pragh.fabric.FabricException;
import io.pragh.fabric.OpBatch;
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
    private static final byte READ = 1;
    private static final byte WRITE = 2;
    private static final byte CAS = 3;

    private final InProcessEndpoint endpoint;
    private final byte[] kinds;
    private final int[] targets;
    private final Region[] regions;
    private final long[] offsets;
    private final long[] expected;
    private final long[] desired;
    private final long[] results;
    private final DirectBuffer[] srcs;
    private final MutableDirectBuffer[] dsts;
    private final int[] bufOffsets;
    private final int[] lengths;
    private final long[] doneAt;
    private int size;
    private int posted;
    private RuntimeException failure;

    InProcessOpBatch(InProcessEndpoint endpoint, int capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("batch capacity must be positive, got " + capacity);
        }
        this.endpoint = endpoint;
        kinds = new byte[capacity];
        targets = new int[capacity];
        regions = new Region[capacity];
        offsets = new long[capacity];
        expected = new long[capacity];
        desired = new long[capacity];
        results = new long[capacity];
        srcs = new DirectBuffer[capacity];
        dsts = new MutableDirectBuffer[capacity];
        bufOffsets = new int[capacity];
        lengths = new int[capacity];
        doneAt = new long[capacity];
    }

    private int add(byte kind, int target, Region region, long offset, int length) {
        if (size == kinds.length) {
            throw new IllegalStateException("batch is full (" + kinds.length + " operations)");
        }
        int i = size++;
        kinds[i] = kind;
        targets[i] = target;
        regions[i] = region;
        offsets[i] = offset;
        lengths[i] = length;
        doneAt[i] = Long.MAX_VALUE;
        return i;
    }

    @Override
    public int read(int target, Region region, long offset, MutableDirectBuffer dst, int dstOffset, int length) {
        int i = add(READ, target, region, offset, length);
        dsts[i] = dst;
        bufOffsets[i] = dstOffset;
        return i;
    }

    @Override
    public int write(int target, Region region, long offset, DirectBuffer src, int srcOffset, int length,
                     boolean signalled) {
        int i = add(WRITE, target, region, offset, length);
        srcs[i] = src;
        bufOffsets[i] = srcOffset;
        return i;
    }

    @Override
    public int compareAndSwap(int target, Region region, long offset, long expectedValue, long desiredValue) {
        int i = add(CAS, target, region, offset, 8);
        expected[i] = expectedValue;
        desired[i] = desiredValue;
        return i;
    }

    @Override
    public void post() {
        InProcessFabric fabric = endpoint.fabric();
        long completion = System.nanoTime() + fabric.batchNanos(size - posted);
        for (int i = posted; i < size; i++) {
            try {
                InProcessEndpoint peer = fabric.peer(endpoint.machine(), targets[i]);
                ChunkedRegion region = InProcessFabric.region(peer, regions[i]);
                switch (kinds[i]) {
                    case READ -> {
                        InProcessFabric.Ops.read(region, offsets[i], dsts[i], bufOffsets[i], lengths[i]);
                        endpoint.stats().remoteRead(lengths[i]);
                    }
                    case WRITE -> {
                        InProcessFabric.Ops.write(region, offsets[i], srcs[i], bufOffsets[i], lengths[i]);
                        endpoint.stats().remoteWrite(lengths[i]);
                    }
                    default -> {
                        results[i] = InProcessFabric.Ops.cas(region, offsets[i], expected[i], desired[i]);
                        endpoint.stats().remoteAtomic();
                    }
                }
            } catch (RuntimeException e) {
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
        if (kinds[op] != CAS) {
            throw new IllegalArgumentException("operation " + op + " is not a CAS");
        }
        if (!isDone(op)) {
            throw new IllegalStateException("CAS " + op + " has not completed");
        }
        return results[op];
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public int capacity() {
        return kinds.length;
    }

    @Override
    public void clear() {
        if (poll() > 0) {
            throw new IllegalStateException("cannot clear a batch with outstanding operations");
        }
        for (int i = 0; i < size; i++) {
            srcs[i] = null;
            dsts[i] = null;
        }
        size = 0;
        posted = 0;
        failure = null;
    }
}
