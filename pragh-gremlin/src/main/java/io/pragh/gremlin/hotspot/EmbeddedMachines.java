package io.pragh.gremlin.hotspot;

import io.pragh.embedded.EmbeddedCluster;
import io.pragh.embedded.MigrationControl;
import io.pragh.migration.Migrator;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The machines of an embedded cluster, all in this process: its read counter sees every machine's reads (no other
 * process counts any), a value's host is read from the address word at the key's home in memory, and a move goes
 * through the cluster's {@link MigrationControl} when its automatic migration runs (so its coordinator knows where
 * the value went), else straight to the target's migration thread.
 *
 * <p>Example: {@code ViewHotspots.of(events, new EmbeddedMachines(cluster))}, as {@link ViewHotspots#of(io.pragh.gremlin.events.ViewEvents)} does.
 */
final class EmbeddedMachines implements HotspotMachines {
    private final EmbeddedCluster cluster;

    EmbeddedMachines(final EmbeddedCluster cluster) {
        this.cluster = cluster;
    }

    @Override
    public int machineCount() {
        return cluster.machineCount();
    }

    @Override
    public String roundsRunElsewhere() {
        return null;
    }

    @Override
    public long[] takeOtherReads(final String view) {
        return new long[cluster.machineCount() + 1];
    }

    @Override
    public int[] hosts(final long[] keys, final int count) {
        final int[] out = new int[count];
        for (int i = 0; i < count; i++) {
            out[i] = MemberValues.host(cluster, keys[i]);
        }
        return out;
    }

    @Override
    public int move(final long[] keys, final int[] targets, final int count, final long patienceMillis) {
        final MigrationControl control = cluster.migrationControl();
        final List<CompletableFuture<Migrator.Outcome>> moves = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            moves.add(control != null ? control.migrate(keys[i], targets[i])
                : cluster.machine(targets[i]).migrateAsync(keys[i]));
        }
        int moved = 0;
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(patienceMillis);
        for (final CompletableFuture<Migrator.Outcome> f : moves) {
            try {
                if (f.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)
                    == Migrator.Outcome.MIGRATED) {
                    moved++;
                }
            } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
                // The value stays where it was (a conflict, a closing machine): a later hot round tries again.
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return moved;
    }
}
