package io.pragh.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.fabric.Deployment;
import io.pragh.fabric.FabricKind;
import io.pragh.fabric.FabricProvider;
import io.pragh.fabric.FabricProviders;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class DoctorCommandTest {
    private static String report(FabricProviders fabrics) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int code = DoctorCommand.report(new PrintStream(bytes, true, StandardCharsets.UTF_8), fabrics);
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, out);
        return out;
    }

    /** The server's class path holds all three fabrics; doctor says of each whether it runs, and what auto takes. */
    @Test
    void reportsJavaEveryFabricAndTheAutoChoiceAServerWouldMake() {
        FabricProviders fabrics = FabricProviders.load(getClass().getClassLoader());
        String out = report(fabrics);
        assertTrue(out.startsWith("java:            " + System.getProperty("java.version")), out);
        for (FabricKind kind : List.of(FabricKind.VERBS, FabricKind.TCP, FabricKind.IN_PROCESS)) {
            FabricProvider p = fabrics.provider(kind).orElseThrow(() -> new AssertionError(kind + " not found"));
            FabricProvider.Availability a = p.availability();
            assertTrue(out.contains(String.format("fabric %-12s %s", kind.label() + ":",
                (a.available() ? "can run: " : "cannot run: ") + a.reason())), out);
        }
        assertTrue(out.contains("\n  native library: "), "the verbs provider's findings: " + out);
        for (Deployment d : Deployment.values()) {
            assertTrue(out.contains(FabricProviders.describe(FabricKind.AUTO, d, fabrics.choose(FabricKind.AUTO, d))
                + "\n"), out);
        }
    }

    @Test
    void aDeploymentNoFabricCanServeIsReportedNotFatal() {
        String out = report(FabricProviders.of(List.of()));
        assertTrue(out.contains("fabric auto for multi-process server: none, fabric 'auto' fell back to 'tcp' (no "
            + "provider of fabric 'verbs' is on the class path (it comes with pragh-rdma-jni; found: none)), but no "
            + "provider of fabric 'tcp' is on the class path (it comes with pragh-server; found: none)"), out);
    }
}
