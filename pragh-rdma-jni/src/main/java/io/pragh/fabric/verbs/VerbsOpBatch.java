package io.pragh.fabric.verbs;

import io.pragh.fabric.FabricException;
import io.pragh.fabric.RecordedOps;
import io.pragh.fabric.RecordingOpBatch;
import io.pragh.rdma.jni.Completion;
import java.util.Arrays;

/**
 * One-sided operations posted to the NIC together. Adding records an operation; {@link #post()} translates each
 * into a work request (remote address and rkey from the peer's region table, local memory either the caller's
 * buffer, when it lies in registered memory, or bounce memory of the lane) and posts them grouped by peer, so each
 * peer's requests go out as one chain. Completions are reaped by the same thread in {@link #poll()} and
 * {@link #awaitAll()}; the work request id is (batch token, operation index).
 */
final class VerbsOpBatch extends RecordingOpBatch {
    private static final byte READ = RecordedOps.READ;
    private static final byte WRITE = RecordedOps.WRITE;
    private static final byte CAS = RecordedOps.CAS;
    /** CAS on an absolute remote address, without byte-order conversion: only the byte-order probe uses it. */
    private static final byte RAW_CAS = 4;
    private static final int NONE = -1;
    /** IBV_WC_LOC_PROT_ERR and IBV_WC_REM_ACCESS_ERR / REM_INV_REQ_ERR: the request itself was wrong. */
    private static final int[] NOT_RETRYABLE = {4, 9, 10, 11};

    private final Lane lane;
    private final int[] rawRkeys;
    // Posting state.
    private final Lane.Link[] resolvedLink;
    private final long[] remoteAddresses;
    private final int[] rkeys;
    private final Lane.Link[] linkOf;
    private final int[] scratchAt;
    private final boolean[] signalled;
    private final int[] coveredBy;
    private final int[] coverCount;
    private final boolean[] done;
    private final boolean[] failedOp;
    private final int[] order;
    private int remaining;
    private int token;
    /** True inside post(): completions reaped meanwhile must not give the token away while requests still use it. */
    private boolean posting;
    private FabricException failure;

    VerbsOpBatch(Lane lane, int capacity) {
        super(capacity);
        this.lane = lane;
        rawRkeys = new int[capacity];
        resolvedLink = new Lane.Link[capacity];
        remoteAddresses = new long[capacity];
        rkeys = new int[capacity];
        linkOf = new Lane.Link[capacity];
        scratchAt = new int[capacity];
        signalled = new boolean[capacity];
        coveredBy = new int[capacity];
        coverCount = new int[capacity];
        done = new boolean[capacity];
        failedOp = new boolean[capacity];
        order = new int[capacity];
    }

    /** Only the lane's owner adds. */
    @Override
    protected int next() {
        lane.checkOwner();
        return super.next();
    }

    /** A new operation's posting state. */
    @Override
    protected void resetOp(int i) {
        linkOf[i] = null;
        resolvedLink[i] = null;
        scratchAt[i] = NONE;
        signalled[i] = false;
        coveredBy[i] = NONE;
        coverCount[i] = 0;
        done[i] = false;
        failedOp[i] = false;
    }

    /** A CAS on an absolute address and rkey of the target, operands and reply untouched (byte-order probe). */
    int compareAndSwapRaw(int target, long address, int rkey, long expectedValue, long desiredValue) {
        int i = next();
        ops.record(i, RAW_CAS, target, null, address, Long.BYTES);
        rawRkeys[i] = rkey;
        ops.expected[i] = expectedValue;
        ops.desired[i] = desiredValue;
        return i;
    }

    @Override
    public void post() {
        lane.checkOwner();
        if (posted == size) {
            return;
        }
        lane.resetScratchIfIdle();
        if (token == 0) {
            token = lane.register(this);
        }
        AtomicByteOrder byteOrder = needsByteOrder() ? lane.endpoint().atomicOrder(lane) : AtomicByteOrder.NATIVE;
        posting = true;
        try {
            int survivors = resolve(groupByTarget());
            for (int k = 0; k < survivors; k++) {
                int i = order[k];
                // The last request of a run per peer is signalled: it retires the unsignalled ones before it.
                boolean lastForTarget = k + 1 == survivors || ops.targets[order[k + 1]] != ops.targets[i];
                try {
                    postOne(i, lastForTarget, byteOrder);
                } catch (RuntimeException e) {
                    fail(i, asFabricException(i, e));
                }
            }
            lane.flush();
        } finally {
            posting = false;
            posted = size;
        }
        if (remaining == 0) {
            releaseToken();
        }
    }

    private boolean needsByteOrder() {
        for (int i = posted; i < size; i++) {
            if (ops.kinds[i] == CAS) {
                return true;
            }
        }
        return false;
    }

    /** Orders the unposted operations by target, keeping their order within a target (a stable counting sort). */
    private int groupByTarget() {
        int count = 0;
        int machines = lane.config().machineCount();
        for (int i = posted; i < size; i++) {
            if (ops.targets[i] < 0 || ops.targets[i] >= machines) {
                fail(i, new FabricException("machine " + ops.targets[i] + " does not exist in this " + machines
                    + "-machine fabric", false));
            }
        }
        for (int t = 0; t < machines; t++) {
            for (int i = posted; i < size; i++) {
                if (ops.targets[i] == t) {
                    order[count++] = i;
                }
            }
        }
        return count;
    }

    /**
     * Connects to each target once and checks every operation against the target's region table, failing those that
     * cannot go out; compacts {@code order} to the survivors, whose run per target is then known before posting.
     */
    private int resolve(int count) {
        int survivors = 0;
        int target = NONE;
        Lane.Link link = null;
        FabricException linkFailure = null;
        for (int k = 0; k < count; k++) {
            int i = order[k];
            if (ops.targets[i] != target) {
                target = ops.targets[i];
                try {
                    link = lane.link(target);
                    linkFailure = null;
                } catch (FabricException e) {
                    link = null;
                    linkFailure = e;
                }
            }
            if (link == null) {
                fail(i, linkFailure);
                continue;
            }
            try {
                RemoteMemory remote = link.remote;
                switch (ops.kinds[i]) {
                    case RAW_CAS -> {
                        remoteAddresses[i] = ops.offsets[i];
                        rkeys[i] = rawRkeys[i];
                    }
                    case CAS -> {
                        remoteAddresses[i] = remote.atomicAddress(ops.regions[i], ops.offsets[i]);
                        rkeys[i] = remote.rkey(ops.regions[i], ops.offsets[i]);
                    }
                    default -> {
                        remoteAddresses[i] = remote.address(ops.regions[i], ops.offsets[i], ops.lengths[i]);
                        rkeys[i] = remote.rkey(ops.regions[i], ops.offsets[i]);
                    }
                }
            } catch (RuntimeException e) {
                fail(i, asFabricException(i, e));
                continue;
            }
            resolvedLink[i] = link;
            order[survivors++] = i;
        }
        return survivors;
    }

    private void postOne(int i, boolean lastForTarget, AtomicByteOrder byteOrder) {
        Lane.Link link = resolvedLink[i];
        long localAddress;
        int lkey;
        LocalMemory local = lane.endpoint().localMemory();
        Transport.Registration direct = ops.kinds[i] == READ
            ? local.find(ops.dsts[i], ops.bufOffsets[i], ops.lengths[i])
            : ops.kinds[i] == WRITE ? local.find(ops.srcs[i], ops.bufOffsets[i], ops.lengths[i]) : null;
        if (direct != null) {
            localAddress = (ops.kinds[i] == READ ? ops.dsts[i].addressOffset() : ops.srcs[i].addressOffset())
                + ops.bufOffsets[i];
            lkey = direct.lkey();
        } else {
            scratchAt[i] = lane.scratch(ops.lengths[i]);
            ScratchArena arena = lane.arena();
            localAddress = arena.address(scratchAt[i]);
            lkey = arena.lkey();
            if (ops.kinds[i] == WRITE) {
                arena.view().putBytes(scratchAt[i], ops.srcs[i], ops.bufOffsets[i], ops.lengths[i]);
            }
        }
        // A bounced request must report completion: only then may its bounce memory be reused.
        boolean signal = ops.signalRequested[i] || scratchAt[i] != NONE || lastForTarget
            || link.uncovered.size() + 1 >= lane.config().sendQueueDepth() / 2;
        lane.awaitCredit(link);
        if (link.down) {
            lane.abandon(link, "the connection to machine " + ops.targets[i] + " went down");
            throw new FabricException("the connection to machine " + ops.targets[i] + " went down", true);
        }
        long wrId = ((long) token << 32) | i;
        long qp = link.connection.qp();
        var wr = lane.nextDescriptor();
        switch (ops.kinds[i]) {
            case READ -> wr.read(qp, wrId, localAddress, lkey, remoteAddresses[i], rkeys[i], ops.lengths[i], true);
            case WRITE -> wr.write(qp, wrId, localAddress, lkey, remoteAddresses[i], rkeys[i], ops.lengths[i],
                signal);
            case CAS -> wr.compareAndSwap(qp, wrId, localAddress, lkey, remoteAddresses[i], rkeys[i],
                byteOrder.operand(ops.expected[i]), byteOrder.operand(ops.desired[i]), true);
            default -> wr.compareAndSwap(qp, wrId, localAddress, lkey, remoteAddresses[i], rkeys[i], ops.expected[i],
                ops.desired[i], true);
        }
        linkOf[i] = link;
        link.inFlight++;
        remaining++;
        signalled[i] = signal;
        if (signal) {
            coverCount[i] = link.uncovered.size();
            for (int u = 0; u < link.uncovered.size(); u++) {
                coveredBy[link.uncovered.getInt(u)] = i;
            }
            link.uncovered.clear();
            lane.signalled();
        } else {
            link.uncovered.addInt(i);
        }
        var stats = lane.endpoint().stats();
        switch (ops.kinds[i]) {
            case READ -> stats.remoteRead(ops.lengths[i]);
            case WRITE -> stats.remoteWrite(ops.lengths[i]);
            case CAS -> stats.remoteAtomic();
            default -> {
                // the byte-order probe is the fabric's own business, not an access of the store
            }
        }
    }

    Lane.Link linkOf(int op) {
        return op >= 0 && op < size ? linkOf[op] : null;
    }

    /** A signalled request completed: it and every unsignalled request it covers are done. */
    void completed(int op) {
        if (op < 0 || op >= size || effectivelyDone(op)) {
            return;
        }
        Lane.Link link = linkOf[op];
        if (scratchAt[op] != NONE) {
            ScratchArena arena = lane.arena();
            if (ops.kinds[op] == READ) {
                ops.dsts[op].putBytes(ops.bufOffsets[op], arena.view(), scratchAt[op], ops.lengths[op]);
            } else if (ops.kinds[op] == CAS || ops.kinds[op] == RAW_CAS) {
                long word = arena.view().getLongVolatile(scratchAt[op]);
                ops.results[op] = ops.kinds[op] == CAS ? lane.endpoint().atomicOrder(lane).reply(word) : word;
            }
        }
        done[op] = true;
        remaining -= 1 + coverCount[op];
        link.inFlight -= 1 + coverCount[op];
        lane.retired();
        if (remaining == 0) {
            releaseToken();
        }
    }

    /** A request completed in error; the lane abandons its connection next, failing the rest of it. */
    void failed(int op, String status, int statusCode, int vendorError) {
        if (op < 0 || op >= size) {
            return;
        }
        boolean retryable = Arrays.stream(NOT_RETRYABLE).noneMatch(s -> s == statusCode);
        fail(op, new FabricException("operation " + op + " on machine " + ops.targets[op] + " failed: " + status
            + (statusCode == Completion.FLUSHED ? "" : " (vendor error 0x" + Integer.toHexString(vendorError) + ")"),
            retryable));
    }

    /** Fails every outstanding operation posted on {@code link}. */
    void abandonOn(Lane.Link link, String reason) {
        for (int i = 0; i < size; i++) {
            if (linkOf[i] == link && !effectivelyDone(i)) {
                fail(i, new FabricException(reason, true));
            }
        }
    }

    /** Fails every posted operation not yet done; the NIC can no longer touch their memory (connections are gone). */
    private void failOutstanding(String reason) {
        for (int i = 0; i < posted; i++) {
            if (linkOf[i] != null && !effectivelyDone(i)) {
                fail(i, new FabricException(reason, true));
            }
        }
        if (remaining != 0) {
            throw new IllegalStateException("verbs batch bookkeeping lost " + remaining + " operations");
        }
    }

    boolean hasOutstandingOn(Lane.Link link) {
        for (int i = 0; i < size; i++) {
            if (linkOf[i] == link && !effectivelyDone(i)) {
                return true;
            }
        }
        return false;
    }

    private boolean effectivelyDone(int op) {
        return done[op] || (coveredBy[op] != NONE && done[coveredBy[op]]);
    }

    /** Marks an operation (and, for a signalled one, those it covers) done with a failure. */
    private void fail(int op, FabricException cause) {
        if (effectivelyDone(op)) {
            return;
        }
        if (coveredBy[op] != NONE) {
            fail(coveredBy[op], cause);
            return;
        }
        if (failure == null) {
            failure = cause;
        }
        done[op] = true;
        failedOp[op] = true;
        if (linkOf[op] != null) { // it was posted: it counted as outstanding
            remaining -= 1 + (signalled[op] ? coverCount[op] : 0);
            if (signalled[op]) {
                lane.retired();
            }
            if (remaining == 0 && token != 0) {
                releaseToken();
            }
        }
    }

    private void releaseToken() {
        if (token != 0 && !posting) {
            lane.release(token);
            token = 0;
        }
    }

    @Override
    public int poll() {
        lane.checkOwner();
        if (remaining > 0) {
            lane.flush();
            lane.pollOnce();
        }
        return remaining + (size - posted);
    }

    @Override
    public void awaitAll() {
        lane.checkOwner();
        if (posted < size) {
            post();
        }
        long deadline = 0;
        while (remaining > 0) {
            if (lane.pollOnce() > 0) {
                deadline = 0;
                continue;
            }
            long now = System.nanoTime();
            if (deadline == 0) {
                deadline = now + lane.config().operationTimeout().toNanos();
            } else if (now > deadline) {
                String reason = "operations did not complete within " + lane.config().operationTimeout().toMillis()
                    + " ms";
                lane.abandonAll(this, reason);
                failOutstanding(reason); // whatever no connection accounted for
                break;
            }
            Thread.onSpinWait();
        }
        if (failure != null) {
            FabricException f = failure;
            failure = null;
            throw f;
        }
    }

    @Override
    public boolean isDone(int op) {
        return op >= 0 && op < posted && effectivelyDone(op);
    }

    @Override
    public long casResult(int op) {
        boolean cas = op >= 0 && op < size && (ops.kinds[op] == CAS || ops.kinds[op] == RAW_CAS);
        return checkedCasResult(op, cas, cas && isDone(op), cas && failedOp[op]);
    }

    @Override
    public void clear() {
        lane.checkOwner();
        if (remaining > 0) {
            throw new IllegalStateException("cannot clear a batch with outstanding operations");
        }
        Arrays.fill(linkOf, 0, size, null);
        Arrays.fill(resolvedLink, 0, size, null);
        forgetAll();
        failure = null;
        releaseToken();
    }
}
