package io.pragh.fabric.verbs;

import io.pragh.fabric.AttachedCluster;
import io.pragh.fabric.FabricConformanceTest;
import io.pragh.fabric.MachineMemory;
import io.pragh.fabric.MessageHandler;
import io.pragh.rdma.jni.DeviceProbe;
import io.pragh.rdma.jni.RdmaDevice;
import io.pragh.rdma.jni.RdmaDevices;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Assumptions;

/**
 * The shared Fabric contract against a real RDMA adapter: every machine is in this JVM and listens on the adapter's
 * own IPv4 address (traffic loops back through the local NIC; nothing is sent to another host). Skipped, with the
 * reason, on a host without a usable RDMA device. Set {@code -Dpragh.verbs.ip=<address>} to choose the interface.
 */
class VerbsFabricConformanceTest extends FabricConformanceTest {
    @Override
    protected FabricCluster open(MachineMemory[] memories, MessageHandler[] handlers) throws UnknownHostException {
        DeviceProbe probe = RdmaDevices.probe();
        Assumptions.assumeTrue(probe.firstUsable().isPresent(),
            () -> "no usable RDMA device on this host: " + probe.problem());
        InetAddress ip = chooseAddress(probe.firstUsable().get());
        int base = 20000 + ThreadLocalRandom.current().nextInt(20000); // rdma_cm's TCP port space, not the kernel's
        List<InetSocketAddress> addresses = new ArrayList<>();
        for (int m = 0; m < memories.length; m++) {
            addresses.add(new InetSocketAddress(ip, base + m));
        }
        // Small buffers: everything registered is pinned, and a default memlock limit is a few MiB.
        VerbsConfig config = new VerbsConfig(addresses, 64, 64 << 10, 4096, 16, 16, Duration.ofSeconds(10),
            Duration.ofSeconds(10));
        return AttachedCluster.attach(new VerbsFabric(config), memories, handlers);
    }

    private static InetAddress chooseAddress(RdmaDevice device) throws UnknownHostException {
        String configured = System.getProperty("pragh.verbs.ip");
        if (configured != null && !configured.isBlank()) {
            return InetAddress.getByName(configured);
        }
        List<InetAddress> candidates = RdmaDevices.ipv4Addresses(device.name());
        Assumptions.assumeFalse(candidates.isEmpty(), () -> "RDMA device " + device.name() + " has no IPv4 address "
            + "on its network interface; set -Dpragh.verbs.ip");
        return candidates.get(0);
    }
}
