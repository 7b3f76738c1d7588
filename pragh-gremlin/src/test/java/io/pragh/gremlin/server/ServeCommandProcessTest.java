package io.pragh.gremlin.server;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code ./pragh serve} as a user runs it: a child process, its exit code and what it prints. */
class ServeCommandProcessTest {
    @TempDir
    Path dir;

    /** Exit code and output of a serve that is expected to refuse its command line. */
    private String refused(final String... args) throws Exception {
        try (ServeProcess p = ServeProcess.start(dir, args)) {
            final int code = p.awaitExit(ServeProcess.STARVED_BOUND_SECONDS);
            final String out = p.output().strip();
            assertEquals(2, code, out);
            assertEquals(1, out.lines().count(), "one line, no usage or stack trace:\n" + out);
            assertFalse(out.contains("Exception") || out.contains("\tat "), out);
            return out;
        }
    }

    @Test
    void anUnknownSetKeyIsRefusedInOneLineNamingIt() throws Exception {
        final String out = refused("--metrics-port", "0", "--set", "pragh.bogus=1");
        assertTrue(out.contains("pragh.bogus") && out.contains("unknown graph setting"), out);
        assertTrue(out.contains("pragh.migrationIntervalMillis"), "lists the known keys: " + out);
    }

    @Test
    void aBadSetValueIsRefusedInOneLineNamingKeyAndValue() throws Exception {
        final String out = refused("--metrics-port", "0", "--set", "pragh.migrationIntervalMillis=soon");
        assertTrue(out.contains("pragh.migrationIntervalMillis=soon") && out.contains("a whole number"), out);
        final String bool = refused("--metrics-port", "0", "--set", "pragh.migration=maybe");
        assertTrue(bool.contains("pragh.migration=maybe") && bool.contains("true or false"), bool);
        final String small = refused("--metrics-port", "0", "--set", "pragh.valueBytesPerMachine=100");
        assertTrue(small.contains("a whole number >= 4096"), small);
    }

    @Test
    void aTakenPortStopsTheStartBeforeTheLoad() throws Exception {
        // A file that cannot load: had serve loaded before binding, it would report the load, not the port.
        final Path graph = java.nio.file.Files.writeString(dir.resolve("broken.json"), "{ not graphson");
        try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1,
                java.net.InetAddress.getByName("127.0.0.1"));
             ServeProcess p = ServeProcess.start(dir, "--port", Integer.toString(taken.getLocalPort()),
                 "--metrics-port", "0", "--load", graph.toString())) {
            final int code = p.awaitExit(ServeProcess.STARVED_BOUND_SECONDS);
            final String out = p.output();
            assertEquals(1, code, out);
            assertTrue(out.contains("cannot listen on 127.0.0.1:" + taken.getLocalPort()) && out.contains("--port"),
                out);
            assertFalse(out.contains("loading"), "stopped before loading: " + out);
        }
    }
}
