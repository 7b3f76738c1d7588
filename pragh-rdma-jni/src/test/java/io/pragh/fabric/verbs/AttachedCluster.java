package io.pragh.fabric.verbs;

import io.pragh.fabric.Endpoint;
import io.pragh.fabric.Fabric;
import io.pragh.fabric.FabricConformanceTest;
import io.pragh.fabric.MachineMemory;
import io.pragh.fabric.MessageHandler;

/** Every machine attached to one fabric, as the conformance suite wants it; closing closes the fabric. */
final class AttachedCluster implements FabricConformanceTest.FabricCluster {
    private final Fabric fabric;
    private final Endpoint[] endpoints;

    private AttachedCluster(Fabric fabric, Endpoint[] endpoints) {
        this.fabric = fabric;
        this.endpoints = endpoints;
    }

    /** Attaches machine i with memories[i] and handlers[i]; on failure closes the fabric and rethrows. */
    static AttachedCluster attach(Fabric fabric, MachineMemory[] memories, MessageHandler[] handlers) {
        Endpoint[] endpoints = new Endpoint[memories.length];
        try {
            for (int m = 0; m < memories.length; m++) {
                endpoints[m] = fabric.attach(m, memories[m], handlers[m]);
            }
        } catch (RuntimeException e) {
            fabric.close();
            throw e;
        }
        return new AttachedCluster(fabric, endpoints);
    }

    @Override
    public Endpoint endpoint(int machine) {
        return endpoints[machine];
    }

    @Override
    public void close() {
        fabric.close();
    }
}
