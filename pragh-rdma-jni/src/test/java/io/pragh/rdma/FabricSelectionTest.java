package io.pragh.rdma;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.rdma.jni.DeviceProbe;
import io.pragh.rdma.jni.RdmaDevice;
import io.pragh.rdma.jni.RdmaDevices;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class FabricSelectionTest {
    private static final DeviceProbe NONE = new DeviceProbe(List.of(), "the kernel has no RDMA support");
    private static final DeviceProbe ACTIVE = new DeviceProbe(
        List.of(new RdmaDevice("mlx5_0", 1, "port 1 ACTIVE")), null);
    private static final DeviceProbe PORT_DOWN = new DeviceProbe(
        List.of(new RdmaDevice("mlx5_0", 0, "port 1 DOWN")), "no device has an ACTIVE port");

    @Test
    void autoTakesVerbsWhenADeviceHasAnActivePort() {
        for (Deployment d : Deployment.values()) {
            FabricChoice c = FabricSelection.choose(FabricKind.AUTO, d, ACTIVE);
            assertEquals(FabricKind.VERBS, c.kind());
            assertTrue(c.reason().contains("mlx5_0"), c.reason());
        }
    }

    @Test
    void autoFallsBackToTcpForAServerAndInProcessForAnEmbeddedCluster() {
        FabricChoice server = FabricSelection.choose(FabricKind.AUTO, Deployment.MULTI_PROCESS, NONE);
        FabricChoice embedded = FabricSelection.choose(FabricKind.AUTO, Deployment.EMBEDDED, NONE);
        assertEquals(FabricKind.TCP, server.kind());
        assertEquals(FabricKind.IN_PROCESS, embedded.kind());
        assertTrue(server.reason().contains("no RDMA support"), "the reason carries the probe's words: "
            + server.reason());
    }

    @Test
    void aDeviceWithoutAnActivePortDoesNotCount() {
        assertEquals(FabricKind.TCP, FabricSelection.choose(FabricKind.AUTO, Deployment.MULTI_PROCESS, PORT_DOWN)
            .kind());
    }

    @Test
    void askingForVerbsWithoutADeviceIsAnErrorNotASubstitution() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
            () -> FabricSelection.choose(FabricKind.VERBS, Deployment.MULTI_PROCESS, NONE));
        assertTrue(e.getMessage().contains("no RDMA support") && e.getMessage().contains("'verbs'"), e.getMessage());
        assertEquals(FabricKind.VERBS, FabricSelection.choose(FabricKind.VERBS, Deployment.EMBEDDED, ACTIVE).kind());
    }

    @Test
    void explicitTcpAndInProcessAreHonoured() {
        assertEquals(FabricKind.TCP, FabricSelection.choose(FabricKind.TCP, Deployment.EMBEDDED, ACTIVE).kind());
        assertEquals(FabricKind.IN_PROCESS,
            FabricSelection.choose(FabricKind.IN_PROCESS, Deployment.EMBEDDED, ACTIVE).kind());
    }

    @Test
    void inProcessCannotSpanProcesses() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
            () -> FabricSelection.choose(FabricKind.IN_PROCESS, Deployment.MULTI_PROCESS, NONE));
        assertTrue(e.getMessage().contains("separate processes"), e.getMessage());
    }

    @Test
    void labelsParseAndUnknownOnesListTheChoices() {
        assertEquals(FabricKind.IN_PROCESS, FabricKind.parse(" In-Process "));
        assertEquals(FabricKind.AUTO, FabricKind.parse("auto"));
        assertEquals(FabricKind.VERBS, FabricKind.parse("VERBS"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FabricKind.parse("rdma"));
        assertTrue(e.getMessage().contains("auto | verbs | tcp | in-process"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> FabricKind.parse(null));
    }

    @Test
    void aChoiceIsNeverAuto() {
        assertThrows(IllegalArgumentException.class, () -> new FabricChoice(FabricKind.AUTO, "x"));
    }

    /** On this host, with whatever it has: without a device auto falls back, with one it takes verbs. */
    @Test
    void resolveOnThisHostFollowsTheProbe() {
        DeviceProbe probe = RdmaDevices.probe();
        FabricChoice c = FabricSelection.resolve(FabricKind.AUTO, Deployment.MULTI_PROCESS);
        assertEquals(probe.firstUsable().isPresent() ? FabricKind.VERBS : FabricKind.TCP, c.kind(), c.reason());
        Assumptions.assumeTrue(probe.firstUsable().isEmpty(), "this host has an RDMA device");
        assertEquals(FabricKind.IN_PROCESS, FabricSelection.resolve(FabricKind.AUTO, Deployment.EMBEDDED).kind());
    }
}
