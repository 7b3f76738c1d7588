package io.pragh.rdma.jni;

import java.util.List;
import java.util.Optional;

/**
 * What a look for RDMA devices found: the devices, and when there is none usable, why.
 *
 * <pre>{@code
 * DeviceProbe p = RdmaDevices.probe();
 * if (p.firstUsable().isEmpty()) System.out.println("no RDMA device: " + p.problem());
 * }</pre>
 *
 * @param devices every device listed (possibly none)
 * @param problem why there is no usable device, or null when there is one
 */
public record DeviceProbe(List<RdmaDevice> devices, String problem) {
    public DeviceProbe {
        devices = List.copyOf(devices);
    }

    public Optional<RdmaDevice> firstUsable() {
        return devices.stream().filter(RdmaDevice::usable).findFirst();
    }
}
