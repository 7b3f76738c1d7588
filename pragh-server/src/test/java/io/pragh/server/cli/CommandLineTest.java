package io.pragh.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
    }
}
