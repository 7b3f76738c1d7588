package io.pragh.embedded;

import io.pragh.durability.Durability;
import io.pragh.fabric.Deployment;
import io.pragh.fabric.Fabric;
import io.pragh.fabric.FabricChoice;
import io.pragh.fabric.FabricKind;
import io.pragh.fabric.FabricProviders;
import io.pragh.fabric.FabricSpec;
import io.pragh.fabric.inprocess.InProcessFabricProvider;
import io.pragh.fabric.MachineMemory;
import io.pragh.keys.Placement;
import io.pragh.store.MachineStore;

/**
 * Builds one machine of an embedded cluster from its builder: the store (a memory node's with its own value region
 * size), its log when durable, its attachment to the fabric, its threads, and the pre-touch a benchmark asks for.
 *
 * <pre>{@code
 * machines[i] = MachineAssembly.assemble(builder, i, total, fabrics[i], placement, pin, false);
 * }</pre>
 */
final class MachineAssembly {
    private MachineAssembly() {
    }

    /** The one fabric of every machine, chosen through the providers as a server opens its own. */
    static Fabric sharedFabric(int machines, long remoteLatencyNs) {
        // One rule decides, and names what is missing.
        FabricChoice choice = FabricProviders.load(EmbeddedCluster.class.getClassLoader())
            .choose(FabricKind.IN_PROCESS, Deployment.EMBEDDED);
        return choice.provider().create(FabricSpec.embedded(machines).withSetting(
            InProcessFabricProvider.RemoteLatency.class, new InProcessFabricProvider.RemoteLatency(remoteLatencyNs)));
    }

    /** {@code given}, or hash placement over the compute machines (memory nodes home no key). */
    static Placement placement(Placement given, int computeMachines, int memoryNodes) {
        return given != null ? given
            : memoryNodes == 0 ? Placement.hashed(computeMachines)
            : Placement.hashedOver(java.util.stream.IntStream.range(0, computeMachines).toArray());
    }

    /** @param restarted whether machine {@code i} lived before in this cluster ({@link MachineRestarts}) */
    static Machine assemble(EmbeddedCluster.Builder b, int i, int total, Fabric fabric, Placement placement,
                            boolean pin, boolean restarted) {
        boolean memoryNode = i >= b.machines;
        MachineStore store = new MachineStore(i, total, !memoryNode ? b.config
            : b.memoryNodeValueBytes < 0 ? b.config : b.config.withValueBytes(b.memoryNodeValueBytes), placement,
            b.mutators);
        store.replication().configure(b.replicas);
        if (!restarted) {
            // Built with its cluster: no replica of a previous life of it exists anywhere.
            store.startsWithItsCluster();
        }
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
