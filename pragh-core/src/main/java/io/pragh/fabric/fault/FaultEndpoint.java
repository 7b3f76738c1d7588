package io.pragh.fabric.fault;

import io.pragh.fabric.Endpoint;
import io.pragh.fabric.FabricException;
import io.pragh.fabric.FabricStats;
import io.pragh.fabric.OpBatch;
import io.pragh.fabric.Region;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/** One machine's endpoint under a {@link FaultFabric}: asks the rules about every call, then the wrapped endpoint. */
final class FaultEndpoint implements Endpoint {
    private final FaultFabric fabric;
    private final Endpoint inner;
    private final int machine;

    FaultEndpoint(FaultFabric fabric, Endpoint inner) {
        this.fabric = fabric;
        this.inner = inner;
        this.machine = inner.machine();
    }

    FaultFabric fabric() {
        return fabric;
    }

    Endpoint inner() {
        return inner;
    }

    @Override
    public int machine() {
        return machine;
    }

    @Override
    public int machineCount() {
        return inner.machineCount();
    }

    @Override
    public FabricStats stats() {
        return inner.stats();
    }

    @Override
    public void read(int target, Region region, long offset, MutableDirectBuffer dst, int dstOffset, int length) {
        FaultRule.Decision d = fabric.decide(OpKind.READ, false, machine, target, region, length);
        if (d != null) {
            if (d.action() == FaultAction.APPLY_LATE) {
                throw late(d, OpKind.READ, target, region, offset, null, 0, length, 0, 0);
            }
            before(d, OpKind.READ, target, region, offset);
        }
        inner.read(target, region, offset, dst, dstOffset, length);
        if (d != null) {
            after(d, OpKind.READ, target, region, offset);
        }
    }

    @Override
    public void write(int target, Region region, long offset, DirectBuffer src, int srcOffset, int length) {
        FaultRule.Decision d = fabric.decide(OpKind.WRITE, false, machine, target, region, length);
        if (d != null) {
            if (d.action() == FaultAction.APPLY_LATE) {
                throw late(d, OpKind.WRITE, target, region, offset, src, srcOffset, length, 0, 0);
            }
            before(d, OpKind.WRITE, target, region, offset);
        }
        inner.write(target, region, offset, src, srcOffset, length);
        if (d != null) {
            after(d, OpKind.WRITE, target, region, offset);
        }
    }

    @Override
    public long compareAndSwap(int target, Region region, long offset, long expected, long desired) {
        FaultRule.Decision d = fabric.decide(OpKind.CAS, false, machine, target, region, Long.BYTES);
        if (d != null) {
            if (d.action() == FaultAction.APPLY_LATE) {
                throw late(d, OpKind.CAS, target, region, offset, null, 0, Long.BYTES, expected, desired);
            }
            before(d, OpKind.CAS, target, region, offset);
        }
        long seen = inner.compareAndSwap(target, region, offset, expected, desired);
        if (d != null) {
            after(d, OpKind.CAS, target, region, offset);
        }
        return seen;
    }

    @Override
    public OpBatch newBatch(int capacity) {
        return new FaultBatch(this, inner.newBatch(capacity), capacity);
    }

    @Override
    public void send(int target, DirectBuffer message, int offset, int length) {
        FaultRule.Decision d = fabric.decide(OpKind.MESSAGE, false, machine, target, null, length);
        if (d == null) {
            inner.send(target, message, offset, length);
            return;
        }
        switch (d.action()) {
            case DROP -> {
                // Lost on the way: the sender believes it sent it.
            }
            case REFUSE -> throw new FabricException("fault injected: machine " + target + " refused a message from"
                + " machine " + machine, true);
            case APPLY_THEN_FAIL -> {
                inner.send(target, message, offset, length);
                throw new FabricException("fault injected: a message to machine " + target + " was delivered but"
                    + " its sender saw the connection fail", true);
            }
            case HOLD_REPLY -> {
                inner.send(target, message, offset, length);
                ((HoldRule) d.rule()).await();
            }
            case APPLY_LATE -> throw late(d, OpKind.MESSAGE, target, null, 0, message, offset, length, 0, 0);
            case HOLD -> {
                byte[] copy = copy(message, offset, length);
                if (!((HoldRule) d.rule()).enqueue(() -> deliver(target, copy))) {
                    inner.send(target, message, offset, length);
                }
            }
            default -> { // DELAY, REORDER
                byte[] copy = copy(message, offset, length);
                try {
                    fabric.timer().schedule(() -> deliver(target, copy), d.delayNanos(), TimeUnit.NANOSECONDS);
                } catch (RejectedExecutionException closing) {
                    // The fault fabric is closing: the message is lost with it.
                }
            }
        }
    }

    private static byte[] copy(DirectBuffer message, int offset, int length) {
        byte[] copy = new byte[length];
        message.getBytes(offset, copy);
        return copy;
    }

    /** A late delivery: if the target went away meanwhile, the message is lost, as on a real network. */
    private void deliver(int target, byte[] bytes) {
        try {
            inner.send(target, new UnsafeBuffer(bytes), 0, bytes.length);
        } catch (RuntimeException lost) {
            // Nobody waits for a send's outcome any more.
        }
    }

    @Override
    public boolean cpuAtomicsCoherent() {
        return inner.cpuAtomicsCoherent();
    }

    @Override
    public int maxMessageBytes() {
        return inner.maxMessageBytes();
    }

    @Override
    public boolean isReachable(int target) {
        return !fabric.cut(machine, target) && inner.isReachable(target);
    }

    /**
     * An operation of {@link FaultAction#APPLY_LATE}: arranges for it to land later, with the operands it has now (a
     * WRITE's or a message's bytes copied, since the caller reuses its buffer once told it failed), and returns the
     * failure its issuer sees, the retryable kind a fabric reports when an operation got no answer in time.
     */
    FabricException late(FaultRule.Decision d, OpKind kind, int target, Region region, long offset, DirectBuffer src,
                         int srcOffset, int length, long expected, long desired) {
        BooleanSupplier landing = switch (kind) {
            case CAS -> () -> inner.compareAndSwap(target, region, offset, expected, desired) == expected;
            case WRITE -> {
                UnsafeBuffer bytes = new UnsafeBuffer(copy(src, srcOffset, length));
                yield () -> {
                    inner.write(target, region, offset, bytes, 0, length);
                    return true;
                };
            }
            case MESSAGE -> {
                byte[] bytes = copy(src, srcOffset, length);
                yield () -> {
                    inner.send(target, new UnsafeBuffer(bytes), 0, bytes.length);
                    return true;
                };
            }
            case READ -> null; // nothing of a READ lands at its target
        };
        if (landing != null) {
            fabric.applyLater(d, landing);
        }
        return new FabricException("fault injected: no answer from machine " + target + " to " + kind + " of machine "
            + machine + (kind == OpKind.MESSAGE ? "" : " at " + region + " " + offset) + " in time"
            + (landing != null ? " (it will still take effect there)" : ""), true);
    }

    /** The fault's part before a one-sided operation runs; throws when it must not run. */
    void before(FaultRule.Decision d, OpKind kind, int target, Region region, long offset) {
        switch (d.action()) {
            case DELAY, REORDER -> pause(d.delayNanos());
            case HOLD -> ((HoldRule) d.rule()).await();
            case DROP, REFUSE -> throw new FabricException("fault injected: " + kind + " of machine " + machine
                + " to machine " + target + " " + region + " at " + offset + (d.action() == FaultAction.DROP
                ? " was dropped" : " was refused (machine cut off)"), true);
            default -> {
                // APPLY_THEN_FAIL and HOLD_REPLY act after the operation.
            }
        }
    }

    /** The fault's part after a one-sided operation ran. */
    void after(FaultRule.Decision d, OpKind kind, int target, Region region, long offset) {
        if (d.action() == FaultAction.HOLD_REPLY) {
            ((HoldRule) d.rule()).await();
        } else if (d.action() == FaultAction.APPLY_THEN_FAIL) {
            throw new FabricException("fault injected: " + kind + " of machine " + machine + " to machine " + target
                + " " + region + " at " + offset + " took effect but its reply was lost", true);
        }
    }

    static void pause(long nanos) {
        long deadline = System.nanoTime() + nanos;
        for (long left = nanos; left > 0; left = deadline - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }
}
