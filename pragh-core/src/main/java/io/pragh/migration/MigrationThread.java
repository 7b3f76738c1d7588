package io.pragh.migration;

import io.pragh.PraghException;
import io.pragh.runtime.DutyThread;
import io.pragh.store.MachineStore;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

/**
 * The migration thread of one machine: takes approved keys from its queue and migrates them here, a pipeline round
 * of many keys at a time, while workers keep reading and writing the same keys.
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

    private final Task[] round;
    private final long[] keys;
    private final Migrator.Outcome[] outcomes;

    public MigrationThread(MachineStore store) {
        this(store, Migrator.DEFAULT_DEPTH);
    }

    /** @param depth keys in flight per pipeline round */
    public MigrationThread(MachineStore store, int depth) {
        // An idle pass every 10 ms, not every 1: submit wakes the thread, so the park only paces the settle passes of
        // unfinished migrations (which wait leases of tens of ms and more). At 1 ms, eight idle machines' migration
        // threads took 5.4-7.6 us of CPU per traversal query on this 2-core host (docs/results, cpu9).
        super("m" + store.id() + "-migration", TimeUnit.MILLISECONDS.toNanos(10));
        this.migrator = new Migrator(store, depth);
        this.round = new Task[depth];
        this.keys = new long[depth];
        this.outcomes = new Migrator.Outcome[depth];
    }

    public CompletableFuture<Migrator.Outcome> submit(long key) {
        CompletableFuture<Migrator.Outcome> done = new CompletableFuture<>();
        if (!isRunning()) {
            done.completeExceptionally(new PraghException("migration thread is stopped"));
            return done;
        }
        Task task = new Task(key, done);
        queue.add(task);
        // Stopped between the check and the add: the stop's drain may have run already, so fail it here. (The stop
        // clears running, then drains; this adds, then reads running: one of the two sees the task.)
        if (!isRunning() && queue.remove(task)) {
            done.completeExceptionally(new PraghException("migration thread is stopped"));
        }
        wake();
        return done;
    }

    public int queued() {
        return queue.size();
    }

    public Migrator migrator() {
        return migrator;
    }

    /** Takes up to one pipeline's depth of queued keys and migrates them together. */
    @Override
    protected int doWork() {
        // What failed rounds left half done: their keys may not be updated until then, so not only when idle.
        migrator.settleUnfinished();
        int n = 0;
        Task task;
        while (n < round.length && (task = queue.poll()) != null) {
            round[n] = task;
            keys[n++] = task.key();
        }
        if (n == 0) {
            return 0;
        }
        try {
            migrator.migrateAll(keys, n, outcomes);
            for (int i = 0; i < n; i++) {
                round[i].done().complete(outcomes[i]);
            }
        } catch (RuntimeException e) {
            for (int i = 0; i < n; i++) {
                round[i].done().completeExceptionally(e);
            }
        }
        java.util.Arrays.fill(round, 0, n, null);
        return n;
    }

    @Override
    protected void onStop() {
        Task t;
        while ((t = queue.poll()) != null) {
            t.done().completeExceptionally(new PraghException("migration thread stopped"));
        }
    }
}
