package io.pragh.gremlin.server;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
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

    @Test
    void gremlinPythonTwoHopCountsMatchTheClientsOwnCount() throws Exception {
        final File python = python();
        Assumptions.assumeTrue(python.canExecute(), () -> "no Python for gremlinpython at " + python
            + " (.ci/run makes it; or set PRAGH_GREMLIN_PYTHON)");
        final String probe = run(python, 60, "-c", "import gremlin_python; print('ok')");
        Assumptions.assumeTrue(probe.startsWith("0:"), () -> python + " cannot import gremlin_python: " + probe);
        final String script = new File("src/test/python/two_hop.py").getAbsolutePath();
        try (ServedGraph served = new ServedGraph()) {
            final String result = run(python, 120, script, Integer.toString(served.port), "7");
            assertTrue(result.startsWith("0:"), result);
            assertTrue(result.contains("ok 30 vertices"), result);
            assertEquals(120L, (long) served.server.graph().traversal().E().count().next());
        }
    }
}
