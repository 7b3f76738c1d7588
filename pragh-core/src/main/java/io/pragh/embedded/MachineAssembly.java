package io.pragh.embedded;

import io.pragh.durability.Durability;
import io.pragh.fabric.Fabric;
import io.pragh.fabric.MachineMemory;
import io.pragh.keys.Placement;
import io.pragh.store.MachineStore;

/**
 * Builds one machine of an embedded cluster from its builder: the store (a memory node's with its own value region
 * size), its log when durable, its attachment to the fabric, its threads, and the pre-touch a benchmark asks for.
 *
 * <pre>{@code
 * machines[i] = MachineAssembly.assemble(builder, i, total, fabrics[i], placement, pin);
 * }</pre>
 */
final class MachineAssembly {
    private MachineAssembly() {
    }

    static Machine assemble(EmbeddedCluster.Builder b, int i, int total, Fabric fabric, Placement placement,
                            boolean pin) {
        boolean memoryNode = i >= b.machines;
        MachineStore store = new MachineStore(i, total, memoryNode ? b.memoryNodeConfig() : b.config, placement,
            b.mutators);
        store.replication().configure(b.replicas);
        // Every machine of an embedded cluster is built here, together, and never restarted through here.
        store.replication().startsWithItsCluster();
        Durability durability = null;
        try {
            if (b.dataDirectory != null) {
                durability = Durability.open(b.dataDirectory.resolve("machine-" + i), b.syncPolicy,
                    b.snapshotEveryMillis, store);
            }
            store.attach(fabric);
        } catch (RuntimeException e) {
            if (durability != null) {
                durability.close();
            }
            store.close();
            throw e;
        }
        // A memory node runs no queries: one worker for what little is ever submitted to it.
        Machine machine = new Machine(store, durability, memoryNode ? 1 : b.workersPerMachine, pin,
            b.operationTimeoutMillis);
        if (b.pretouch) {
            MachineMemory memory = store.memory();
            memory.keys().pretouch();
            memory.values().pretouch();
            memory.reclaim().pretouch();
            store.cache().pretouch();
        }
        return machine;
    }
}
