package io.pragh.durability;

import io.pragh.fabric.Endpoint;
import io.pragh.fabric.Fabric;
import io.pragh.fabric.FabricStats;
import io.pragh.fabric.MachineMemory;
import io.pragh.fabric.MessageHandler;
import io.pragh.fabric.OpBatch;
import io.pragh.fabric.Region;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * A fabric that passes everything to another one, except that it can hold the next message sent by a thread of a
 * chosen name until the test lets it go: the way to stall a machine's log thread while it acknowledges a batch, so
 * that what is appended meanwhile stays queued, deterministically.
 *
 * <pre>{@code
 * StallingFabric fabric = new StallingFabric(new InProcessFabric(3, 0));
 * StallingFabric.Hold hold = fabric.holdNextSendBy("pragh-m1-wal");
 * // ... cause that send, then:
 * hold.awaitReached();
 * hold.release();
 * }</pre>
 */
final class StallingFabric implements Fabric {
    private final Fabric inner;
    private final AtomicReference<Hold> armed = new AtomicReference<>();

    StallingFabric(Fabric inner) {
        this.inner = inner;
    }

    /** Holds the next message that the thread named {@code threadName} sends. */
    Hold holdNextSendBy(String threadName) {
        Hold h = new Hold(threadName);
        armed.set(h);
        return h;
    }

    @Override
    public String name() {
        return "stalling(" + inner.name() + ")";
    }

    @Override
    public Endpoint attach(int machine, MachineMemory memory, MessageHandler handler) {
        return new StallingEndpoint(inner.attach(machine, memory, handler));
    }

    @Override
    public void close() {
        Hold h = armed.getAndSet(null);
        if (h != null) {
            h.release();
        }
        inner.close();
    }

    /** One held send: the sending thread waits in it until {@link #release}. */
    static final class Hold {
        private final String threadName;
        private final CountDownLatch reached = new CountDownLatch(1);
        private final CountDownLatch released = new CountDownLatch(1);

        private Hold(String threadName) {
            this.threadName = threadName;
        }

        /** Waits until the send is being held; fails the test after 10 s rather than hang it. */
        void awaitReached() throws InterruptedException {
            if (!reached.await(10, TimeUnit.SECONDS)) {
                throw new AssertionError("thread " + threadName + " sent nothing to hold");
            }
        }

        void release() {
            released.countDown();
        }

        private void hold() {
            reached.countDown();
            try {
                if (!released.await(30, TimeUnit.SECONDS)) {
                    throw new AssertionError("a send held on " + threadName + " was never released");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private final class StallingEndpoint implements Endpoint {
        private final Endpoint inner;

        StallingEndpoint(Endpoint inner) {
            this.inner = inner;
        }

        @Override
        public void send(int target, DirectBuffer message, int offset, int length) {
            Hold h = armed.get();
            if (h != null && h.threadName.equals(Thread.currentThread().getName()) && armed.compareAndSet(h, null)) {
                h.hold();
            }
            inner.send(target, message, offset, length);
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
            inner.write(target, region, offset, src, srcOffset, length);
        }

        @Override
        public long compareAndSwap(int target, Region region, long offset, long expected, long desired) {
            return inner.compareAndSwap(target, region, offset, expected, desired);
        }

        @Override
        public OpBatch newBatch(int capacity) {
            return inner.newBatch(capacity);
        }

        @Override
        public boolean cpuAtomicsCoherent() {
            return inner.cpuAtomicsCoherent();
        }

        @Override
        public boolean isReachable(int target) {
            return inner.isReachable(target);
        }
    }
}
