package io.pragh.fabric.inprocess;

import io.pragh.fabric.AttachedCluster;
import io.pragh.fabric.Deployment;
import io.pragh.fabric.Fabric;
import io.pragh.fabric.FabricConformanceTest;
import io.pragh.fabric.FabricKind;
import io.pragh.fabric.FabricProviders;
import io.pragh.fabric.FabricSpec;
import io.pragh.fabric.MachineMemory;
import io.pragh.fabric.MessageHandler;

/**
 * The in-process fabric passes the shared Fabric contract, built as an embedded cluster builds it: found through its
 * provider on the class path and chosen by kind.
 */
class InProcessFabricConformanceTest extends FabricConformanceTest {
    @Override
    protected FabricCluster open(MachineMemory[] memories, MessageHandler[] handlers) {
        Fabric fabric = FabricProviders.load(getClass().getClassLoader())
            .open(FabricKind.IN_PROCESS, Deployment.EMBEDDED, FabricSpec.embedded(memories.length));
        return AttachedCluster.attach(fabric, memories, handlers);
    }
}
