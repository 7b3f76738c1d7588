package io.pragh.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Wrong command lines and bad cluster files fail before anything starts, saying what is wrong. */
class CommandLineTest {
    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int server(String... args) {
        return ServerCommand.run(args, new PrintStream(out, true), new PrintStream(err, true));
    }

    private int cluster(String... args) {
        return ClusterCommand.run(args, new PrintStream(out, true), new PrintStream(err, true));
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void serverNeedsConfigAndId() {
        assertEquals(2, server("--id", "0"));
        assertTrue(err().contains("--config and --id are required"), err());
        assertEquals(2, server("--config", "x.yaml", "--id", "0", "--bogus"));
        assertTrue(err().contains("unknown option '--bogus'"), err());
    }

    @Test
    void aBadClusterFileFailsAtStartNamingTheKey() throws Exception {
        Path file = dir.resolve("cluster.yaml");
        Files.writeString(file, """
            machines:
              - {id: 0, host: 127.0.0.1, fabricPort: 7400, gremlinPort: 8182, clientPort: 99999}
            dataDirectory: data
            security: {clusterSecret: "a-cluster-secret-of-enough-bytes"}
            """);
        assertEquals(1, server("--config", file.toString(), "--id", "0"));
        assertTrue(err().contains("machines[0].clientPort"), err());
        assertTrue(err().contains("99999"), err());
        assertTrue(Files.notExists(dir.resolve("data")), "nothing was created");
    }

    @Test
    void anIdOutsideTheClusterFails() throws Exception {
        Path file = dir.resolve("cluster.yaml");
        Files.writeString(file, """
            machines:
              - {id: 0, host: 127.0.0.1, fabricPort: 7400, gremlinPort: 8182}
            dataDirectory: data
            security: {clusterSecret: "a-cluster-secret-of-enough-bytes"}
            """);
        assertEquals(1, server("--config", file.toString(), "--id", "3"));
        assertTrue(err().contains("machine 3 is not in this 1-machine cluster"), err());
    }

    @Test
    void clusterCommandsCheckTheirArguments() {
        assertEquals(2, cluster("start", "--machines", "3"));
        assertTrue(err().contains("--dir is required"), err());
        assertEquals(2, cluster("kill", "x", "--dir", dir.toString()));
        assertTrue(err().contains("machine id must be an integer, got 'x'"), err());
        assertEquals(2, cluster("frobnicate", "--dir", dir.toString()));
        assertTrue(err().contains("unknown cluster command 'frobnicate'"), err());
        assertEquals(2, cluster("status", "--dir", dir.toString()));
        assertTrue(err().contains("holds no cluster"), err());
        assertEquals(2, cluster("start", "--machines", "0", "--dir", dir.toString()));
        assertTrue(err().contains("--machines must be 1..128"), err());
        assertEquals(2, cluster("start", "--machines", "2", "--dir", dir.toString(), "--sync", "sometimes"));
        assertTrue(err().contains("durability.sync"), err());
        assertEquals(2, cluster("start", "--machines", "2", "--dir", dir.toString(), "--fabric-port", "65535"));
        assertTrue(err().contains("--fabric-port must leave room for 2 ports in 1..65535, got 65535"), err());
        assertEquals(2, cluster("start", "--machines", "2", "--dir", dir.toString(), "--client-port", "x"));
        assertTrue(err().contains("--client-port must be an integer, got 'x'"), err());
        assertEquals(2, cluster("start", "--machines", "2", "--dir", dir.toString(), "--idle-timeout-seconds", "0"));
        assertTrue(err().contains("limits.idleTimeout"), err());
        assertEquals(2, cluster("start", "--machines", "2", "--dir", dir.toString(), "--gremlin-port", "18182",
            "--sparql-port", "18182"));
        assertTrue(err().contains("sparql.port: duplicate port: machine 0 would listen on 127.0.0.1:18182 (port + 0),"
            + " which is already machines[0].gremlinPort"), err());
        assertFalse(Files.exists(dir.resolve(LocalCluster.CONFIG)), "nothing was made");
    }

    @Test
    void clusterLoadChecksItsGremlinFlagsBeforeLoading() {
        assertEquals(2, cluster("load", "--dir", dir.toString(), "--gremlin", "maybe"));
        assertTrue(err().contains("--gremlin takes on or off, got 'maybe'"), err());
        assertEquals(2, cluster("load", "--dir", dir.toString(), "--warmup-seconds", "-1"));
        assertTrue(err().contains("--warmup-seconds >= 0"), err());
        assertEquals(2, cluster("load", "--dir", dir.toString(), "--edges-per-request", "1,x"));
        assertTrue(err().contains("--edges-per-request (a comma-separated list) must be an integer, got 'x'"), err());
        assertEquals(2, cluster("load", "--dir", dir.toString(), "--edges-per-request", "0"));
        assertTrue(err().contains("every --edges-per-request >= 1"), err());
        assertEquals(2, cluster("load", "--dir", dir.toString(), "--gremlin-in-flight", "0"));
        assertTrue(err().contains("--gremlin-in-flight"), err());
    }

    @Test
    void clusterStartListensOnThePortsItIsGiven() throws Exception {
        int[] p = consecutiveFreePorts(9);
        Path c = dir.resolve("c");
        System.setProperty("pragh.cluster.tieServers", "true"); // the servers stop with this JVM whatever happens
        try {
            assertEquals(0, cluster("start", "--machines", "2", "--dir", c.toString(), "--fabric-port",
                Integer.toString(p[0]), "--client-port", Integer.toString(p[2]), "--gremlin-port",
                Integer.toString(p[4]), "--metrics-port", Integer.toString(p[6]), "--zookeeper-port",
                Integer.toString(p[8])), err());
            LocalCluster local = LocalCluster.open(c);
            String status = String.join("\n", local.status());
            for (int m = 0; m < 2; m++) {
                assertEquals(p[0] + m, local.config().machine(m).fabricPort());
                assertEquals(p[2] + m, local.config().machine(m).clientPort());
                assertEquals(p[4] + m, local.config().machine(m).gremlinPort());
                assertEquals(p[6] + m, local.config().metrics().port(m));
                // Each machine answers on the client port it was given (status PINGs it there).
                assertTrue(status.contains("machine " + m + ": pid") && status.contains("serving clients on "
                    + "localhost/127.0.0.1:" + (p[2] + m)), status);
            }
            assertEquals("127.0.0.1:" + p[8], local.config().membership().zookeeper());
            assertTrue(status.contains("zookeeper 127.0.0.1:" + p[8] + ": pid"), status);
        } finally {
            cluster("stop", "--dir", c.toString());
            System.clearProperty("pragh.cluster.tieServers");
        }
    }

    /** {@code n} consecutive loopback ports that were free just now. */
    private static int[] consecutiveFreePorts(int n) throws Exception {
        for (int attempt = 0; attempt < 100; attempt++) {
            int first;
            try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
                first = s.getLocalPort();
            }
            if (first + n > 65535) {
                continue;
            }
            java.util.List<java.net.ServerSocket> held = new java.util.ArrayList<>();
            try {
                for (int i = 0; i < n; i++) {
                    held.add(new java.net.ServerSocket(first + i, 1, java.net.InetAddress.getLoopbackAddress()));
                }
                int[] ports = new int[n];
                for (int i = 0; i < n; i++) {
                    ports[i] = first + i;
                }
                return ports;
            } catch (java.io.IOException taken) {
                // try another run
            } finally {
                for (java.net.ServerSocket s : held) {
                    s.close();
                }
            }
        }
        throw new IllegalStateException("no " + n + " consecutive free loopback ports");
    }
}
