package io.pragh.server.cli;

import org.apache.zookeeper.server.ServerConfig;
import org.apache.zookeeper.server.ZooKeeperServerMain;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A single ZooKeeper server for a local cluster, in its own process: {@code LocalZooKeeper zookeeper.cfg
 * [--parent-pid PID]}. The file {@link LocalCluster} writes binds 127.0.0.1 only and turns the admin web server off;
 * with a parent pid it stops when that process exits, like the servers tests start.
 *
 * <pre>{@code
 * java -cp ... io.pragh.server.cli.LocalZooKeeper /tmp/c/zookeeper.cfg
 * }</pre>
 */
public final class LocalZooKeeper {
    private static final Logger LOG = LoggerFactory.getLogger(LocalZooKeeper.class);

    private LocalZooKeeper() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 1 && !(args.length == 3 && args[1].equals("--parent-pid"))) {
            System.err.println("usage: LocalZooKeeper zookeeper.cfg [--parent-pid PID]");
            System.exit(2);
        }
        // No admin web server on port 8080: a local cluster listens on the ports its files name and nowhere else.
        System.setProperty("zookeeper.admin.enableServer", "false");
        if (args.length == 3) {
            long pid = Long.parseLong(args[2]);
            ProcessHandle.of(pid).ifPresentOrElse(p -> p.onExit().thenRun(() -> System.exit(0)), () -> System.exit(0));
        }
        ServerConfig config = new ServerConfig();
        config.parse(args[0]);
        LOG.info("ZooKeeper starts on {}", config.getClientPortAddress());
        try {
            new ZooKeeperServerMain().runFromConfig(config);
        } catch (Throwable t) {
            // Say why it stopped, and stop for real: ZooKeeper's own threads would keep the process up.
            LOG.error("the local ZooKeeper failed", t);
            System.exit(1);
        }
        LOG.info("ZooKeeper stopped");
    }
}
