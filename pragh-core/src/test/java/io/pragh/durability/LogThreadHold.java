package io.pragh.durability;

import io.pragh.embedded.Machine;
import io.pragh.store.CommitObserver;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.agrona.DirectBuffer;

/**
 * Holds a durable machine's log thread in the acknowledging part of a batch until the test lets it go: a commit
 * observer that waits in the first commit it sees on the thread {@code pragh-m<id>-wal} (an update of a key homed
 * there, published there, runs its observer on the log thread right after the log wrote it). What is appended
 * meanwhile stays queued for the next batch, deterministically. Install it before the update it should catch.
 *
 * <pre>{@code
 * LogThreadHold hold = LogThreadHold.install(cluster.machine(home));
 * var first = cluster.machine(origin).updateAsync(key, Mutators.SET, value);
 * hold.awaitReached();   // the log wrote "first" and is held acknowledging it
 * hold.release();
 * }</pre>
 */
final class LogThreadHold implements CommitObserver {
    private final String thread;
    private final CountDownLatch reached = new CountDownLatch(1);
    private final CountDownLatch released = new CountDownLatch(1);

    private LogThreadHold(int machine) {
        this.thread = "pragh-m" + machine + "-wal";
    }

    static LogThreadHold install(Machine m) {
        LogThreadHold h = new LogThreadHold(m.id());
        m.store().setCommitObserver(h);
        return h;
    }

    @Override
    public void onCommit(long key, long version, int mutatorId, DirectBuffer arg, int argOff, int argLen,
                         boolean deleted) {
        if (!Thread.currentThread().getName().equals(thread) || reached.getCount() == 0) {
            return;
        }
        reached.countDown();
        try {
            if (!released.await(300, TimeUnit.SECONDS)) { // beyond any test's patience, as StallingFabric's
                throw new AssertionError("the log thread held on " + thread + " was never released");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Waits until the log thread is held; fails the test after 120 s (a starved host) rather than hang it. */
    void awaitReached() throws InterruptedException {
        if (!reached.await(120, TimeUnit.SECONDS)) {
            throw new AssertionError(thread + " committed nothing to hold");
        }
    }

    void release() {
        released.countDown();
    }
}
