package io.pragh.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The local cluster's supervisor, on a one-machine cluster of real processes: a killed machine is started again and
 * serves, the exit and the restart are logged, a restart the CLI does itself is left alone (no second process), and
 * after {@code stopAll} nothing is restarted.
 */
// Three machine starts and the supervisor's: each a new JVM, which a starved host delays most (ProcessStarts).
@Timeout(value = 900, unit = TimeUnit.SECONDS)
class SupervisorTest {
    private static final long START_MILLIS = ProcessStarts.SERVING_BOUND_MILLIS;

    @TempDir
    Path dir;

    @Test
    void aKilledMachineIsRestartedAndACliRestartIsLeftAlone() throws Exception {
        LocalCluster cluster = LocalCluster.create(dir.resolve("c"), LocalCluster.Settings.small(1));
        try {
            cluster.startAll(true, START_MILLIS);
            cluster.supervise(true);
            assertTrue(cluster.supervised());
            long first = cluster.process(0).orElseThrow().pid();

            cluster.kill(0);
            long second = awaitNewProcess(cluster, first);
            cluster.awaitServing(0, START_MILLIS);
            String log = awaitLog(cluster, "machine 0 restarted");
            assertTrue(log.contains("machine 0 exited (exit status unknown: started before this supervisor)"), log);
            assertEquals(second, restartedPid(log, 1), "the logged pid is the running one: " + log);

            cluster.restart(0, true, START_MILLIS);
            long third = cluster.process(0).orElseThrow().pid();
            assertNotEquals(second, third);
            // Two polls later the supervisor has seen the CLI's process and started none of its own.
            Thread.sleep(3 * Supervisor.POLL_MILLIS);
            assertEquals(third, cluster.process(0).orElseThrow().pid());
            log = Files.readString(cluster.log(LocalCluster.SUPERVISOR));
            assertFalse(log.contains("restart 2"), "the supervisor stayed out of the CLI's restart: " + log);
            assertFalse(Files.exists(cluster.holdFile(0)), "the hold is lifted");
        } finally {
            cluster.stopAll();
        }
        assertFalse(cluster.supervised(), "stopAll stops the supervisor");
        assertTrue(cluster.process(0).isEmpty());
        Thread.sleep(1_000 + 3 * Supervisor.POLL_MILLIS); // past the first back-off: nothing comes back
        assertTrue(cluster.process(0).isEmpty(), "a stopped cluster stays stopped");
    }

    private static long awaitNewProcess(LocalCluster cluster, long old) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(START_MILLIS);
        while (true) {
            var p = cluster.process(0);
            if (p.isPresent() && p.get().pid() != old) {
                return p.get().pid();
            }
            assertTrue(System.nanoTime() < deadline, "the supervisor did not restart machine 0");
            Thread.sleep(50);
        }
    }

    private static String awaitLog(LocalCluster cluster, String line) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(START_MILLIS);
        while (true) {
            Path p = cluster.log(LocalCluster.SUPERVISOR);
            String log = Files.exists(p) ? Files.readString(p) : "";
            if (log.contains(line)) {
                return log;
            }
            assertTrue(System.nanoTime() < deadline, "no '" + line + "' in the supervisor's log: " + log);
            Thread.sleep(50);
        }
    }

    private static long restartedPid(String log, int restart) {
        Matcher m = Pattern.compile("machine 0 restarted \\(pid (\\d+), restart " + restart + "\\)").matcher(log);
        assertTrue(m.find(), log);
        return Long.parseLong(m.group(1));
    }
}
