package io.pragh.server.cli;

import io.pragh.server.rpc.ClientException;
import io.pragh.server.rpc.MachineClient;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Waits until a local cluster's processes serve: a machine once it answers PING on its client port (which it opens
 * only after it recovered), the local ZooKeeper once it accepts connections. A process that dies meanwhile, or does
 * not serve in time, fails the wait with the end of its log, so the caller sees why.
 *
 * <pre>{@code
 * MachineClient.Status s = ClusterReadiness.awaitServing(cluster, 1, 60_000);
 * }</pre>
 */
final class ClusterReadiness {
    private static final long POLL_MILLIS = 50;
    /** Lines of a process's log a failed wait shows. */
    private static final int LOG_LINES = 20;

    private ClusterReadiness() {
    }

    /** Waits until machine {@code i} answers PING on its client port; fails at once if its process died. */
    static MachineClient.Status awaitServing(LocalCluster c, int i, long timeoutMillis) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        try (MachineClient client = new MachineClient(c.clientAddress(i), 1_000, c.config().secret(),
            c.config().tls())) {
            while (true) {
                try {
                    return client.ping();
                } catch (ClientException e) {
                    if (c.process(i).isEmpty()) {
                        throw new IllegalStateException("machine " + i + " exited before serving; the end of "
                            + c.log(i) + ":\n" + tail(c.log(i), LOG_LINES));
                    }
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("machine " + i + " did not serve within " + timeoutMillis
                            + " ms; the end of " + c.log(i) + ":\n" + tail(c.log(i), LOG_LINES));
                    }
                    sleep(POLL_MILLIS);
                }
            }
        }
    }

    /** Waits until the local ZooKeeper accepts connections on its client port. */
    static void awaitZooKeeper(LocalCluster c, long timeoutMillis) {
        String connect = c.config().membership().zookeeper();
        int port = Integer.parseInt(connect.substring(connect.lastIndexOf(':') + 1));
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        Path log = c.log(LocalCluster.ZOOKEEPER);
        while (true) {
            try (java.net.Socket s = new java.net.Socket()) {
                s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
                return;
            } catch (IOException e) {
                if (c.process(LocalCluster.ZOOKEEPER).isEmpty() || System.nanoTime() > deadline) {
                    throw new IllegalStateException("the local ZooKeeper did not serve on port " + port + "; the end"
                        + " of " + log + ":\n" + tail(log, LOG_LINES));
                }
                sleep(POLL_MILLIS);
            }
        }
    }

    /** The last {@code lines} lines of a log, or why it cannot be read. */
    static String tail(Path file, int lines) {
        try {
            List<String> all = Files.readAllLines(file, StandardCharsets.UTF_8);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(cannot read " + file + ": " + e.getMessage() + ")";
        }
    }

    static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the cluster", e);
        }
    }
}
