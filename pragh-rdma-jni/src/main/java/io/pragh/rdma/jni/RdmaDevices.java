package io.pragh.rdma.jni;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
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

    /**
     * The IPv4 addresses of the network interfaces backed by an RDMA device (its RoCE or IPoIB netdevs, as sysfs
     * lists them): the addresses rdma_cm can bind for it. Empty when there are none or sysfs does not say.
     */
    public static List<InetAddress> ipv4Addresses(String device) {
        List<InetAddress> out = new ArrayList<>();
        Path net = SYSFS.resolve(device).resolve("device").resolve("net");
        if (!Files.isDirectory(net)) {
            return out;
        }
        try (DirectoryStream<Path> netdevs = Files.newDirectoryStream(net)) {
            for (Path netdev : netdevs) {
                NetworkInterface nif = NetworkInterface.getByName(netdev.getFileName().toString());
                if (nif != null) {
                    for (InetAddress a : Collections.list(nif.getInetAddresses())) {
                        if (a instanceof Inet4Address) {
                            out.add(a);
                        }
                    }
                }
            }
        } catch (IOException | SecurityException e) {
            return out; // an unreadable sysfs just means "unknown"
        }
        return out;
    }

    private static String sysfsHint() {
        return Files.isDirectory(SYSFS) ? "" : "; " + SYSFS + " does not exist";
    }
}
