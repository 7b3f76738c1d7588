package io.pragh.fabric.fault;

import io.pragh.fabric.AttachedCluster;
import io.pragh.fabric.FabricConformanceTest;
import io.pragh.fabric.MachineMemory;
import io.pragh.fabric.MessageHandler;
import io.pragh.fabric.inprocess.InProcessFabric;

/** The fault fabric with no rule installed passes the shared Fabric contract over the in-process fabric. */
class FaultFabricConformanceTest extends FabricConformanceTest {
    /** Installs rules on a freshly wrapped fabric; none here. */
    protected void rules(FaultFabric fabric) {
    }

    @Override
    protected FabricCluster open(MachineMemory[] memories, MessageHandler[] handlers) {
        FaultFabric fabric = new FaultFabric(new InProcessFabric(memories.length, 200), 1);
        rules(fabric);
        return AttachedCluster.attach(fabric, memories, handlers);
    }
}
