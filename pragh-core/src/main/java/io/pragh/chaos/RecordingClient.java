package io.pragh.chaos;

import io.pragh.PraghException;
import io.pragh.embedded.Machine;
import io.pragh.linearizability.History;
import io.pragh.linearizability.Operation;
import io.pragh.migration.Migrator;
import io.pragh.store.Mutators;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One client of an embedded cluster whose every operation lands in a {@link History}: invoked and answered times
 * around the call, what it wrote or read, and, when it throws, an operation of unknown outcome (then the exception
 * goes on to the caller). For hand-written scenarios and for each thread of {@link ChaosWorkload}. Not thread-safe:
 * one per thread.
 *
 * <pre>{@code
 * RecordingClient c = new RecordingClient(history.recorder(1));
 * c.put(cluster.machine(0), key, ChaosValues.put(key, 1, 1, 0));
 * byte[] v = c.get(cluster.machine(2), key);
 * }</pre>
 */
public final class RecordingClient {
    private final History.Recorder recorder;

    public RecordingClient(History.Recorder recorder) {
        this.recorder = recorder;
    }

    public History.Recorder recorder() {
        return recorder;
    }

    public void put(Machine m, long key, byte[] value) {
        long t0 = System.nanoTime();
        try {
            m.put(key, value);
        } catch (RuntimeException e) {
            recorder.failed(Operation.Kind.PUT, key, value, -1, t0, e);
            throw e;
        }
        recorder.put(key, value, t0, System.nanoTime());
    }

    public void append(Machine m, long key, byte[] appended) {
        long t0 = System.nanoTime();
        try {
            m.update(key, Mutators.APPEND, appended);
        } catch (RuntimeException e) {
            recorder.failed(Operation.Kind.APPEND, key, appended, -1, t0, e);
            throw e;
        }
        recorder.append(key, appended, t0, System.nanoTime());
    }

    public void delete(Machine m, long key) {
        long t0 = System.nanoTime();
        try {
            m.delete(key);
        } catch (RuntimeException e) {
            recorder.failed(Operation.Kind.DELETE, key, null, -1, t0, e);
            throw e;
        }
        recorder.delete(key, t0, System.nanoTime());
    }

    /** The key's value through machine {@code m}, null when it has none. */
    public byte[] get(Machine m, long key) {
        long t0 = System.nanoTime();
        byte[] v;
        try {
            v = m.get(key);
        } catch (RuntimeException e) {
            recorder.failed(Operation.Kind.GET, key, null, -1, t0, e);
            throw e;
        }
        recorder.get(key, v, t0, System.nanoTime());
        return v;
    }

    public Migrator.Outcome migrate(Machine m, long key) {
        long t0 = System.nanoTime();
        Migrator.Outcome o;
        try {
            o = m.migrate(key);
        } catch (RuntimeException e) {
            recorder.failed(Operation.Kind.MIGRATE, key, null, m.id(), t0, e);
            throw e;
        }
        recorder.migrate(key, m.id(), t0, System.nanoTime());
        return o;
    }

    /**
     * Waits for a MIGRATE started at {@code invoke} by {@link Machine#migrateAsync} and records it.
     *
     * @throws PraghException when it failed or did not finish within {@code timeoutMillis}
     */
    public Migrator.Outcome awaitMigration(long key, int target, long invoke, CompletableFuture<Migrator.Outcome> f,
                                           long timeoutMillis) {
        try {
            Migrator.Outcome o = f.get(timeoutMillis, TimeUnit.MILLISECONDS);
            recorder.migrate(key, target, invoke, System.nanoTime());
            return o;
        } catch (ExecutionException e) {
            recorder.failed(Operation.Kind.MIGRATE, key, null, target, invoke, e.getCause());
            throw new PraghException("MIGRATE of key " + key + " to machine " + target + " failed: " + e.getCause(),
                e.getCause());
        } catch (TimeoutException e) {
            recorder.failed(Operation.Kind.MIGRATE, key, null, target, invoke, e);
            throw new PraghException("MIGRATE of key " + key + " to machine " + target + " did not finish within "
                + timeoutMillis + " ms");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            recorder.failed(Operation.Kind.MIGRATE, key, null, target, invoke, e);
            throw new PraghException("interrupted waiting for a MIGRATE");
        }
    }
}
