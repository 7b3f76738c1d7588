package io.pragh.rdma.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.rdma.jni.NativeLibrary;
import io.pragh.rdma.jni.RdmaDevices;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class DoctorCommandTest {
    @Test
    void reportsJavaLibraryDevicesAndTheAutoChoiceAndExitsZero() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int code = DoctorCommand.report(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, out);
        assertTrue(out.contains("java:            " + System.getProperty("java.version")), out);
        NativeLibrary.Status lib = NativeLibrary.status();
        assertTrue(out.contains(lib.loaded() ? "loaded from " + lib.path() : "not loaded: " + lib.problem()), out);
        boolean usable = RdmaDevices.probe().firstUsable().isPresent();
        if (!usable && RdmaDevices.probe().devices().isEmpty()) {
            assertTrue(out.contains("RDMA devices:    no RDMA device: "), out);
        }
        assertTrue(out.contains("multi-process server  -> " + (usable ? "verbs" : "tcp")), out);
        assertTrue(out.contains("embedded cluster      -> " + (usable ? "verbs" : "in-process")), out);
    }
}
