package io.pragh.fabric.inprocess;

import io.pragh.address.Address;
import io.pragh.fabric.Endpoint;
import io.pragh.fabric.Fabric;
import io.pragh.fabric.FabricException;
import io.pragh.fabric.MachineMemory;
import io.pragh.fabric.MessageHandler;
import io.pragh.fabric.Region;
import io.pragh.memory.ChunkedRegion;
import io.pragh.memory.RecordExtent;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fabric of an embedded cluster: every machine lives in this JVM, and a one-sided operation is performed by the
 * calling thread directly on the peer's off-heap memory, never by the peer's threads, exactly as a NIC would.
 * Each remote operation can be charged an emulated latency by spinning, so that the cost ratio of remote to local
 * accesses resembles an RDMA cluster's.
 *
 * <p>The default, {@value #DEFAULT_REMOTE_LATENCY_NS} ns, models a 100 Gb/s RDMA READ of a small value (about
 * 2 us round trip on ConnectX-4 class NICs) against roughly 100 ns for a local access: the "at least 20x slower
 * than local reads" of paper section 4. A batch of n operations posted together completes after one latency plus
 * n - 1 gaps of a twentieth of it ({@link #OP_GAP_DIVISOR}): pipelining hides round trips, not a NIC's issue rate.
 *
 * <pre>{@code
 * try (InProcessFabric fabric = new InProcessFabric(2, 0)) {
 *     Endpoint a = fabric.attach(0, memoryA, handlerA);
 *     fabric.attach(1, memoryB, handlerB);
 *     long seen = a.compareAndSwap(1, Region.KEYS, 64, 0, 42);
 * }
 * }</pre>
 */
public final class InProcessFabric implements Fabric {
    private static final Logger LOG = LoggerFactory.getLogger(InProcessFabric.class);

    public static final long DEFAULT_REMOTE_LATENCY_NS = 2_000;
    /**
     * Per-operation cost of a batch beyond its one round trip: a NIC issues small one-sided operations at some
     * 10 million a second per queue pair, so pipelining hides latency but not this gap. A twentieth of the latency.
     */
    public static final int OP_GAP_DIVISOR = 20;
    /** How long {@link #close} waits for a delivery thread's message handler (bounded waits inside it included). */
    private static final long CLOSE_PATIENCE_MILLIS = 60_000;

    private final int machineCount;
    private final long remoteLatencyNs;
    private final AtomicReferenceArray<InProcessEndpoint> endpoints;
    /**
     * Per machine: {@link #REACHABLE}, {@link #CUT}, or 1 + n: n operations left before the cut. One
     * volatile read on every remote operation, so no lock, and a reachable machine costs nothing more.
     */
    private final AtomicIntegerArray unreachable;
    private static final int REACHABLE = 0;
    private static final int CUT = 1;
    private volatile boolean closed;
    private volatile boolean cpuAtomicsCoherent = true;

    public InProcessFabric(int machineCount, long remoteLatencyNs) {
        Address.checkMachineCount(machineCount);
        if (remoteLatencyNs < 0) {
            throw new IllegalArgumentException("remote latency must be >= 0 ns, got " + remoteLatencyNs);
        }
        this.machineCount = machineCount;
        this.remoteLatencyNs = remoteLatencyNs;
        this.endpoints = new AtomicReferenceArray<>(machineCount);
        this.unreachable = new AtomicIntegerArray(machineCount);
    }

    @Override
    public String name() {
        return "in-process";
    }

    public long remoteLatencyNs() {
        return remoteLatencyNs;
    }

    /** Time a batch of {@code operations} posted together takes to complete. */
    long batchNanos(int operations) {
        return remoteLatencyNs + (long) Math.max(0, operations - 1) * (remoteLatencyNs / OP_GAP_DIVISOR);
    }

    public int machineCount() {
        return machineCount;
    }

    @Override
    public Endpoint attach(int machine, MachineMemory memory, MessageHandler handler) {
        checkOpen();
        if (machine < 0 || machine >= machineCount) {
            throw new IllegalArgumentException("machine " + machine + " is outside this fabric's 0.."
                + (machineCount - 1));
        }
        InProcessEndpoint endpoint = new InProcessEndpoint(this, machine, memory, handler);
        if (!endpoints.compareAndSet(machine, null, endpoint)) {
            endpoint.stop();
            throw new IllegalStateException("machine " + machine + " is already attached to this fabric");
        }
        endpoint.start();
        return endpoint;
    }

    /**
     * Takes machine {@code machine} off the fabric, as its process dying would: operations and messages addressed to
     * it fail retryably ("unreachable") from now on, its delivery thread is stopped and joined, and the id may be
     * {@link #attach attached} again, by a restarted machine with new memory. A thread that looked the old machine up
     * just before may still finish one operation on its memory, so the caller keeps that memory until such a thread
     * cannot exist any more (an embedded cluster keeps it until it closes).
     *
     * <pre>{@code
     * fabric.detach(2);
     * fabric.attach(2, newMemory, newHandler);   // machine 2 restarted
     * }</pre>
     *
     * @return whether the delivery thread ended within {@link #CLOSE_PATIENCE_MILLIS}
     */
    public boolean detach(int machine) {
        checkFaultTarget(machine);
        InProcessEndpoint gone = endpoints.getAndSet(machine, null);
        if (gone == null) {
            throw new IllegalStateException("machine " + machine + " is not attached to this fabric");
        }
        gone.stop();
        return gone.awaitStopped(CLOSE_PATIENCE_MILLIS);
    }

    /**
     * Makes endpoints report CPU atomics as not coherent with the fabric's, as a NIC with HCA-only atomics does, so
     * that the store's loopback-CAS path runs (every CAS here is a CPU CAS either way, so results stay correct).
     */
    public void setCpuAtomicsCoherent(boolean coherent) {
        this.cpuAtomicsCoherent = coherent;
    }

    boolean cpuAtomicsCoherent() {
        return cpuAtomicsCoherent;
    }

    /** Cuts (or restores) every path to a machine, as a network partition would; operations on it fail fast. */
    public void setReachable(int machine, boolean reachable) {
        checkFaultTarget(machine);
        unreachable.set(machine, reachable ? REACHABLE : CUT);
    }

    /**
     * A machine that dies in the middle of a protocol: it serves {@code operations} more remote operations or
     * messages addressed to it, then is cut off as by {@link #setReachable setReachable(machine, false)}.
     *
     * <pre>{@code
     * fabric.cutAfter(2, 1);   // the next operation on machine 2 passes, the one after fails
     * }</pre>
     */
    public void cutAfter(int machine, int operations) {
        if (operations < 0) {
            throw new IllegalArgumentException("operations must be >= 0, got " + operations);
        }
        checkFaultTarget(machine);
        unreachable.set(machine, 1 + operations);
    }

    private void checkFaultTarget(int machine) {
        if (machine < 0 || machine >= machineCount) {
            throw new IllegalArgumentException("machine " + machine + " is outside this fabric's 0.."
                + (machineCount - 1));
        }
    }

    private boolean reachable(int machine) {
        return unreachable.get(machine) != CUT;
    }

    /** Whether {@code from} can reach {@code target} now; unlike an operation, not counted against a cut. */
    boolean reachable(int from, int target) {
        return !closed && target >= 0 && target < machineCount && endpoints.get(target) != null && reachable(from)
            && reachable(target);
    }

    /** Whether an operation addressed to {@code target} may pass; counts it against a pending cut. */
    private boolean admit(int target) {
        int state = unreachable.get(target);
        if (state == REACHABLE) {
            return true;
        }
        if (state == CUT) {
            return false;
        }
        // 1 + n: n operations left, this one included; the last one turns the state to CUT.
        unreachable.compareAndSet(target, state, state == 2 ? CUT : state - 1);
        return true;
    }

    InProcessEndpoint peer(int from, int target) {
        if (closed) {
            throw new FabricException("fabric is closed", false);
        }
        if (target < 0 || target >= machineCount) {
            throw new FabricException("machine " + target + " does not exist in this " + machineCount
                + "-machine fabric", false);
        }
        InProcessEndpoint peer = endpoints.get(target);
        if (peer == null || !reachable(from) || !admit(target)) {
            throw new FabricException("machine " + target + " is unreachable from machine " + from, true);
        }
        return peer;
    }

    /** Emulated wire time; spinning (not sleeping) because a thread polling an RDMA completion queue spins too. */
    void chargeLatency() {
        if (remoteLatencyNs > 0) {
            long deadline = System.nanoTime() + remoteLatencyNs;
            while (System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
        }
    }

    boolean isClosed() {
        return closed;
    }

    private void checkOpen() {
        if (closed) {
            throw new FabricException("fabric is closed", false);
        }
    }

    /**
     * Refuses every operation and message from now on, stops every machine's delivery thread and waits for them (a
     * message being handled is handled to the end, as a machine's memory must outlive its handler).
     */
    @Override
    public void close() {
        closed = true;
        InProcessEndpoint[] stopped = new InProcessEndpoint[machineCount];
        for (int i = 0; i < machineCount; i++) {
            stopped[i] = endpoints.getAndSet(i, null);
            if (stopped[i] != null) {
                stopped[i].stop();
            }
        }
        for (InProcessEndpoint e : stopped) {
            if (e != null && !e.awaitStopped(CLOSE_PATIENCE_MILLIS)) {
                LOG.warn("the in-process fabric's delivery thread of machine {} did not end within {} ms of the fabric's"
                    + " close", e.machine(), CLOSE_PATIENCE_MILLIS);
            }
        }
    }

    static ChunkedRegion region(InProcessEndpoint peer, Region region) {
        return peer.memory().region(region);
    }

    /** The only place an in-process one-sided operation touches a peer's memory. */
    static final class Ops {
        private Ops() {
        }

        static int read(ChunkedRegion region, long offset, MutableDirectBuffer dst, int dstOffset, int length) {
            region.checkRange(offset, length);
            region.getBytes(offset, dst, dstOffset, length);
            return length;
        }

        static int readRecord(ChunkedRegion region, long offset, MutableDirectBuffer dst, int dstOffset,
                              int maxLength, RecordExtent extent) {
            region.checkRange(offset, maxLength);
            return region.getRecord(offset, dst, dstOffset, maxLength, extent);
        }

        static void write(ChunkedRegion region, long offset, DirectBuffer src, int srcOffset, int length) {
            region.checkRange(offset, length);
            region.putBytes(offset, src, srcOffset, length);
        }

        static long cas(ChunkedRegion region, long offset, long expected, long desired) {
            region.checkAligned(offset);
            return region.compareAndExchangeLong(offset, expected, desired);
        }
    }

}
