package io.pragh.gremlin.server;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * gremlinpython 3.8.1 against a served PraghGraph. The interpreter is $PRAGH_GREMLIN_PYTHON, else the virtualenv
 * that .ci/run makes at .venv-gremlin in the repository root; without one that imports gremlin_python the test is
 * skipped and says why.
 */
class PythonDriverEndToEndTest {
    private static File python() {
        final String configured = System.getenv("PRAGH_GREMLIN_PYTHON");
        if (configured != null && !configured.isEmpty()) {
            return new File(configured);
        }
        return new File(new File(System.getProperty("user.dir")).getParentFile(), ".venv-gremlin/bin/python");
    }

    private static String run(final File python, final long seconds, final String... args) throws Exception {
        final String[] command = new String[args.length + 1];
        command[0] = python.getAbsolutePath();
        System.arraycopy(args, 0, command, 1, args.length);
        final Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(String.join(" ", command) + " did not finish within " + seconds + " s");
        }
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return p.exitValue() + ":" + out;
    }

    /** The interpreter, after checking it imports gremlin_python; the test is skipped, saying why, if not. */
    private static File gremlinPython() throws Exception {
        final File python = python();
        Assumptions.assumeTrue(python.canExecute(), () -> "no Python for gremlinpython at " + python
            + " (.ci/run makes it; or set PRAGH_GREMLIN_PYTHON)");
        final String probe = run(python, 60, "-c", "import gremlin_python; print('ok')");
        Assumptions.assumeTrue(probe.startsWith("0:"), () -> python + " cannot import gremlin_python: " + probe);
        return python;
    }

    @Test
    void gremlinPythonTwoHopCountsMatchTheClientsOwnCount() throws Exception {
        final File python = gremlinPython();
        final String script = new File("src/test/python/two_hop.py").getAbsolutePath();
        try (ServedGraph served = new ServedGraph()) {
            final String result = run(python, 120, script, Integer.toString(served.port), "7");
            assertTrue(result.startsWith("0:"), result);
            assertTrue(result.contains("ok 30 vertices"), result);
            assertEquals(120L, (long) served.server.graph().traversal().E().count().next());
        }
    }

    @Test
    void gremlinPythonReadsPraghStatsAndTheMetricsCountItsRequests() throws Exception {
        final File python = gremlinPython();
        final String script = new File("src/test/python/stats.py").getAbsolutePath();
        final io.pragh.gremlin.structure.PraghGraph graph =
            io.pragh.gremlin.structure.PraghGraph.open(io.pragh.gremlin.structure.TestGraphs.configuration());
        final ServeOptions options = new ServeOptions();
        options.host = "127.0.0.1";
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            options.port = s.getLocalPort();
        }
        final ServeMetrics metrics = ServeMetrics.attach(graph, java.time.Duration.ofSeconds(1));
        try (PraghServer server = PraghServer.start(graph, options); metrics) {
            final int metricsPort = metrics.serve(new java.net.InetSocketAddress("127.0.0.1", 0)).address().getPort();
            final String result = run(python, 120, script, Integer.toString(options.port),
                Integer.toString(metricsPort), "4");
            assertTrue(result.startsWith("0:"), result);
            assertTrue(result.contains("ok 4 machines"), result);
        }
    }

    /** security.py in {@code mode} against a server with {@code options}; its report when every check held. */
    private static String security(final ServeOptions options, final String mode, final String a, final String b)
        throws Exception {
        final File python = gremlinPython();
        final String script = new File("src/test/python/security.py").getAbsolutePath();
        // stats.py's server: g.call('pragh.stats') answers
        final io.pragh.gremlin.structure.PraghGraph graph =
            io.pragh.gremlin.structure.PraghGraph.open(io.pragh.gremlin.structure.TestGraphs.configuration());
        options.host = "127.0.0.1";
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            options.port = s.getLocalPort();
        }
        try (ServeMetrics metrics = ServeMetrics.attach(graph, java.time.Duration.ofSeconds(1));
             PraghServer server = PraghServer.start(graph, options)) {
            final String result = run(python, 180, script, mode, Integer.toString(options.port), a, b);
            assertTrue(result.startsWith("0:") && result.contains("ok "), result);
            return result;
        }
    }

    @Test
    void gremlinPythonIsRefusedEveryFormOfIoLambdasForeignServicesAndComputerPrograms(@TempDir final Path dir)
        throws Exception {
        final Path secret = Files.writeString(dir.resolve("hostname"), "secret-host-4711\n");
        final Path target = dir.resolve("overwritten.json");
        security(new ServeOptions(), "refused", secret.toString(), target.toString());
        assertFalse(Files.exists(target), "io() wrote " + target);
    }

    @Test
    void gremlinPythonUsesIoInsideTheAllowedDirectoryOnly(@TempDir final Path dir) throws Exception {
        final Path io = Files.createDirectories(dir.resolve("io"));
        final Path outside = Files.createDirectories(dir.resolve("outside"));
        Files.writeString(outside.resolve("secret.txt"), "secret");
        Files.createSymbolicLink(io.resolve("out"), outside);
        final ServeOptions options = new ServeOptions();
        options.allowIo = io.toFile();
        security(options, "allowed", io.toString(), outside.toString());
        assertTrue(Files.exists(io.resolve("graph.json")), "io() wrote nothing in its directory");
    }

    @Test
    void gremlinPythonLogsInWithTheRightPasswordOnly(@TempDir final Path dir) throws Exception {
        final ServeOptions options = new ServeOptions();
        options.credentials = Files.writeString(dir.resolve("users.txt"), "alice:py-secret-9\n").toFile();
        security(options, "login", "alice", "py-secret-9");
    }
    @Test
    void gremlinPythonIsToldTheFrameLimitForALargeRequestAndALargeResponse() throws Exception {
        final File python = gremlinPython();
        final String script = new File("src/test/python/frame_limit.py").getAbsolutePath();
        final ServeOptions options = new ServeOptions();
        options.maxFrameBytes = 64 * 1024; // small, so that the frames over it are quick to send
        try (ServedGraph served = new ServedGraph(options)) {
            final String result = run(python, 120, script, Integer.toString(served.port),
                Integer.toString(options.maxFrameBytes));
            assertTrue(result.startsWith("0:"), result);
            assertTrue(result.contains("ok frame limit 65536"), result);
        }
    }

    @Test
    void gremlinPythonFindsAGraphMlVertexByTheStringIdItsFileGaveIt(@org.junit.jupiter.api.io.TempDir final java.nio.file.Path dir)
            throws Exception {
        final File python = gremlinPython();
        final java.nio.file.Path file = java.nio.file.Files.writeString(dir.resolve("people.graphml"), String.join("\n",
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
            "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">",
            "  <key id=\"labelV\" for=\"node\" attr.name=\"labelV\" attr.type=\"string\"/>",
            "  <key id=\"name\" for=\"node\" attr.name=\"name\" attr.type=\"string\"/>",
            "  <key id=\"labelE\" for=\"edge\" attr.name=\"labelE\" attr.type=\"string\"/>",
            "  <graph id=\"G\" edgedefault=\"directed\">",
            "    <node id=\"n0\"><data key=\"labelV\">person</data><data key=\"name\">Ada</data></node>",
            "    <node id=\"n1\"><data key=\"labelV\">person</data><data key=\"name\">Bob</data></node>",
            "    <edge id=\"e0\" source=\"n0\" target=\"n1\"><data key=\"labelE\">knows</data></edge>",
            "  </graph>",
            "</graphml>"));
        final int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            port = s.getLocalPort();
        }
        try (ServeProcess serve = ServeProcess.start(dir, "--port", Integer.toString(port), "--metrics-port", "0",
                "--machines", "2", "--load", file.toString())) {
            serve.awaitOutput("Ctrl-C stops", ServeProcess.STARVED_BOUND_SECONDS);
            final String result = run(python, 120, "-c", String.join("\n",
                "import sys",
                "from gremlin_python.driver.driver_remote_connection import DriverRemoteConnection",
                "from gremlin_python.process.anonymous_traversal import traversal",
                "c = DriverRemoteConnection('ws://127.0.0.1:%s/gremlin' % sys.argv[1], 'g')",
                "g = traversal().with_remote(c)",
                "print('name', g.V().has('originalId', 'n0').values('name').next())",
                "print('knows', g.V().has('originalId', 'n0').out_e('knows').values('originalId').next(),",
                "      g.V().has('originalId', 'n0').out('knows').values('originalId').next())",
                "c.close()"), Integer.toString(port));
            assertTrue(result.startsWith("0:"), result);
            assertTrue(result.contains("name Ada") && result.contains("knows e0 n1"), result);
        }
    }
}
