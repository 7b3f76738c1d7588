package io.pragh.rdma.jni;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Finds RDMA devices through the native library, and explains an empty answer: no library, no kernel support, no
 * device, or devices without an active port.
 *
 * <pre>{@code
 * DeviceProbe probe = RdmaDevices.probe();
 * }</pre>
 */
public final class RdmaDevices {
    /** Where the kernel lists RDMA devices; absent when the kernel has no RDMA support loaded. */
    static final Path SYSFS = Path.of("/sys/class/infiniband");

    private RdmaDevices() {
    }

    public static DeviceProbe probe() {
        NativeLibrary.Status library = NativeLibrary.status();
        if (!library.loaded()) {
            return new DeviceProbe(List.of(), "cannot ask libibverbs: " + library.problem() + sysfsHint());
        }
        String[] names;
        try {
            names = PraghVerbs.deviceNames();
        } catch (VerbsException e) {
            String reason = e.errno() == VerbsException.ENOSYS
                ? "the kernel has no RDMA support: " + e.getMessage()
                : e.getMessage();
            return new DeviceProbe(List.of(), reason + sysfsHint());
        }
        if (names.length == 0) {
            return new DeviceProbe(List.of(), "libibverbs lists no device" + sysfsHint());
        }
        List<RdmaDevice> devices = new ArrayList<>();
        for (String name : names) {
            devices.add(describe(name));
        }
        DeviceProbe probe = new DeviceProbe(devices, null);
        return probe.firstUsable().isPresent() ? probe
            : new DeviceProbe(devices, "no device has an ACTIVE port (check the cable, the subnet manager or the "
                + "RoCE interface's link)");
    }

    private static RdmaDevice describe(String name) {
        try {
            return new RdmaDevice(name, PraghVerbs.activePorts(name), PraghVerbs.describeDevice(name));
        } catch (VerbsException e) {
            return new RdmaDevice(name, 0, "cannot be opened: " + e.getMessage());
        }
    }

    private static String sysfsHint() {
        return Files.isDirectory(SYSFS) ? "" : "; " + SYSFS + " does not exist";
    }
}
