package io.pragh.rdma.cli;

import io.pragh.rdma.Deployment;
import io.pragh.rdma.FabricChoice;
import io.pragh.rdma.FabricKind;
import io.pragh.rdma.FabricSelection;
import io.pragh.rdma.jni.DeviceProbe;
import io.pragh.rdma.jni.NativeLibrary;
import io.pragh.rdma.jni.RdmaDevice;
import io.pragh.rdma.jni.RdmaDevices;
import java.io.PrintStream;

/**
 * {@code ./pragh doctor}: what this host offers Pragh. Java version, whether the native verbs library loaded (from
 * where, which version, or why not), the RDMA devices (or why there are none), and the fabric {@code auto} would
 * choose for a multi-process server and for an embedded cluster. Exits 0 whenever it could answer, also when the
 * answer is "no RDMA here"; 1 only if it could not find out.
 *
 * <pre>{@code
 * $ ./pragh doctor
 * }</pre>
 */
public final class DoctorCommand {
    private DoctorCommand() {
    }

    public static void main(String[] args) {
        if (args.length > 0 && (args[0].equals("-h") || args[0].equals("--help"))) {
            System.out.println("usage: ./pragh doctor\n  reports Java, the native verbs library, RDMA devices and the "
                + "fabric 'auto' would choose");
            return;
        }
        if (args.length > 0) {
            System.err.println("pragh doctor: takes no arguments, got '" + String.join(" ", args) + "'");
            System.exit(2);
        }
        System.exit(report(System.out));
    }

    /** Writes the report; returns the exit code. */
    static int report(PrintStream out) {
        try {
            out.println("java:            " + System.getProperty("java.version") + " (" + System.getProperty(
                "java.vm.name") + ", " + System.getProperty("java.vendor") + ") at " + System.getProperty(
                "java.home"));
            NativeLibrary.Status lib = NativeLibrary.status();
            out.println("native library:  " + (lib.loaded()
                ? "loaded from " + lib.path() + " (Pragh native v" + lib.nativeVersion() + ", serves DiSNI 2.1)"
                : "not loaded: " + lib.problem()));
            DeviceProbe probe = RdmaDevices.probe();
            if (probe.devices().isEmpty()) {
                out.println("RDMA devices:    no RDMA device: " + probe.problem());
            } else {
                out.println("RDMA devices:    " + probe.devices().size());
                for (RdmaDevice d : probe.devices()) {
                    out.println("  " + d.name() + ": " + d.description() + "; IPv4 "
                        + RdmaDevices.ipv4Addresses(d.name()));
                }
                if (probe.problem() != null) {
                    out.println("  (" + probe.problem() + ")");
                }
            }
            for (Deployment deployment : Deployment.values()) {
                FabricChoice choice = FabricSelection.choose(FabricKind.AUTO, deployment, probe);
                String shown = choice.kind() == FabricKind.VERBS ? choice.toString()
                    : choice.kind().label() + " (no usable RDMA device, see above)";
                out.printf("fabric auto:     %-21s -> %s%n", deployment.description(), shown);
            }
            return 0;
        } catch (RuntimeException | LinkageError e) {
            out.println("pragh doctor could not finish: " + e);
            return 1;
        }
    }
}
