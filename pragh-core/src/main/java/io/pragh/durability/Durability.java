package io.pragh.durability;

import io.pragh.runtime.DutyThread;
import io.pragh.store.MachineStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.LongPredicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Durability of one machine: recovery from its data directory when it starts, then a write-ahead log of every
 * update of the keys it is home to (acknowledged only once durable) and periodic snapshots that bound the log.
 * Invariant: the durable record of every key lives at its home.
 *
 * <pre>{@code
 * Durability d = Durability.open(Path.of("data/m0"), SyncPolicy.BATCH, 60_000, store); // recovers, then logs
 * ...
 * d.close();
 * }</pre>
 */
public final class Durability implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Durability.class);

    /** How long a read of the durable values waits for the log to write what it accepted before failing. */
    private static final long WRITTEN_WAIT_MILLIS = 30_000;
    private final Path dir;
    private final MachineStore store;
    private final Recovery.Result recovered;
    private final WriteAheadLog wal;
    private final DutyThread snapshots;
    private volatile long lastSnapshotKeys = -1;

    private Durability(Path dir, SyncPolicy policy, long snapshotEveryMillis, MachineStore store) throws IOException {
        this.dir = dir;
        this.store = store;
        this.recovered = Recovery.recover(dir, store);
        this.wal = new WriteAheadLog(dir, policy, store);
        store.setUpdateLog(wal);
        wal.start();
        if (snapshotEveryMillis > 0) {
            long every = TimeUnit.MILLISECONDS.toNanos(snapshotEveryMillis);
            snapshots = new DutyThread("m" + store.id() + "-snapshot", every) {
                private long next = System.nanoTime() + every;

                @Override
                protected int doWork() {
                    // Recovery opens the log before the machine attaches to its fabric, and a snapshot reads values
                    // through the store, which counts them on its endpoint: on a slow start the first interval
                    // could pass before attach (every such snapshot failed with a NullPointerException, logged).
                    if (store.endpoint() == null) {
                        return 0;
                    }
                    if (System.nanoTime() >= next) {
                        next = System.nanoTime() + every;
                        snapshotQuietly();
                    }
                    return 0;
                }
            };
            snapshots.start();
        } else {
            snapshots = null;
        }
    }

    /**
     * Recovers {@code store} (empty, not yet serving) from {@code dir} and makes it durable from now on.
     *
     * @param snapshotEveryMillis interval of background snapshots; 0 for none
     */
    public static Durability open(Path dir, SyncPolicy policy, long snapshotEveryMillis, MachineStore store) {
        try {
            java.nio.file.Files.createDirectories(dir);
            return new Durability(dir, policy, snapshotEveryMillis, store);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open data directory " + dir + ": " + e.getMessage(), e);
        }
    }

    public Recovery.Result recovered() {
        return recovered;
    }

    public WriteAheadLog log() {
        return wal;
    }

    public Path directory() {
        return dir;
    }

    /**
     * The durable value and version of each key homed here that matches {@code keys}, read from this machine's live
     * log without changing it or the store (see {@link Recovery#durableValues}); snapshots wait meanwhile, so no
     * segment disappears under the read. Every record the log accepted before the call is written out first: the
     * log acknowledges it once written, so a value put back without it would lose an acknowledged update.
     *
     * <pre>{@code
     * Map<Long, Recovery.DurableValue> lost = durability.durableValues(lostKeys::contains);
     * }</pre>
     */
    public synchronized Map<Long, Recovery.DurableValue> durableValues(LongPredicate keys) {
        try {
            wal.awaitWritten(WRITTEN_WAIT_MILLIS);
            return Recovery.durableValues(dir, store.mutators(), keys);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the durable values of machine " + store.id() + " from " + dir
                + ": " + e.getMessage(), e);
        }
    }

    /**
     * The durable values of {@code keys}, which this home is about to put back with {@link MachineStore#restore}
     * (their values were lost with the machine that hosted them). Before the read, the log fences the keys: every
     * record of them that reaches the log afterwards is refused (retryably) until its restore is logged, and below
     * the restore's version from then on, since the restored value cannot hold it. Call {@link #endRestore} with the
     * same keys once the restores are done (it lifts the fence of a key whose restore did not happen).
     *
     * <pre>{@code
     * Map<Long, Recovery.DurableValue> durable = durability.durableValuesToRestore(lostKeys);
     * try { ... store.restore(...) for each key ... } finally { durability.endRestore(lostKeys); }
     * }</pre>
     */
    public synchronized Map<Long, Recovery.DurableValue> durableValuesToRestore(Collection<Long> keys) {
        for (long key : keys) {
            wal.fence(key);
        }
        return durableValues(keys::contains);
    }

    /** Ends the fences {@link #durableValuesToRestore} set; a key whose restore was logged keeps its floor. */
    public void endRestore(Collection<Long> keys) {
        for (long key : keys) {
            wal.unfence(key);
        }
    }

    /** Writes a snapshot now and drops the log and snapshots it makes obsolete; returns the keys written. */
    public synchronized long snapshot() throws IOException {
        long position = wal.position();
        long keys = Snapshot.write(dir, position, store);
        Snapshot.deleteOlderThan(dir, position);
        wal.truncateBefore(position);
        lastSnapshotKeys = keys;
        return keys;
    }

    private void snapshotQuietly() {
        try {
            snapshot();
        } catch (IOException | RuntimeException e) {
            if (store.isClosing()) {
                return; // cut short by the close; the log holds everything the snapshot would have
            }
            // With the log's backlog: a snapshot fails mostly on a record left pending, which only the log clears.
            LOG.warn("snapshot of machine {} failed: {}; {}", store.id(), e.getMessage(), wal.backlog());
        }
    }

    @Override
    public void close() {
        if (snapshots != null) {
            snapshots.close();
        }
        wal.close();
    }
}
