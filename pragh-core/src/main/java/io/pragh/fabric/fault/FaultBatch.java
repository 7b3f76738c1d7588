package io.pragh.fabric.fault;

import io.pragh.fabric.FabricException;
import io.pragh.fabric.OpBatch;
import io.pragh.fabric.RecordedOps;
import io.pragh.fabric.RecordingOpBatch;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A batch under a {@link FaultFabric}. Each post asks the rules about the operations it hands over: when none acts,
 * they go to the wrapped fabric's batch as they are; otherwise the whole posted group is performed by a thread of the
 * fault fabric through the wrapped endpoint's single operations, in order (or shuffled, each target's order kept),
 * with each operation's fault applied, and its completions are reported from there. Groups posted while an earlier
 * faulted group is still running follow it, so one target's operations never overtake each other.
 */
final class FaultBatch extends RecordingOpBatch {
    private static final int INNER = 1;
    private static final int PENDING = 2;
    private static final int DONE = 3;
    private static final int FAILED = 4;
    private static final CompletableFuture<Void> IDLE = CompletableFuture.completedFuture(null);

    private final FaultEndpoint endpoint;
    private final OpBatch inner;
    private final int[] innerIndex;
    /** Per operation: {@link #INNER}, or for the fault path {@link #PENDING}, {@link #DONE} or {@link #FAILED}. */
    private final AtomicIntegerArray state;
    private final FaultRule.Decision[] decisions;
    private final AtomicReference<RuntimeException> faultPathFailure = new AtomicReference<>();
    private boolean innerUsed;
    private CompletableFuture<Void> tail = IDLE;

    FaultBatch(FaultEndpoint endpoint, OpBatch inner, int capacity) {
        super(capacity);
        this.endpoint = endpoint;
        this.inner = inner;
        this.innerIndex = new int[capacity];
        this.state = new AtomicIntegerArray(capacity);
        this.decisions = new FaultRule.Decision[capacity];
    }

    @Override
    protected void resetOp(int i) {
        state.set(i, 0);
        decisions[i] = null;
    }

    private static OpKind kindOf(byte kind) {
        return switch (kind) {
            case RecordedOps.READ -> OpKind.READ;
            case RecordedOps.WRITE -> OpKind.WRITE;
            default -> OpKind.CAS;
        };
    }

    @Override
    public void post() {
        if (posted == size) {
            return;
        }
        FaultFabric fabric = endpoint.fabric();
        boolean faulted = false;
        int shuffleFrom = -1;
        for (int i = posted; i < size; i++) {
            decisions[i] = fabric.decide(kindOf(ops.kinds[i]), true, endpoint.machine(), ops.targets[i],
                ops.regions[i], ops.lengths[i]);
            if (decisions[i] != null) {
                faulted = true;
                if (decisions[i].action() == FaultAction.REORDER && shuffleFrom < 0) {
                    shuffleFrom = i;
                }
            }
        }
        if (!faulted && tail.isDone()) {
            for (int i = posted; i < size; i++) {
                state.set(i, INNER);
                innerIndex[i] = switch (ops.kinds[i]) {
                    case RecordedOps.READ -> inner.read(ops.targets[i], ops.regions[i], ops.offsets[i], ops.dsts[i],
                        ops.bufOffsets[i], ops.lengths[i]);
                    case RecordedOps.WRITE -> inner.write(ops.targets[i], ops.regions[i], ops.offsets[i],
                        ops.srcs[i], ops.bufOffsets[i], ops.lengths[i], ops.signalRequested[i]);
                    default -> inner.compareAndSwap(ops.targets[i], ops.regions[i], ops.offsets[i], ops.expected[i],
                        ops.desired[i]);
                };
            }
            inner.post();
            innerUsed = true;
        } else {
            int[] order = order(posted, size, shuffleFrom < 0 ? 0 : decisions[shuffleFrom].seed(), shuffleFrom >= 0);
            for (int i : order) {
                state.set(i, PENDING);
            }
            try {
                tail = tail.thenRunAsync(() -> perform(order), fabric.wire());
            } catch (RejectedExecutionException closed) {
                for (int i : order) {
                    fail(i, new FabricException("fabric is closed", false));
                }
            }
        }
        posted = size;
    }

    /** The operations from..to in the order they run: as queued, or shuffled with each target's order kept. */
    private int[] order(int from, int to, long seed, boolean shuffle) {
        int[] order = new int[to - from];
        if (!shuffle) {
            for (int i = from; i < to; i++) {
                order[i - from] = i;
            }
            return order;
        }
        Map<Integer, ArrayDeque<Integer>> byTarget = new LinkedHashMap<>();
        for (int i = from; i < to; i++) {
            byTarget.computeIfAbsent(ops.targets[i], t -> new ArrayDeque<>()).add(i);
        }
        List<ArrayDeque<Integer>> queues = new ArrayList<>(byTarget.values());
        SplittableRandom random = new SplittableRandom(seed);
        for (int n = 0; n < order.length; n++) {
            int q = random.nextInt(queues.size());
            order[n] = queues.get(q).poll();
            if (queues.get(q).isEmpty()) {
                queues.remove(q);
            }
        }
        return order;
    }

    /** The fault path, on a thread of the fault fabric: each operation with its fault, one after the other. */
    private void perform(int[] order) {
        for (int i : order) {
            FaultRule.Decision d = decisions[i];
            OpKind kind = kindOf(ops.kinds[i]);
            try {
                if (d != null && d.action() == FaultAction.APPLY_LATE) {
                    // The CAS witnesses nothing for its issuer; it lands later with its operands (and, a READ,
                    // lands nothing).
                    throw endpoint.late(d, kind, ops.targets[i], ops.regions[i], ops.offsets[i], ops.srcs[i],
                        ops.bufOffsets[i], ops.lengths[i], ops.expected[i], ops.desired[i]);
                }
                if (d != null) {
                    endpoint.before(d, kind, ops.targets[i], ops.regions[i], ops.offsets[i]);
                }
                switch (ops.kinds[i]) {
                    case RecordedOps.READ -> endpoint.inner().read(ops.targets[i], ops.regions[i], ops.offsets[i],
                        ops.dsts[i], ops.bufOffsets[i], ops.lengths[i]);
                    case RecordedOps.WRITE -> endpoint.inner().write(ops.targets[i], ops.regions[i], ops.offsets[i],
                        ops.srcs[i], ops.bufOffsets[i], ops.lengths[i]);
                    default -> ops.results[i] = endpoint.inner().compareAndSwap(ops.targets[i], ops.regions[i],
                        ops.offsets[i], ops.expected[i], ops.desired[i]);
                }
                if (d != null) {
                    endpoint.after(d, kind, ops.targets[i], ops.regions[i], ops.offsets[i]);
                }
                // Volatile: the owner that sees DONE sees the CAS result and the bytes read.
                state.set(i, DONE);
            } catch (RuntimeException e) {
                fail(i, asFabricException(i, e));
            }
        }
    }

    private void fail(int i, RuntimeException e) {
        faultPathFailure.compareAndSet(null, e);
        state.set(i, FAILED);
    }

    @Override
    public int poll() {
        int outstanding = size - posted;
        if (innerUsed) {
            outstanding += inner.poll();
        }
        for (int i = 0; i < posted; i++) {
            if (state.get(i) == PENDING) {
                outstanding++;
            }
        }
        return outstanding;
    }

    @Override
    public void awaitAll() {
        post();
        RuntimeException first = null;
        if (innerUsed) {
            try {
                inner.awaitAll();
            } catch (RuntimeException e) {
                first = e;
            }
        }
        tail.join(); // never completes exceptionally: perform records every failure
        RuntimeException faulted = faultPathFailure.getAndSet(null);
        if (first == null) {
            first = faulted;
        }
        if (first != null) {
            throw first;
        }
    }

    @Override
    public boolean isDone(int op) {
        if (op >= posted) {
            return false;
        }
        int s = state.get(op);
        return s == INNER ? inner.isDone(innerIndex[op]) : s == DONE || s == FAILED;
    }

    @Override
    public long casResult(int op) {
        boolean cas = ops.kinds[op] == RecordedOps.CAS;
        int s = op < posted ? state.get(op) : 0;
        if (cas && s == INNER) {
            return inner.casResult(innerIndex[op]);
        }
        return checkedCasResult(op, cas, s == DONE || s == FAILED, s == FAILED);
    }

    @Override
    public void clear() {
        if (poll() > 0) {
            throw new IllegalStateException("cannot clear a batch with outstanding operations");
        }
        if (innerUsed) {
            inner.clear();
        }
        Arrays.fill(decisions, 0, size, null);
        forgetAll();
        innerUsed = false;
        faultPathFailure.set(null);
        tail = IDLE;
    }
}
