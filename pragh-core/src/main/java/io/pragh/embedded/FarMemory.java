package io.pragh.embedded;

import io.pragh.monitor.Monitor;
import io.pragh.monitor.MonitorConfig;
import io.pragh.store.MachineStore;
import io.pragh.tier.Tiering;
import io.pragh.tier.TieringConfig;

/**
 * Wires the far-memory tier into an embedded cluster: the compute machines' monitors (the migration control plane's
 * when it runs, so one access hook serves both; otherwise monitors of the tier's own, installed as the machines'
 * access observers), the memory nodes' stores, and MIGRATEs run on the target machine's migration thread.
 *
 * <pre>{@code
 * Tiering t = FarMemory.startTiering(cluster, TieringConfig.defaults().withLocalBudgetBytes(budget), null);
 * }</pre>
 */
final class FarMemory {
    private FarMemory() {
    }

    static Tiering startTiering(EmbeddedCluster cluster, TieringConfig config, MigrationControl control) {
        int compute = cluster.computeMachineCount();
        MachineStore[] stores = new MachineStore[compute];
        Monitor[] monitors = new Monitor[compute];
        for (int m = 0; m < compute; m++) {
            stores[m] = cluster.machine(m).store();
            if (control != null) {
                monitors[m] = control.monitors()[m];
            } else {
                monitors[m] = new Monitor(m, stores[m].placement(), stores[m].cache(), MonitorConfig.defaults());
                stores[m].setAccessObserver(monitors[m]);
            }
        }
        MachineStore[] memory = new MachineStore[cluster.machineCount() - compute];
        for (int n = 0; n < memory.length; n++) {
            memory[n] = cluster.machine(compute + n).store();
        }
        Tiering tiering = new Tiering(config, stores, monitors, memory,
            (target, key) -> cluster.machine(target).migrateAsync(key));
        if (config.bounded() && config.intervalMillis() != TieringConfig.MANUAL) {
            tiering.start();
        }
        return tiering;
    }
}
