package io.pragh.runtime;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import net.openhft.affinity.AffinityLock;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.ManyToManyConcurrentArrayQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The worker threads of one machine: each runs client operations to completion from one shared task queue, and
 * backs off from spinning to parking when idle, so that many machines in one JVM on a small host do not starve each
 * other. Workers are pinned to cores with OpenHFT affinity when asked and when the host has enough cores for every
 * pinned thread plus one; otherwise pinning would only make threads fight over the same cores.
 *
 * <pre>{@code
 * try (WorkerPool pool = new WorkerPool("m0", 2, false)) {
 *     long n = pool.submit(() -> 42L).join();
 * }
 * }</pre>
 */
public final class WorkerPool implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(WorkerPool.class);

    private static final int QUEUE_CAPACITY = 1 << 16;

    private final ManyToManyConcurrentArrayQueue<Task> queue = new ManyToManyConcurrentArrayQueue<>(QUEUE_CAPACITY);
    private record Task(Runnable body, CompletableFuture<?> done) {
    }

    private final Thread[] threads;
    private volatile boolean running = true;

    public WorkerPool(String name, int workers, boolean pin) {
        if (workers < 1) {
            throw new IllegalArgumentException("a machine needs at least one worker, got " + workers);
        }
        threads = new Thread[workers];
        for (int i = 0; i < workers; i++) {
            Thread t = new Thread(() -> loop(pin), "pragh-" + name + "-worker-" + i);
            t.setDaemon(true);
            threads[i] = t;
        }
        for (Thread t : threads) {
            t.start();
        }
    }

    /** Whether pinning {@code threads} threads can help on this host. */
    public static boolean pinningPays(int threads) {
        return Runtime.getRuntime().availableProcessors() >= threads + 1;
    }

    public int size() {
        return threads.length;
    }

    public <T> CompletableFuture<T> submit(Callable<T> task) {
        CompletableFuture<T> done = new CompletableFuture<>();
        Runnable r = () -> {
            try {
                done.complete(task.call());
            } catch (Throwable e) {
                done.completeExceptionally(e);
            }
        };
        if (!running) {
            throw new RejectedExecutionException("worker pool is closed");
        }
        if (!queue.offer(new Task(r, done))) {
            throw new RejectedExecutionException("worker queue is full (" + QUEUE_CAPACITY + " tasks)");
        }
        if (!running) {
            // Stopped between the check and the offer: the stop's drain may be over, so drain again here. (The stop
            // clears running, then drains; this offers, then reads running: one of the two sees the task.)
            failQueued();
        }
        return done;
    }

    private void loop(boolean pin) {
        AffinityLock lock = pin ? AffinityLock.acquireLock() : null;
        IdleStrategy idle = new BackoffIdleStrategy(64, 16, TimeUnit.MICROSECONDS.toNanos(1),
            TimeUnit.MICROSECONDS.toNanos(200));
        try {
            while (running) {
                Task task = queue.poll();
                if (task != null) {
                    task.body().run();
                    idle.reset();
                } else {
                    idle.idle();
                }
            }
        } finally {
            if (lock != null) {
                lock.release();
            }
        }
    }

    /**
     * Stops the workers (a task under way finishes first), waits up to {@code millis} for them to end and fails the
     * tasks still queued.
     *
     * @return whether every worker thread has ended
     */
    public boolean stop(long millis) {
        running = false;
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        boolean ended = true;
        for (Thread t : threads) {
            if (t == Thread.currentThread()) {
                ended = false;
                continue;
            }
            try {
                t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            ended &= !t.isAlive();
        }
        failQueued();
        return ended;
    }

    private void failQueued() {
        Task t;
        while ((t = queue.poll()) != null) {
            t.done().completeExceptionally(new RejectedExecutionException("worker pool closed before the task ran"));
        }
    }

    /** Stops the workers, waiting up to a minute for them; logs a warning if one did not end. */
    @Override
    public void close() {
        if (!stop(TimeUnit.MINUTES.toMillis(1))) {
            LOG.warn("a worker of {}'s pool did not stop within a minute", threads[0].getName());
        }
    }
}
