package io.pragh.consistency;

import io.pragh.fabric.Endpoint;
import io.pragh.fabric.Fabric;
import io.pragh.fabric.FabricStats;
import io.pragh.fabric.MachineMemory;
import io.pragh.fabric.MessageHandler;
import io.pragh.fabric.OpBatch;
import io.pragh.fabric.Region;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * A fabric that passes everything to another one, except that it can hold one chosen one-sided update (a WRITE, or
 * a CAS, which updates 8 bytes) of one machine until the test lets it go: the way to freeze a protocol between two of
 * its steps (say, between MIGRATE's CAS of the home's word and its invalidation, a CAS of the source's header) and
 * run other operations in that window deterministically. An update added to a batch is held when the batch is
 * posted, before any of the batch's operations runs.
 *
 * <pre>{@code
 * PausableFabric fabric = new PausableFabric(new InProcessFabric(4, 0));
 * PausableFabric.Pause p = fabric.pauseNextUpdate(1, Region.VALUES, 8);   // machine 1's next 8-byte value update
 * // ... start the operation on another thread, then:
 * p.awaitReached();
 * // ... run whatever must happen inside the window, then:
 * p.release();
 * }</pre>
 */
final class PausableFabric implements Fabric {
    private final Fabric inner;
    private final Pause[] armed;

    PausableFabric(Fabric inner, int machines) {
        this.inner = inner;
        this.armed = new Pause[machines];
    }

    /**
     * Holds machine {@code machine}'s next one-sided WRITE of {@code length} bytes into {@code region}, or its next CAS
     * there when {@code length} is 8.
     */
    synchronized Pause pauseNextUpdate(int machine, Region region, int length) {
        Pause p = new Pause(region, length);
        armed[machine] = p;
        return p;
    }

    private synchronized Pause take(int machine, Region region, int length) {
        Pause p = armed[machine];
        if (p != null && p.region == region && p.length == length) {
            armed[machine] = null;
            return p;
        }
        return null;
    }

    @Override
    public String name() {
        return "pausable(" + inner.name() + ")";
    }

    @Override
    public Endpoint attach(int machine, MachineMemory memory, MessageHandler handler) {
        return new PausingEndpoint(machine, inner.attach(machine, memory, handler));
    }

    @Override
    public void close() {
        for (int i = 0; i < armed.length; i++) {
            Pause p = armed[i];
            if (p != null) {
                p.release();
            }
        }
        inner.close();
    }

    /** One held operation: the holder waits in it until {@link #release}. */
    static final class Pause {
        private final Region region;
        private final int length;
        private final CountDownLatch reached = new CountDownLatch(1);
        private final CountDownLatch released = new CountDownLatch(1);

        private Pause(Region region, int length) {
            this.region = region;
            this.length = length;
        }

        /** Waits until the operation is being held; fails the test after 120 s (a starved host) rather than hang it. */
        void awaitReached() throws InterruptedException {
            if (!reached.await(120, TimeUnit.SECONDS)) {
                throw new AssertionError("the " + length + "-byte " + region + " update to pause never happened");
            }
        }

        void release() {
            released.countDown();
        }

        private void hold() {
            reached.countDown();
            try {
                // Far beyond any test's patience: what waits behind a pause must fail its test, not pass it late.
                if (!released.await(300, TimeUnit.SECONDS)) {
                    throw new AssertionError("a paused " + region + " update was never released");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private final class PausingBatch implements OpBatch {
        private final int machine;
        private final OpBatch inner;
        private Pause due;

        PausingBatch(int machine, OpBatch inner) {
            this.machine = machine;
            this.inner = inner;
        }

        private void holdIfDue() {
            Pause p = due;
            due = null;
            if (p != null) {
                p.hold();
            }
        }

        @Override
        public int read(int target, Region region, long offset, MutableDirectBuffer dst, int dstOffset, int length) {
            return inner.read(target, region, offset, dst, dstOffset, length);
        }

        @Override
        public int write(int target, Region region, long offset, DirectBuffer src, int srcOffset, int length,
                         boolean signalled) {
            if (due == null) {
                due = take(machine, region, length);
            }
            return inner.write(target, region, offset, src, srcOffset, length, signalled);
        }

        @Override
        public int compareAndSwap(int target, Region region, long offset, long expected, long desired) {
            if (due == null) {
                due = take(machine, region, 8);
            }
            return inner.compareAndSwap(target, region, offset, expected, desired);
        }

        @Override
        public void post() {
            holdIfDue();
            inner.post();
        }

        @Override
        public int poll() {
            return inner.poll();
        }

        @Override
        public void awaitAll() {
            holdIfDue();
            inner.awaitAll();
        }

        @Override
        public boolean isDone(int op) {
            return inner.isDone(op);
        }

        @Override
        public long casResult(int op) {
            return inner.casResult(op);
        }

        @Override
        public int size() {
            return inner.size();
        }

        @Override
        public int capacity() {
            return inner.capacity();
        }

        @Override
        public void clear() {
            due = null;
            inner.clear();
        }
    }

    private final class PausingEndpoint implements Endpoint {
        private final int machine;
        private final Endpoint inner;

        PausingEndpoint(int machine, Endpoint inner) {
            this.machine = machine;
            this.inner = inner;
        }

        @Override
        public int machine() {
            return inner.machine();
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
            inner.read(target, region, offset, dst, dstOffset, length);
        }

        @Override
        public void write(int target, Region region, long offset, DirectBuffer src, int srcOffset, int length) {
            Pause p = take(machine, region, length);
            if (p != null) {
                p.hold();
            }
            inner.write(target, region, offset, src, srcOffset, length);
        }

        @Override
        public long compareAndSwap(int target, Region region, long offset, long expected, long desired) {
            Pause p = take(machine, region, 8);
            if (p != null) {
                p.hold();
            }
            return inner.compareAndSwap(target, region, offset, expected, desired);
        }

        @Override
        public OpBatch newBatch(int capacity) {
            return new PausingBatch(machine, inner.newBatch(capacity));
        }

        @Override
        public void send(int target, DirectBuffer message, int offset, int length) {
            inner.send(target, message, offset, length);
        }

        @Override
        public boolean isReachable(int target) {
            return inner.isReachable(target);
        }
    }
}
