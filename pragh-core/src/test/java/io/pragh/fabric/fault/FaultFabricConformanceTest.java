package io.pragh.fabric.fault;

import io.pragh.fabric.Endpoint;
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
        Endpoint[] endpoints = new Endpoint[memories.length];
        for (int m = 0; m < memories.length; m++) {
            endpoints[m] = fabric.attach(m, memories[m], handlers[m]);
        }
        return new FabricCluster() {
            @Override
            public Endpoint endpoint(int machine) {
                return endpoints[machine];
            }

            @Override
            public void close() {
                fabric.close();
            }
        };
    }
}
