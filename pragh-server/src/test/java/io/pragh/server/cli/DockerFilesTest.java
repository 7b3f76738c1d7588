package io.pragh.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.pragh.server.config.ClusterConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What can be checked of docker/ without a Docker engine: the compose file parses and names a ZooKeeper and one
 * service per machine of its cluster file, the cluster file is a valid cluster configuration, and every path the
 * Dockerfile and the compose file copy or mount exists in the repository.
 */
class DockerFilesTest {
    private static final Path REPO = Path.of("").toAbsolutePath().getParent();
    private static final Path DOCKER = REPO.resolve("docker");

    @TempDir
    Path tmp;

    @Test
    void theClusterFileIsValidAndTheComposeFileRunsEachOfItsMachines() throws Exception {
        String yaml = Files.readString(DOCKER.resolve("cluster.yaml"));
        Path secret = tmp.resolve("secret");
        Files.writeString(secret, "a-secret-long-enough-for-the-check");
        ClusterConfig config = ClusterConfig.parse(yaml.replace("/run/secrets/pragh-cluster-secret",
            secret.toString()), "docker/cluster.yaml", DOCKER);
        assertTrue(config.membership().enabled(), "membership in the compose file's ZooKeeper");
        assertEquals("0.0.0.0", config.fabric().bindHost());

        JsonNode compose = new ObjectMapper(new YAMLFactory()).readTree(DOCKER.resolve("compose.yaml").toFile());
        JsonNode services = compose.get("services");
        assertTrue(services.has("zookeeper"), "a ZooKeeper service");
        assertEquals("zookeeper:2181", config.membership().zookeeper());
        for (int i = 0; i < config.machineCount(); i++) {
            String host = config.machine(i).host();
            JsonNode s = services.get(host);
            assertTrue(s != null, "a service named " + host + " for machine " + i);
            assertEquals(Integer.toString(i), s.get("environment").get("PRAGH_ID").asText(), host);
            assertTrue(s.get("volumes").toString().contains("./cluster.yaml:/etc/pragh/cluster.yaml"), host);
            for (JsonNode port : s.get("ports")) {
                assertTrue(port.asText().startsWith("127.0.0.1:"), host + " publishes " + port + " on loopback only");
            }
        }
        assertEquals("docker/Dockerfile", compose.get("x-pragh").get("build").get("dockerfile").asText());
        assertTrue(Files.isRegularFile(DOCKER.resolve(compose.get("x-pragh").get("build").get("context").asText())
            .resolve("docker/Dockerfile")), "the build context holds the Dockerfile");
    }

    @Test
    void everyPathTheDockerfileCopiesFromTheContextExists() throws Exception {
        List<String> missing = new ArrayList<>();
        int copies = 0;
        for (String line : Files.readAllLines(DOCKER.resolve("Dockerfile"))) {
            String l = line.strip();
            if (!l.startsWith("COPY ") || l.contains("--from=")) {
                continue;
            }
            String[] parts = l.replaceAll("--chmod=\\S+", "").trim().split("\\s+");
            for (int i = 1; i < parts.length - 1; i++) {
                copies++;
                if (!Files.exists(REPO.resolve(parts[i]))) {
                    missing.add(parts[i]);
                }
            }
        }
        assertTrue(copies >= 8, "the Dockerfile copies the poms and sources: " + copies);
        assertEquals(List.of(), missing, "paths the Dockerfile copies that do not exist");
        assertTrue(Files.isExecutable(DOCKER.resolve("entrypoint.sh")), "the entrypoint is executable");
        String df = Files.readString(DOCKER.resolve("Dockerfile"));
        assertTrue(df.contains("\nUSER pragh"), "the runtime stage runs as a non-root user");
        assertTrue(df.indexOf("FROM ") != df.lastIndexOf("FROM "), "multi-stage");
    }
}
