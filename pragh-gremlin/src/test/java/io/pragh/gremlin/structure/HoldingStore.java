package io.pragh.gremlin.structure;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A store that holds one chosen update of one chosen thread before it reaches the store, until the test releases it
 * (a sealer stalled between two steps), or fails it there (a sealer whose machine crashed at that step). The fabric's
 * fault rules ({@code io.pragh.fabric.fault}) select operations by kind and machine, which cannot tell a seal's
 * commit from the appends beside it; this selects by mutator and thread. Latches, never sleeps.
 *
 * <p>Example: {@code Hold h = store.hold(GraphMutations.SEAL_COMMIT, sealerThread, false); h.awaitArrived(); ... h.release();}
 */
final class HoldingStore extends ForwardingGraphStore {
    private volatile Hold hold;

    HoldingStore(final GraphStore store) {
        super(store);
    }

    /** Holds the next update with {@code mutatorId} that {@code thread} issues; {@code crash}: fail it instead. */
    Hold hold(final int mutatorId, final Thread thread, final boolean crash) {
        final Hold h = new Hold(mutatorId, thread, crash);
        hold = h;
        return h;
    }

    /** One held update: arrived once the thread reached it, released (or failed) when the test says. */
    static final class Hold {
        private final int mutatorId;
        private final Thread thread;
        private final boolean crash;
        private final CountDownLatch arrived = new CountDownLatch(1);
        private final CountDownLatch released = new CountDownLatch(1);

        private Hold(final int mutatorId, final Thread thread, final boolean crash) {
            this.mutatorId = mutatorId;
            this.thread = thread;
            this.crash = crash;
        }

        /** Waits until the thread reached the update (a minute at most, for a broken test, not for timing). */
        void awaitArrived() throws InterruptedException {
            if (!arrived.await(1, TimeUnit.MINUTES)) {
                throw new AssertionError("the held thread never reached mutator " + mutatorId);
            }
        }

        void release() {
            released.countDown();
        }
    }

    /** A sealer's machine that crashed at the held step. */
    static final class Crash extends RuntimeException {
        Crash(final int mutatorId) {
            super("crashed before mutator " + mutatorId + " reached the store");
        }
    }

    @Override
    public void update(final long key, final int mutatorId, final byte[] argument) {
        final Hold h = hold;
        if (h != null && h.mutatorId == mutatorId && h.thread == Thread.currentThread()) {
            hold = null;
            h.arrived.countDown();
            if (h.crash) {
                throw new Crash(mutatorId);
            }
            try {
                h.released.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while held", e);
            }
        }
        store.update(key, mutatorId, argument);
    }
}
