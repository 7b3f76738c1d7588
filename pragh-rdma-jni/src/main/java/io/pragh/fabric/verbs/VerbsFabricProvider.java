package io.pragh.fabric.verbs;

import io.pragh.fabric.Fabric;
import io.pragh.fabric.FabricKind;
import io.pragh.fabric.FabricProvider;
import io.pragh.fabric.FabricSpec;
import io.pragh.rdma.jni.DeviceProbe;
import io.pragh.rdma.jni.NativeLibrary;
import io.pragh.rdma.jni.RdmaDevice;
import io.pragh.rdma.jni.RdmaDevices;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.Supplier;

/**
 * Provides the {@link VerbsFabric} to whoever finds it on the class path ({@code META-INF/services}). It can run
 * where Pragh's native verbs library loads and an RDMA device has an active port; otherwise {@link #availability}
 * says which of the two is missing (the library's reason names the {@code java.library.path} it searched). The
 * fabric it builds listens on each machine's fabric address (rdma_cm's port space, not the kernel's TCP one) and
 * bounds connections and operations by the spec's timeouts; buffers and queue depths are {@link VerbsConfig}'s
 * defaults.
 *
 * <pre>{@code
 * Fabric f = new VerbsFabricProvider().create(FabricSpec.of(0, addresses));
 * }</pre>
 */
public final class VerbsFabricProvider implements FabricProvider {
    private final Supplier<NativeLibrary.Status> library;
    private final Supplier<DeviceProbe> probe;
    private final BiFunction<VerbsConfig, InetSocketAddress, Transport> device;

    /** This host's devices, through the native library. */
    public VerbsFabricProvider() {
        this(NativeLibrary::status, RdmaDevices::probe, (config, address) -> new NativeTransport(address, config));
    }

    /**
     * The library as {@code library} reports it, devices as {@code probe} lists them, each machine's reached through
     * {@code device} (a simulated NIC in tests).
     */
    VerbsFabricProvider(Supplier<NativeLibrary.Status> library, Supplier<DeviceProbe> probe,
                        BiFunction<VerbsConfig, InetSocketAddress, Transport> device) {
        this.library = Objects.requireNonNull(library, "library");
        this.probe = Objects.requireNonNull(probe, "probe");
        this.device = Objects.requireNonNull(device, "device");
    }

    @Override
    public FabricKind kind() {
        return FabricKind.VERBS;
    }

    @Override
    public Availability availability() {
        NativeLibrary.Status lib = library.get();
        if (!lib.loaded()) {
            return Availability.unavailable("the native verbs library is not loaded: " + libraryProblem(lib));
        }
        DeviceProbe found = probe.get();
        return found.firstUsable()
            .map(d -> Availability.available("RDMA device " + d.name() + " has " + d.activePorts()
                + " active port(s)"))
            .orElseGet(() -> Availability.unavailable("no usable RDMA device: " + found.problem()));
    }

    /** The loader's reason, with the search path when the reason does not already name it. */
    private static String libraryProblem(NativeLibrary.Status library) {
        String path = System.getProperty("java.library.path", "");
        return library.problem().contains(path) && !path.isEmpty() ? library.problem()
            : library.problem() + " (java.library.path '" + path + "')";
    }

    @Override
    public Fabric create(FabricSpec spec) {
        VerbsConfig config = VerbsConfig.of(spec.requireAddresses(name()))
            .withTimeouts(spec.connectTimeout(), spec.requestTimeout());
        return new VerbsFabric(config, (machine, address) -> device.apply(config, address));
    }

    /** The native library (where from, or why not) and every device with its IPv4 addresses. */
    @Override
    public List<String> diagnostics() {
        List<String> lines = new ArrayList<>();
        NativeLibrary.Status lib = library.get();
        lines.add("native library: " + (lib.loaded()
            ? "loaded from " + lib.path() + " (Pragh native v" + lib.nativeVersion() + ", serves DiSNI 2.1)"
            : "not loaded: " + libraryProblem(lib)));
        DeviceProbe found = probe.get();
        if (found.devices().isEmpty()) {
            lines.add("RDMA devices: none: " + found.problem());
            return lines;
        }
        lines.add("RDMA devices: " + found.devices().size());
        for (RdmaDevice d : found.devices()) {
            lines.add("  " + d.name() + ": " + d.description() + "; IPv4 " + RdmaDevices.ipv4Addresses(d.name()));
        }
        if (found.problem() != null) {
            lines.add("  (" + found.problem() + ")");
        }
        return lines;
    }
}
