package io.pragh.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

/** The smallest valid cluster file and the checks every config test makes of a parse or a refusal. */
final class ConfigFiles {
    static final String SECRET = "a-cluster-secret-of-enough-bytes";
    static final String MACHINES = """
        machines:
          - {id: 0, host: 127.0.0.1, fabricPort: 7400, gremlinPort: 8182}
          - {id: 1, host: 127.0.0.1, fabricPort: 7401, gremlinPort: 8183}
        """;
    static final String MINIMAL = MACHINES + """
        dataDirectory: data
        security: {clusterSecret: "%s"}
        """.formatted(SECRET);

    private ConfigFiles() {
    }

    /** {@code yaml} read as {@code cluster.yaml} in {@code dir}. */
    static ClusterConfig parse(Path dir, String yaml) {
        return ClusterConfig.parse(yaml, "cluster.yaml", dir);
    }

    /** Checks that {@code yaml} is refused naming {@code key} with a reason containing {@code reasonPart}. */
    static ConfigException refused(Path dir, String yaml, String key, String reasonPart) {
        ConfigException e = assertThrows(ConfigException.class, () -> parse(dir, yaml));
        assertEquals(key, e.key(), e.getMessage());
        assertTrue(e.reason().contains(reasonPart), e.getMessage());
        assertTrue(e.getMessage().startsWith("cluster.yaml: " + (key.isEmpty() ? "" : key + ": ")), e.getMessage());
        assertFalse(e.getMessage().contains(SECRET), "never shows the secret");
        return e;
    }
}
