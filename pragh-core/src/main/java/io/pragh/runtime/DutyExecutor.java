package io.pragh.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An executor for one duty that runs tasks others hand over (a server's migration coordination or crash recovery, a
 * fault fabric's delayed deliveries): daemon threads named {@code pragh-<duty>} (a pool's numbered
 * {@code pragh-<duty>-N}), and a close that stops them and waits until each thread has ended. An executor reports
 * itself terminated just before its threads end, so waiting for termination alone would let a closed machine's
 * memory be freed under a thread still on its way out. A duty with one loop of its own is a {@link DutyThread}.
 *
 * <pre>{@code
 * DutyExecutor control = DutyExecutor.single("m0-coordinator");
 * control.execute(this::decide);
 * control.schedule(this::decide, 50, TimeUnit.MILLISECONDS);
 * control.close();   // interrupts, then waits (up to a minute) for the thread to end
 * }</pre>
 */
public final class DutyExecutor implements Executor, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DutyExecutor.class);
    private static final long CLOSE_PATIENCE_MILLIS = TimeUnit.MINUTES.toMillis(1);

    private final String name;
    private final ThreadPoolExecutor executor;
    /** Threads started for this duty and not seen ended yet; guarded by itself. */
    private final List<Thread> threads = new ArrayList<>();

    private DutyExecutor(String duty, boolean pool) {
        this.name = "pragh-" + Objects.requireNonNull(duty, "duty");
        ThreadFactory factory = pool ? numbered() : r -> track(new Thread(r, name));
        this.executor = pool
            ? new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS, new SynchronousQueue<>(), factory)
            : new ScheduledThreadPoolExecutor(1, factory);
    }

    /** One thread, tasks in the order handed over; {@link #schedule} delays one. */
    public static DutyExecutor single(String duty) {
        return new DutyExecutor(duty, false);
    }

    /** A thread per task that finds none idle (idle ones end after a minute); no {@link #schedule}. */
    public static DutyExecutor pool(String duty) {
        return new DutyExecutor(duty, true);
    }

    /** {@code pragh-<duty>}: the name of the thread, or the prefix of a pool's. */
    public String name() {
        return name;
    }

    /** Runs {@code task} on this duty's thread; refused ({@code RejectedExecutionException}) once shut down. */
    @Override
    public void execute(Runnable task) {
        executor.execute(task);
    }

    /** Runs {@code task} after {@code delay}; only on a {@link #single} executor. */
    public ScheduledFuture<?> schedule(Runnable task, long delay, TimeUnit unit) {
        if (!(executor instanceof ScheduledThreadPoolExecutor scheduled)) {
            throw new IllegalStateException(name + " is a pool: only a single-thread duty executor schedules");
        }
        return scheduled.schedule(task, delay, unit);
    }

    /** Takes no new task; those handed over already run to their end. */
    public void shutdown() {
        executor.shutdown();
    }

    /** Takes no new task, drops the queued ones and interrupts those running. */
    public void shutdownNow() {
        executor.shutdownNow();
    }

    /**
     * After a shutdown: waits up to {@code millis} until the executor terminated and every thread it started ended.
     * Called on one of those threads it cannot wait for itself, and says so by returning false at once.
     *
     * @return whether everything ended
     */
    public boolean awaitEnded(long millis) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        List<Thread> started;
        synchronized (threads) {
            if (threads.contains(Thread.currentThread())) {
                return false;
            }
            started = new ArrayList<>(threads);
        }
        try {
            if (!executor.awaitTermination(millis, TimeUnit.MILLISECONDS)) {
                return false;
            }
            for (Thread t : started) {
                t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
                if (t.isAlive()) {
                    return false;
                }
            }
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Shuts down now and waits up to a minute for the threads to end; logs a warning if one did not. */
    @Override
    public void close() {
        shutdownNow();
        if (!awaitEnded(CLOSE_PATIENCE_MILLIS) && !onOwnThread()) {
            LOG.warn("{} did not stop within a minute of being closed", name);
        }
    }

    private boolean onOwnThread() {
        synchronized (threads) {
            return threads.contains(Thread.currentThread());
        }
    }

    private ThreadFactory numbered() {
        AtomicInteger n = new AtomicInteger();
        return r -> track(new Thread(r, name + "-" + n.incrementAndGet()));
    }

    private Thread track(Thread t) {
        t.setDaemon(true);
        synchronized (threads) {
            threads.removeIf(old -> old.getState() == Thread.State.TERMINATED);
            threads.add(t);
        }
        return t;
    }
}
