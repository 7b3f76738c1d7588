package io.pragh.server.cli;

import io.pragh.server.config.ClusterConfig;
import io.pragh.server.config.ConfigException;
import io.pragh.server.node.ServerNode;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * {@code ./pragh server --config cluster.yaml --id N [--parent-pid PID]}: runs machine N of the cluster the file
 * describes until SIGTERM or Ctrl-C (or, with {@code --parent-pid}, until that process exits: how test harnesses
 * make sure no server outlives them). Prints one line once it serves; a bad file or id fails at start, naming the
 * key at fault.
 *
 * <pre>{@code
 * ./pragh server --config cluster.yaml --id 0
 * pragh: machine 0 of 3 serves: fabric tcp /127.0.0.1:7400, clients /127.0.0.1:7500, ...
 * }</pre>
 */
public final class ServerCommand {
    /** Printed (followed by the description) once the machine serves; {@link LocalCluster} looks for it. */
    public static final String READY = "pragh: ready: ";
    /** The cluster file when {@code --config} is not given (the container image sets it). */
    public static final String ENV_CONFIG = "PRAGH_CONFIG";
    /** This machine's id when {@code --id} is not given (the container image sets it). */
    public static final String ENV_ID = "PRAGH_ID";

    private ServerCommand() {
    }

    public static void main(String[] args) {
        int code = run(args, System.out, System.err);
        if (code != 0) {
            System.exit(code);
        }
    }

    private static int parseId(final String text, final String source) {
        try {
            return Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(source + " must be a machine id (an integer), not '" + text + "'");
        }
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        Path config = null;
        Integer id = null;
        Long parent = null;
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--config" -> config = Path.of(value(args, ++i, "--config"));
                    case "--id" -> id = parseId(value(args, ++i, "--id"), "--id");
                    case "--parent-pid" -> parent = Long.parseLong(value(args, ++i, "--parent-pid"));
                    case "-h", "--help" -> {
                        out.println(usage());
                        return 0;
                    }
                    default -> throw new IllegalArgumentException("unknown option '" + args[i] + "'");
                }
            }
            // A container passes them in its environment: its image has no shell to expand them into flags.
            final String envConfig = System.getenv(ENV_CONFIG);
            final String envId = System.getenv(ENV_ID);
            if (config == null && envConfig != null && !envConfig.isBlank()) {
                config = Path.of(envConfig);
            }
            if (id == null && envId != null && !envId.isBlank()) {
                id = parseId(envId, ENV_ID);
            }
            if (config == null || id == null) {
                throw new IllegalArgumentException("--config and --id are required (or " + ENV_CONFIG + " and "
                    + ENV_ID + " in the environment)");
            }
        } catch (IllegalArgumentException e) {
            err.println("pragh server: " + e.getMessage() + "\n" + usage());
            return 2;
        }
        ClusterConfig cluster;
        try {
            cluster = ClusterConfig.load(config);
            cluster.machine(id);
        } catch (ConfigException | IllegalArgumentException e) {
            err.println("pragh server: " + e.getMessage());
            return 1;
        }
        final int machine = id;
        ServerNode node;
        try {
            node = ServerNode.start(cluster, machine, () -> {
                // Peers presume this machine dead and restore its values elsewhere: serving on would be wrong.
                err.println("pragh: machine " + machine + " lost its ZooKeeper session; halting (fail-stop)");
                err.flush();
                Runtime.getRuntime().halt(3);
            });
        } catch (RuntimeException e) {
            err.println("pragh server: machine " + id + " failed to start: " + e);
            e.printStackTrace(err);
            return 1;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            err.println("pragh: machine " + machine + " stopping");
            node.close();
            stopped.countDown();
        }, "pragh-shutdown"));
        out.println(READY + node.describe());
        out.flush();
        if (parent != null) {
            long pid = parent;
            ProcessHandle.of(pid).ifPresentOrElse(p -> p.onExit().thenRun(() -> {
                err.println("pragh: machine " + machine + " stops: its parent process " + pid + " exited");
                System.exit(0);
            }), () -> System.exit(0));
        }
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 0;
    }

    private static String value(String[] args, int i, String flag) {
        if (i >= args.length) {
            throw new IllegalArgumentException(flag + " needs a value");
        }
        return args[i];
    }

    static String usage() {
        return "usage: ./pragh server --config cluster.yaml --id N [--parent-pid PID]";
    }
}
