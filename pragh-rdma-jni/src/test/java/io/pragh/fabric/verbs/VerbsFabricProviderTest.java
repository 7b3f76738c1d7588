package io.pragh.fabric.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.fabric.Deployment;
import io.pragh.fabric.Fabric;
import io.pragh.fabric.FabricKind;
import io.pragh.fabric.FabricProvider;
import io.pragh.fabric.FabricProviders;
import io.pragh.fabric.FabricSpec;
import io.pragh.rdma.jni.DeviceProbe;
import io.pragh.rdma.jni.NativeLibrary;
import io.pragh.rdma.jni.RdmaDevice;
import io.pragh.rdma.jni.RdmaDevices;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The verbs provider: found on the class path, says why it cannot run, builds from a spec. */
class VerbsFabricProviderTest {
    private static final NativeLibrary.Status MISSING = new NativeLibrary.Status(false, null, -1,
        "the build skipped libdisni.so: rdma-core headers not found");
    private static final DeviceProbe NO_DEVICE = new DeviceProbe(List.of(), "libibverbs lists no device");
    private static final DeviceProbe PORT_DOWN = new DeviceProbe(List.of(new RdmaDevice("mlx5_0", 0, "port 1 DOWN")),
        "no device has an ACTIVE port");

    private static FabricProvider provider(NativeLibrary.Status library, DeviceProbe probe) {
        return new VerbsFabricProvider(() -> library, () -> probe, (config, address) -> {
            throw new AssertionError("not built in this test");
        });
    }

    @Test
    void theServiceLoaderFindsIt() {
        FabricProviders found = FabricProviders.load(getClass().getClassLoader());
        assertInstanceOf(VerbsFabricProvider.class, found.provider(FabricKind.VERBS).orElseThrow());
        assertFalse(found.provider(FabricKind.VERBS).get().supportsTls(), "the NIC serves one-sided operations in "
            + "the clear");
    }

    @Test
    void withoutTheNativeLibraryItSaysSoAndWhereItLooked() {
        FabricProvider.Availability a = provider(MISSING, NO_DEVICE).availability();
        assertFalse(a.available());
        assertEquals("the native verbs library is not loaded: the build skipped libdisni.so: rdma-core headers not "
            + "found (java.library.path '" + System.getProperty("java.library.path") + "')", a.reason());
    }

    @Test
    void withoutAUsableDeviceItSaysWhy() {
        NativeLibrary.Status loaded = new NativeLibrary.Status(true, "/opt/pragh/libdisni.so", 1, null);
        assertEquals("no usable RDMA device: libibverbs lists no device",
            provider(loaded, NO_DEVICE).availability().reason());
        assertEquals("no usable RDMA device: no device has an ACTIVE port",
            provider(loaded, PORT_DOWN).availability().reason());
        FabricProvider.Availability up = provider(loaded, new DeviceProbe(
            List.of(new RdmaDevice("mlx5_0", 2, "2 ports ACTIVE")), null)).availability();
        assertTrue(up.available());
        assertEquals("RDMA device mlx5_0 has 2 active port(s)", up.reason());
    }

    /** On this host, as it is: the provider's answer follows the library and the probe, whichever they say. */
    @Test
    void onThisHostTheAnswerFollowsTheProbe() {
        FabricProvider.Availability a = new VerbsFabricProvider().availability();
        boolean usable = NativeLibrary.status().loaded() && RdmaDevices.probe().firstUsable().isPresent();
        assertEquals(usable, a.available(), a.reason());
        List<String> lines = new VerbsFabricProvider().diagnostics();
        assertTrue(lines.get(0).startsWith("native library: " + (NativeLibrary.status().loaded() ? "loaded from "
            : "not loaded: ")), lines.toString());
        assertTrue(lines.get(1).startsWith("RDMA devices: "), lines.toString());
    }

    @Test
    void itBuildsFromTheSpecsAddressesAndTimeoutsAndRefusesASpecWithoutAddresses() {
        SimulatedNicConformanceTest.assumeLibrary();
        List<InetSocketAddress> addresses = SimulatedNicConformanceTest.smallConfig(2).machines();
        FabricSpec spec = FabricSpec.of(1, addresses).withTimeouts(Duration.ofMillis(700), Duration.ofSeconds(3));
        try (Fabric f = new SimulatedNic().provider().create(spec)) {
            VerbsConfig config = ((VerbsFabric) f).config();
            assertEquals(addresses, config.machines());
            assertEquals(Duration.ofMillis(700), config.connectTimeout());
            assertEquals(Duration.ofSeconds(3), config.operationTimeout());
            assertEquals(VerbsConfig.DEFAULT_MESSAGE_BYTES, config.messageBytes());
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> new SimulatedNic().provider().create(FabricSpec.embedded(2)));
        assertEquals("the verbs fabric needs every machine's address", e.getMessage());
    }

    @Test
    void autoTakesVerbsWhereTheProbeShowsAUsableDevice() {
        SimulatedNicConformanceTest.assumeLibrary();
        assertEquals(FabricKind.VERBS, FabricProviders.of(List.of(new SimulatedNic().provider()))
            .choose(FabricKind.AUTO, Deployment.MULTI_PROCESS).kind());
    }
}
