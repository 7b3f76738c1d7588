package io.pragh.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.pragh.server.config.ClusterConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What can be checked of docker/ without a Docker engine: the compose file parses, names a ZooKeeper and one service
 * per machine of its cluster file (publishing the machine's SPARQL port) and runs the image Jib builds, and the
 * cluster file is a valid cluster configuration. The image itself is checked by pragh-rdf's ServerImageIT.
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
            int sparql = config.sparql().port(i);
            assertTrue(sparql > 0 && s.get("ports").toString().contains("127.0.0.1:" + sparql + ":" + sparql),
                host + " publishes its SPARQL port " + sparql);
            for (JsonNode port : s.get("ports")) {
                assertTrue(port.asText().startsWith("127.0.0.1:"), host + " publishes " + port + " on loopback only");
            }
        }
        // The image is built by Jib (./pragh image), not by the engine: pragh-rdf's ServerImageIT checks that
        // the name here is the one the build gives the image.
        assertTrue(compose.get("x-pragh").get("image").asText().startsWith("pragh-server:"), "runs the server image");
        assertTrue(compose.get("x-pragh").get("build") == null, "no engine-side build");
    }
}
