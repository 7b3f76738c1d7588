package io.pragh.rdf.load;

import io.pragh.embedded.EmbeddedCluster;
import io.pragh.embedded.Machine;
import io.pragh.gremlin.load.EdgeBulkLoad;
import io.pragh.gremlin.structure.EmbeddedGraphStore;
import io.pragh.gremlin.structure.GraphStore;
import io.pragh.gremlin.structure.UpdateBatch;
import io.pragh.store.BulkInsert;
import io.pragh.store.Mutators;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.LongAdder;

/**
 * Writes whole values, each appended to whatever its key holds: on an embedded cluster, one thread per machine puts
 * the values it is home to straight into its regions through a {@code BulkInsert} (a key that has a value already
 * gets the value appended through the update protocol); on any other store (a cluster reached through a machine's
 * client port), batched APPENDs, one round trip per batch of {@value #BATCH} values. Either way one write per value,
 * never one per triple.
 *
 * <p>Example: {@code new HomeValues(store, progress).write(keys, values, n);}
 */
final class HomeValues {
    private static final int BATCH = 1024;

    private final GraphStore store;
    private final EdgeBulkLoad.Progress progress;

    HomeValues(final GraphStore store, final EdgeBulkLoad.Progress progress) {
        this.store = store;
        this.progress = progress;
    }

    /** Writes {@code values[i]} under {@code keys[i]} for i below {@code count}; returns once all are acknowledged. */
    void write(final long[] keys, final byte[][] values, final int count) {
        if (store instanceof EmbeddedGraphStore embedded) {
            writeAtHomes(embedded.cluster(), keys, values, count);
        } else {
            final UpdateBatch batch = new UpdateBatch(BATCH);
            for (int i = 0; i < count; i++) {
                batch.add(keys[i], Mutators.APPEND, values[i]);
                if (batch.size() == BATCH || i == count - 1) {
                    store.updateAll(batch);
                    batch.clear();
                    progress.update("writing", i + 1, count);
                }
            }
        }
        progress.update("writing", count, count);
    }

    private void writeAtHomes(final EmbeddedCluster cluster, final long[] keys, final byte[][] values,
                              final int count) {
        final int machines = cluster.machineCount();
        final LongAdder written = new LongAdder();
        final ExecutorService pool = Executors.newFixedThreadPool(machines, r -> {
            final Thread t = new Thread(r, "pragh-rdf-load-home");
            t.setDaemon(true);
            return t;
        });
        try {
            final List<Future<?>> homes = new ArrayList<>(machines);
            for (int m = 0; m < machines; m++) {
                final Machine machine = cluster.machine(m);
                homes.add(pool.submit(() -> writeHome(cluster, machine, keys, values, count, written)));
            }
            for (final Future<?> home : homes) {
                while (!home.isDone()) {
                    progress.update("writing", written.sum(), count);
                    Thread.sleep(50);
                }
                home.get();
            }
        } catch (ExecutionException e) {
            throw new IllegalStateException("RDF load failed while writing (" + written.sum() + " of " + count
                + " values were written and stay): " + e.getCause().getMessage(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("RDF load interrupted while writing", e);
        } finally {
            pool.shutdownNow();
        }
    }

    private static void writeHome(final EmbeddedCluster cluster, final Machine machine, final long[] keys,
                                  final byte[][] values, final int count, final LongAdder written) {
        final BulkInsert insert = new BulkInsert(machine.store());
        final UnsafeBuffer view = new UnsafeBuffer(new byte[0]);
        int since = 0;
        for (int i = 0; i < count; i++) {
            if (cluster.home(keys[i]) != machine.id()) {
                continue;
            }
            view.wrap(values[i]);
            if (!insert.insert(keys[i], view, 0, values[i].length)) {
                machine.update(keys[i], Mutators.APPEND, values[i]);
            }
            if (++since == 1024) {
                written.add(since);
                since = 0;
            }
        }
        written.add(since);
        insert.durable().join();
    }
}
