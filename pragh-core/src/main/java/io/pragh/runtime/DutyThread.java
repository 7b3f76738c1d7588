package io.pragh.runtime;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One thread per duty with one clear loop: {@link #doWork()} until closed, parking for a short while whenever a
 * pass found nothing to do. Migration and garbage collection of a machine each run on one.
 *
 * <pre>{@code
 * DutyThread gc = new DutyThread("m0-gc", 1_000_000) {
 *     protected int doWork() { return drainRings(); }
 * };
 * gc.start();
 * }</pre>
 */
public abstract class DutyThread implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DutyThread.class);

    private final Thread thread;
    private final long idleParkNanos;
    private volatile boolean running = true;

    protected DutyThread(String name, long idleParkNanos) {
        this.idleParkNanos = idleParkNanos;
        this.thread = new Thread(this::loop, "pragh-" + name);
        this.thread.setDaemon(true);
    }

    /**
     * A duty that runs {@code round} every {@code intervalNanos}, the first one an interval after its start, the next
     * an interval after the last one ended (a slow round delays the next rather than piling rounds up).
     *
     * <pre>{@code
     * DutyThread t = DutyThread.periodic("tiering", TimeUnit.SECONDS.toNanos(1), this::runRound);
     * t.start();
     * }</pre>
     */
    public static DutyThread periodic(String name, long intervalNanos, Runnable round) {
        return new DutyThread(name, intervalNanos) {
            private long next = System.nanoTime() + intervalNanos;

            @Override
            protected int doWork() {
                if (System.nanoTime() < next) {
                    return 0;
                }
                round.run();
                next = System.nanoTime() + intervalNanos;
                return 1;
            }
        };
    }

    public final void start() {
        thread.start();
    }

    /** The name of the duty's thread, as thread dumps and logs show it. */
    public final String threadName() {
        return thread.getName();
    }

    /** One pass of the duty; returns how much work it did (0 lets the thread park). */
    protected abstract int doWork();

    /** Runs once on the duty's thread after the loop ended. */
    protected void onStop() {
    }

    public final boolean isRunning() {
        return running;
    }

    /**
     * The duty's thread, its state and its innermost {@code frames} frames: for a report of a duty that seems stuck
     * (a log whose records stay unwritten), which otherwise says nothing until it gets going again, if ever.
     */
    public final String describe(int frames) {
        StackTraceElement[] stack = thread.getStackTrace();
        StringBuilder b = new StringBuilder(thread.getName()).append(' ').append(thread.getState());
        for (int i = 0; i < Math.min(frames, stack.length); i++) {
            b.append(i == 0 ? " at " : " <- ").append(stack[i]);
        }
        return b.toString();
    }

    /** Ends a park early: new work arrived. */
    public final void wake() {
        LockSupport.unpark(thread);
    }

    private void loop() {
        try {
            while (running) {
                if (doWork() == 0) {
                    LockSupport.parkNanos(idleParkNanos);
                }
            }
        } catch (RuntimeException | Error e) {
            if (!running) {
                return; // closing: a pass cut short by its machine closing is not news
            }
            LOG.error("{} stopped by a failure", thread.getName(), e);
            throw e;
        } finally {
            // Before onStop: work offered from now on is refused at once instead of waiting for a thread that is gone.
            running = false;
            onStop();
        }
    }

    /**
     * Ends the loop (a pass under way finishes first) and waits up to {@code millis} for the thread to end.
     *
     * @return whether the thread has ended (true also when it never started)
     */
    public final boolean stop(long millis) {
        running = false;
        wake();
        if (Thread.currentThread() == thread) {
            return false;
        }
        try {
            thread.join(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return !thread.isAlive();
    }

    /** Ends the loop and waits for the thread, up to a minute; logs a warning if it did not end. */
    @Override
    public void close() {
        if (!stop(TimeUnit.MINUTES.toMillis(1)) && Thread.currentThread() != thread) {
            LOG.warn("{} did not stop within a minute of being closed", thread.getName());
        }
    }
}
