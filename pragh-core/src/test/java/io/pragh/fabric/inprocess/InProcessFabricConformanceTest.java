package io.pragh.fabric.inprocess;

import io.pragh.fabric.Endpoint;
import io.pragh.fabric.FabricConformanceTest;
import io.pragh.fabric.MachineMemory;
import io.pragh.fabric.MessageHandler;

/** The in-process fabric passes the shared Fabric contract, with a small emulated latency so timing paths run. */
class InProcessFabricConformanceTest extends FabricConformanceTest {
    @Override
    protected FabricCluster open(MachineMemory[] memories, MessageHandler[] handlers) {
        InProcessFabric fabric = new InProcessFabric(memories.length, 200);
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
