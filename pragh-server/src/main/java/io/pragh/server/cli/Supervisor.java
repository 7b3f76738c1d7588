package io.pragh.server.cli;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;

/**
 * Keeps the machines of a local cluster running: a small process of its own ({@code supervisor.pid},
 * {@code supervisor.log} in the cluster directory) that {@code ./pragh cluster start} launches beside the machines.
 * A machine process that exits for any reason the CLI did not ask for (a halt after a lost ZooKeeper session, a crash,
 * a kill -9) is started again after a {@link RestartBackoff} (1 s doubling to 30 s, reset after a stable minute), and
 * every exit and restart is logged with the time. A machine the CLI is restarting itself carries a hold file
 * ({@code machine-I.hold}) and is left alone meanwhile; {@code cluster stop} stops the supervisor before the machines.
 * In production, systemd does the same ({@code docs/supervision.md}).
 *
 * <p>Example: {@code java -cp ... io.pragh.server.cli.Supervisor --dir /tmp/c [--parent-pid 1234]}
 */
public final class Supervisor {
    /** How often the machines are looked at: a dead machine is noticed within this. */
    static final long POLL_MILLIS = 100;

    private final LocalCluster cluster;
    private final boolean tied;
    private final PrintStream log;
    private final RestartBackoff[] backoff;
    private final long[] restartAt;
    private final Process[] children;
    private final int[] restarts;

    Supervisor(LocalCluster cluster, boolean tied, PrintStream log) {
        this.cluster = cluster;
        this.tied = tied;
        this.log = log;
        int n = cluster.machineCount();
        this.backoff = new RestartBackoff[n];
        this.restartAt = new long[n];
        this.children = new Process[n];
        this.restarts = new int[n];
        long now = System.currentTimeMillis();
        for (int i = 0; i < n; i++) {
            backoff[i] = RestartBackoff.standard();
            backoff[i].started(now);
            restartAt[i] = -1;
        }
    }

    public static void main(String[] args) {
        Path dir = null;
        Long parent = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--dir" -> dir = Path.of(args[++i]);
                case "--parent-pid" -> parent = Long.parseLong(args[++i]);
                default -> {
                    System.err.println("pragh supervisor: unknown option '" + args[i] + "'; usage: --dir DIR"
                        + " [--parent-pid PID]");
                    System.exit(2);
                }
            }
        }
        if (dir == null) {
            System.err.println("pragh supervisor: --dir is required");
            System.exit(2);
        }
        if (parent != null) {
            long pid = parent;
            ProcessHandle.of(pid).ifPresentOrElse(p -> p.onExit().thenRun(() -> System.exit(0)), () -> System.exit(0));
        }
        Supervisor s = new Supervisor(LocalCluster.open(dir), parent != null, System.out);
        s.log("supervising " + s.cluster.machineCount() + " machines in " + s.cluster.directory());
        while (true) {
            s.pass(System.currentTimeMillis());
            try {
                Thread.sleep(POLL_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** One look at every machine at {@code now}: notices exits, starts those whose back-off has passed. */
    void pass(long now) {
        for (int i = 0; i < backoff.length; i++) {
            if (Files.exists(cluster.holdFile(i))) {
                // The CLI restarts it itself: whatever it does is wanted, and its new process is not ours.
                restartAt[i] = -1;
                children[i] = null;
                continue;
            }
            Optional<ProcessHandle> p = cluster.process(i);
            if (p.isPresent()) {
                restartAt[i] = -1; // running, whoever started it
                continue;
            }
            if (restartAt[i] < 0) {
                long wait = backoff[i].exited(now);
                restartAt[i] = now + wait;
                log("machine " + i + " exited (" + exitStatus(i) + "); restart " + (restarts[i] + 1) + " in " + wait
                    + " ms; the end of its log:\n" + LocalCluster.tail(cluster.log(i), 5));
            } else if (now >= restartAt[i]) {
                try {
                    children[i] = cluster.start(i, tied);
                    restarts[i]++;
                    backoff[i].started(now);
                    log("machine " + i + " restarted (pid " + children[i].pid() + ", restart " + restarts[i] + ")");
                } catch (RuntimeException e) {
                    long wait = backoff[i].exited(now);
                    log("machine " + i + " could not be started: " + e.getMessage() + "; next attempt in " + wait
                        + " ms");
                    restartAt[i] = now + wait;
                    continue;
                }
                restartAt[i] = -1;
            }
        }
    }

    private String exitStatus(int i) {
        Process c = children[i];
        if (c == null) {
            return "exit status unknown: started before this supervisor";
        }
        children[i] = null;
        int code = c.exitValue();
        return "exit code " + code + (code == 3 ? ", halted after losing its ZooKeeper session"
            : code == 137 ? ", killed (SIGKILL)" : code == 143 ? ", terminated (SIGTERM)" : "");
    }

    private void log(String line) {
        log.println(Instant.now() + " pragh supervisor: " + line);
        log.flush();
    }
}
