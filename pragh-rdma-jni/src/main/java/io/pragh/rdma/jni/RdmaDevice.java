package io.pragh.rdma.jni;

/**
 * One RDMA device as libibverbs lists it.
 *
 * <pre>{@code
 * RdmaDevice d = RdmaDevices.probe().devices().get(0);
 * System.out.println(d.name() + ": " + d.description());
 * }</pre>
 *
 * @param name        the verbs device name, e.g. {@code mlx5_0}
 * @param activePorts ports in state ACTIVE; a device without one cannot carry traffic
 * @param description firmware, ports and atomic capability, or why the device could not be opened
 */
public record RdmaDevice(String name, int activePorts, String description) {
    public boolean usable() {
        return activePorts > 0;
    }
}
