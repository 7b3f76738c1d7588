package io.pragh.fabric.verbs;

import io.pragh.fabric.AttachedCluster;
import io.pragh.fabric.Deployment;
import io.pragh.fabric.Fabric;
import io.pragh.fabric.FabricConformanceTest;
import io.pragh.fabric.FabricKind;
import io.pragh.fabric.FabricProviders;
import io.pragh.fabric.FabricSpec;
import io.pragh.fabric.MachineMemory;
import io.pragh.fabric.MessageHandler;
import io.pragh.rdma.jni.NativeLibrary;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;

/**
 * The verbs fabric's own logic (lanes, batching, credits, bounce memory, region tables, messages, byte-order
 * probe) passes the shared Fabric contract on a simulated NIC, built as a server builds it: chosen by kind among
 * providers and made by the verbs provider from a spec (default buffers and depths). It needs the native library
 * only for its buffers. The same suite against a real adapter is {@link VerbsFabricConformanceTest}.
 */
class SimulatedNicConformanceTest extends FabricConformanceTest {
    static VerbsConfig smallConfig(int machines) {
        List<InetSocketAddress> addresses = new ArrayList<>();
        for (int m = 0; m < machines; m++) {
            addresses.add(new InetSocketAddress("127.0.0.1", 47000 + m)); // names only: nothing binds them
        }
        return new VerbsConfig(addresses, 16, 8192, 1024, 8, 4, Duration.ofSeconds(10), Duration.ofSeconds(10));
    }

    static void assumeLibrary() {
        Assumptions.assumeTrue(NativeLibrary.status().loaded(),
            () -> "the simulated NIC keeps descriptors in native buffers: " + NativeLibrary.status().problem());
    }

    @Override
    protected FabricCluster open(MachineMemory[] memories, MessageHandler[] handlers) {
        assumeLibrary();
        FabricProviders fabrics = FabricProviders.of(List.of(new SimulatedNic().provider()));
        Fabric fabric = fabrics.open(FabricKind.VERBS, Deployment.EMBEDDED,
            FabricSpec.of(FabricSpec.EVERY_MACHINE, smallConfig(memories.length).machines()));
        return AttachedCluster.attach(fabric, memories, handlers);
    }
}
