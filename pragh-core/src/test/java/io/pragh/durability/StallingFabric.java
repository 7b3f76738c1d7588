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
 * chosen name, or the next message or one-sided CAS from one machine to another, until the test lets it go: a peer
 * that does not take what it is sent (the TCP fabric's sender then waits, up to its request timeout), as a thread
 * that must not wait for peers sees it, deterministically.
 *
 * <pre>{@code
 * StallingFabric fabric = new StallingFabric(new InProcessFabric(3, 0));
 * StallingFabric.Hold hold = fabric.holdNextSend(1, 2);
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
        return arm(new Hold("thread " + threadName, false, threadName, -1, -1));
    }

    /** Holds the next message machine {@code from} sends to machine {@code to}, whichever thread sends it. */
    Hold holdNextSend(int from, int to) {
        return arm(new Hold("machine " + from + " (a message to machine " + to + ")", false, null, from, to));
    }

    /** Holds the next one-sided CAS machine {@code from} issues on machine {@code to}'s memory. */
    Hold holdNextCas(int from, int to) {
        return arm(new Hold("machine " + from + " (a CAS on machine " + to + ")", true, null, from, to));
    }

    private Hold arm(Hold h) {
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

    /** One held send (or CAS): the issuing thread waits in it until {@link #release}. */
    static final class Hold {
        private final String what;
        private final boolean cas;
        private final String threadName;
        private final int from;
        private final int to;
        private final CountDownLatch reached = new CountDownLatch(1);
        private final CountDownLatch released = new CountDownLatch(1);

        private Hold(String what, boolean cas, String threadName, int from, int to) {
            this.what = what;
            this.cas = cas;
            this.threadName = threadName;
            this.from = from;
            this.to = to;
        }

        private boolean matches(boolean isCas, int source, int target) {
            return cas == isCas && (threadName == null || threadName.equals(Thread.currentThread().getName()))
                && (from < 0 || from == source) && (to < 0 || to == target);
        }

        /**
         * Waits until the send is being held; fails the test after 120 s rather than hang it (a failure bound only:
         * a starved host has kept a thread from running for tens of seconds).
         */
        void awaitReached() throws InterruptedException {
            if (!reached.await(120, TimeUnit.SECONDS)) {
                throw new AssertionError(what + " sent nothing to hold");
            }
        }

        /** Whether the operation is being held now or was (the issuing thread reached it). */
        boolean reached() {
            return reached.getCount() == 0;
        }

        void release() {
            released.countDown();
        }

        private void hold() {
            reached.countDown();
            try {
                // Far beyond any test's patience: what waits behind a held send must fail its test, not pass it
                // late because the hold let go by itself.
                if (!released.await(300, TimeUnit.SECONDS)) {
                    throw new AssertionError("a send held on " + what + " was never released");
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
            holdIfArmed(false, target);
            inner.send(target, message, offset, length);
        }

        private void holdIfArmed(boolean cas, int target) {
            Hold h = armed.get();
            if (h != null && h.matches(cas, inner.machine(), target) && armed.compareAndSet(h, null)) {
                h.hold();
            }
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
            holdIfArmed(true, target);
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
