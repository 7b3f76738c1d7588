package io.pragh.rdma.jni;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class RdmaDevicesTest {
    /** A host without RDMA (like CI): enumeration fails or comes back empty, and the probe says why in words. */
    @Test
    void withoutADeviceTheProbeExplainsWhy() {
        NativeLibraryAssumptions.requireBuiltLibrary();
        DeviceProbe probe = RdmaDevices.probe();
        Assumptions.assumeTrue(probe.firstUsable().isEmpty(),
            () -> "this host has a usable RDMA device (" + probe.devices() + "); the no-device path cannot be seen");
        assertNotNull(probe.problem());
        assertTrue(probe.problem().contains("RDMA") || probe.problem().contains("device"), probe.problem());
        if (!Files.isDirectory(Path.of("/sys/class/infiniband"))) {
            assertTrue(probe.problem().contains("/sys/class/infiniband does not exist"), probe.problem());
        }
    }

    @Test
    void listingDevicesWithoutKernelSupportRaisesAVerbsExceptionWithErrno() {
        NativeLibraryAssumptions.requireBuiltLibrary();
        Assumptions.assumeFalse(Files.isDirectory(Path.of("/sys/class/infiniband")),
            "this kernel has RDMA support; the ENOSYS path cannot be seen");
        String[] names;
        try {
            names = PraghVerbs.deviceNames();
        } catch (VerbsException e) {
            assertTrue(e.errno() > 0, "errno " + e.errno());
            assertTrue(e.getMessage().contains("ibv_get_device_list") && e.getMessage().contains("errno"),
                e.getMessage());
            return;
        }
        assertFalse(names.length > 0, "devices listed without /sys/class/infiniband");
    }

    @Test
    void aDeviceThatDoesNotExistIsAnErrorNamingIt() {
        NativeLibraryAssumptions.requireBuiltLibrary();
        VerbsException e = org.junit.jupiter.api.Assertions.assertThrows(VerbsException.class,
            () -> PraghVerbs.describeDevice("pragh_no_such_device"));
        assertTrue(e.getMessage().contains("pragh_no_such_device") || e.getMessage().contains("ibv_get_device_list"),
            e.getMessage());
    }
}
