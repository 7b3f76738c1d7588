package io.pragh.server.cli;

import io.pragh.fabric.Deployment;
import io.pragh.fabric.FabricKind;
import io.pragh.fabric.FabricProvider;
import io.pragh.fabric.FabricProviders;
import java.io.PrintStream;

/**
 * {@code ./pragh doctor}: what this host offers Pragh. The Java version; each fabric on the class path, whether it
 * can run here and why (or why not), with what its provider found (the verbs provider: the native library, from
 * where or why not, and the RDMA devices); and the fabric {@code auto} would choose for a multi-process server and
 * for an embedded cluster, by the same selection a server makes. Exits 0 whenever it could answer, also when the
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
            System.out.println("usage: ./pragh doctor\n  reports Java, the fabrics on the class path (the native verbs "
                + "library, RDMA devices) and the fabric 'auto' would choose");
            return;
        }
        if (args.length > 0) {
            System.err.println("pragh doctor: takes no arguments, got '" + String.join(" ", args) + "'");
            System.exit(2);
        }
        System.exit(report(System.out, FabricProviders.load(DoctorCommand.class.getClassLoader())));
    }

    /** Writes the report on {@code fabrics}; returns the exit code. */
    static int report(PrintStream out, FabricProviders fabrics) {
        try {
            out.println("java:            " + System.getProperty("java.version") + " (" + System.getProperty(
                "java.vm.name") + ", " + System.getProperty("java.vendor") + ") at " + System.getProperty(
                "java.home"));
            for (FabricProvider p : fabrics.providers()) {
                FabricProvider.Availability a = p.availability();
                out.printf("fabric %-12s %s%n", p.name() + ":", (a.available() ? "can run: " : "cannot run: ")
                    + a.reason());
                for (String line : p.diagnostics()) {
                    out.println("  " + line);
                }
            }
            for (String problem : fabrics.loadProblems()) {
                out.println("fabric provider failed to load: " + problem);
            }
            // The very line a server logs when it makes the same choice.
            for (Deployment deployment : Deployment.values()) {
                try {
                    out.println(FabricProviders.describe(FabricKind.AUTO, deployment,
                        fabrics.choose(FabricKind.AUTO, deployment)));
                } catch (IllegalStateException e) {
                    out.println("fabric auto for " + deployment.description() + ": none, " + e.getMessage());
                }
            }
            return 0;
        } catch (RuntimeException | LinkageError e) {
            out.println("pragh doctor could not finish: " + e);
            return 1;
        }
    }
}
