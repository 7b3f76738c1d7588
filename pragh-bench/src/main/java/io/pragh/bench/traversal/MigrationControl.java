package io.pragh.bench.traversal;

import io.pragh.cluster.EmbeddedCluster;
import io.pragh.coordinator.Coordinator;
import io.pragh.coordinator.CoordinatorConfig;
import io.pragh.coordinator.Decisions;
import io.pragh.migration.Migrator;
import io.pragh.monitor.Monitor;
import io.pragh.monitor.MonitorConfig;
import io.pragh.monitor.MonitorReport;
import io.pragh.reclaim.Leases;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The control plane of split migration in an embedded cluster: one monitor per machine, one coordinator, and the
 * application of its decisions (tracking requests to monitors, approved MIGRATEs to the targets' migration
 * threads). Intervals are ended by the caller, so the benchmark decides when monitoring happens.
 *
 * <pre>{@code
 * MigrationControl control = new MigrationControl(cluster, monitorConfig, coordinatorConfig);
 * control.start();
 * ... queries run ...
 * Decisions d = control.endInterval();
 * control.awaitMigrations(60_000);
 * }</pre>
 */
final class MigrationControl {
    private final EmbeddedCluster cluster;
    private final Monitor[] monitors;
    private final Coordinator coordinator;
    private final List<CompletableFuture<Migrator.Outcome>> inFlight = new ArrayList<>();
    private long migrated;
    private long bytesAtStart;

    MigrationControl(EmbeddedCluster cluster, MonitorConfig monitorConfig, CoordinatorConfig coordinatorConfig) {
        this.cluster = cluster;
        this.monitors = new Monitor[cluster.machineCount()];
        for (int m = 0; m < monitors.length; m++) {
            var store = cluster.machine(m).store();
            monitors[m] = new Monitor(m, store.placement(), store.cache(), monitorConfig);
        }
        this.coordinator = new Coordinator(cluster.machineCount(), cluster.machine(0).store().placement(),
            coordinatorConfig);
    }

    Monitor[] monitors() {
        return monitors;
    }

    Coordinator coordinator() {
        return coordinator;
    }

    /** Installs every monitor as its machine's access observer and starts the first interval. */
    void start() {
        long now = Leases.nowMillis();
        for (Monitor m : monitors) {
            m.start(now);
            cluster.machine(m.machine()).store().setAccessObserver(m);
        }
        bytesAtStart = bytesMoved();
    }

    /** Ends the interval on every machine, lets the coordinator decide, and applies its decisions. */
    Decisions endInterval() {
        long now = Leases.nowMillis();
        List<MonitorReport> reports = new ArrayList<>();
        for (Monitor m : monitors) {
            reports.add(m.endInterval(now));
        }
        Decisions d = coordinator.endInterval(reports);
        for (Decisions.Track t : d.track()) {
            monitors[t.machine()].track(t.key());
        }
        for (Decisions.Track t : d.untrack()) {
            monitors[t.machine()].untrack(t.key());
        }
        for (Decisions.Approval a : d.approvals()) {
            inFlight.add(cluster.machine(a.target()).migrateAsync(a.key()));
        }
        return d;
    }

    int inFlight() {
        return inFlight.size();
    }

    /** Waits for every approved migration; returns how many moved a value. */
    long awaitMigrations(long timeoutMillis) throws Exception {
        CompletableFuture.allOf(inFlight.toArray(CompletableFuture[]::new)).get(timeoutMillis, TimeUnit.MILLISECONDS);
        for (CompletableFuture<Migrator.Outcome> f : inFlight) {
            if (f.join() == Migrator.Outcome.MIGRATED) {
                migrated++;
            }
        }
        inFlight.clear();
        return migrated;
    }

    /** Values moved so far. */
    long migratedKeys() {
        return migrated;
    }

    /** Bytes read by migrations since {@link #start}. */
    long migratedBytes() {
        return bytesMoved() - bytesAtStart;
    }

    private long bytesMoved() {
        long sum = 0;
        for (int m = 0; m < cluster.machineCount(); m++) {
            sum += cluster.machine(m).migrationThread().migrator().bytesMoved();
        }
        return sum;
    }
}
