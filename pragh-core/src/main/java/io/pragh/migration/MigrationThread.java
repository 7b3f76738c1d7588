package io.pragh.migration;

import io.pragh.store.MachineStore;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The migration thread of one machine: takes approved keys from its queue and migrates them here, one at a time,
 * while workers keep reading and writing the same keys.
 *
 * <pre>{@code
 * MigrationThread t = new MigrationThread(store);
 * t.start();
 * t.submit(key).join();
 * }</pre>
 */
public final class MigrationThread implements Runnable, AutoCloseable {
    private record Task(long key, CompletableFuture<Migrator.Outcome> done) {
    }

    private final Migrator migrator;
    private final ConcurrentLinkedQueue<Task> queue = new ConcurrentLinkedQueue<>();
    private final Thread thread;
    private volatile boolean running = true;

    public MigrationThread(MachineStore store) {
        this.migrator = new Migrator(store);
        this.thread = new Thread(this, "pragh-m" + store.id() + "-migration");
        this.thread.setDaemon(true);
    }

    public void start() {
        thread.start();
    }

    public CompletableFuture<Migrator.Outcome> submit(long key) {
        CompletableFuture<Migrator.Outcome> done = new CompletableFuture<>();
        if (!running) {
            done.completeExceptionally(new IllegalStateException("migration thread is stopped"));
            return done;
        }
        queue.add(new Task(key, done));
        LockSupport.unpark(thread);
        return done;
    }

    public int queued() {
        return queue.size();
    }

    public Migrator migrator() {
        return migrator;
    }

    @Override
    public void run() {
        while (running) {
            Task task = queue.poll();
            if (task == null) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
                continue;
            }
            try {
                task.done().complete(migrator.migrate(task.key()));
            } catch (RuntimeException e) {
                task.done().completeExceptionally(e);
            }
        }
        Task t;
        while ((t = queue.poll()) != null) {
            t.done().completeExceptionally(new IllegalStateException("migration thread stopped"));
        }
    }

    @Override
    public void close() {
        running = false;
        LockSupport.unpark(thread);
        try {
            thread.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
