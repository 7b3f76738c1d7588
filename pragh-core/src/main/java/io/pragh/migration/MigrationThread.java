package io.pragh.migration;

import io.pragh.runtime.DutyThread;
import io.pragh.store.MachineStore;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

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
public final class MigrationThread extends DutyThread {
    private record Task(long key, CompletableFuture<Migrator.Outcome> done) {
    }

    private final Migrator migrator;
    private final ConcurrentLinkedQueue<Task> queue = new ConcurrentLinkedQueue<>();

    public MigrationThread(MachineStore store) {
        super("m" + store.id() + "-migration", TimeUnit.MILLISECONDS.toNanos(1));
        this.migrator = new Migrator(store);
    }

    public CompletableFuture<Migrator.Outcome> submit(long key) {
        CompletableFuture<Migrator.Outcome> done = new CompletableFuture<>();
        if (!isRunning()) {
            done.completeExceptionally(new IllegalStateException("migration thread is stopped"));
            return done;
        }
        queue.add(new Task(key, done));
        wake();
        return done;
    }

    public int queued() {
        return queue.size();
    }

    public Migrator migrator() {
        return migrator;
    }

    @Override
    protected int doWork() {
        Task task = queue.poll();
        if (task == null) {
            return 0;
        }
        try {
            task.done().complete(migrator.migrate(task.key()));
        } catch (RuntimeException e) {
            task.done().completeExceptionally(e);
        }
        return 1;
    }

    @Override
    protected void onStop() {
        Task t;
        while ((t = queue.poll()) != null) {
            t.done().completeExceptionally(new IllegalStateException("migration thread stopped"));
        }
    }
}
