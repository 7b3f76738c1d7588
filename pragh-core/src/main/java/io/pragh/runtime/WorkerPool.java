package io.pragh.runtime;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import net.openhft.affinity.AffinityLock;
import org.agrona.concurrent.ManyToManyConcurrentArrayQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The worker threads of one machine: each runs client operations to completion from one shared task queue, and
 * waits for work by {@link SpinYieldPark} (spin, yield, then park until a submit wakes it), so that an idle machine
 * costs no CPU (a timed poll would wake each worker thousands of times a second, which on a small host running
 * several machines takes the cores their busy threads need) and a busy one hands tasks over in microseconds. Workers are pinned to cores with OpenHFT affinity when asked and when the host has enough cores for every
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
    /** Each worker's wait, indexed as {@link #threads}: a submit wakes the first one that sleeps. */
    private final SpinYieldPark[] idles;
    private volatile boolean running = true;

    public WorkerPool(String name, int workers, boolean pin) {
        if (workers < 1) {
            throw new IllegalArgumentException("a machine needs at least one worker, got " + workers);
        }
        threads = new Thread[workers];
        idles = new SpinYieldPark[workers];
        for (int i = 0; i < workers; i++) {
            int self = i;
            Thread t = new Thread(() -> loop(self, pin), "pragh-" + name + "-worker-" + i);
            t.setDaemon(true);
            threads[i] = t;
            idles[i] = new SpinYieldPark(t);
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
        // After the offer (SpinYieldPark's Dekker pair): a worker that announced its sleep before this read is woken;
        // one that announces it later re-checks the queue and finds the task. One awake worker is enough.
        for (SpinYieldPark idle : idles) {
            if (idle.signal()) {
                break;
            }
        }
        if (!running) {
            // Stopped between the check and the offer: the stop's drain may be over, so drain again here. (The stop
            // clears running, then drains; this offers, then reads running: one of the two sees the task.)
            failQueued();
        }
        return done;
    }

    private void loop(int self, boolean pin) {
        AffinityLock lock = pin ? AffinityLock.acquireLock() : null;
        SpinYieldPark idle = idles[self];
        SpinYieldPark.Emptiness empty = queue::isEmpty;
        try {
            while (running) {
                Task task = queue.poll();
                if (task != null) {
                    task.body().run();
                    idle.reset();
                } else {
                    idle.idle(empty);
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
        for (Thread t : threads) {
            java.util.concurrent.locks.LockSupport.unpark(t); // a parked worker sees the stop now, not in 100 ms
        }
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
