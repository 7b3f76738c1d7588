package io.pragh.bench.extension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.bench.shard.ShardPlacement;
import io.pragh.server.config.ClusterConfig;
import io.pragh.server.config.ConfigException;
import io.pragh.server.config.PlacementConfig;
import io.pragh.server.extension.ServerExtensions;
import io.pragh.store.Mutators;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The bench extension as a server finds it: by name from the class path, with its mutator and its placement kind
 * {@code shards}, whose keys it checks naming them as the cluster file does.
 */
class BenchExtensionTest {
    private static PlacementConfig placement(String section) {
        String yaml = """
            machines:
              - {id: 0, host: 127.0.0.1, fabricPort: 7400}
              - {id: 1, host: 127.0.0.1, fabricPort: 7401}
            dataDirectory: data
            security: {clusterSecret: "a-cluster-secret-of-enough-bytes"}
            extensions: [bench]
            placement: %s
            """.formatted(section);
        return ClusterConfig.parse(yaml, "cluster.yaml", Path.of(".")).placement();
    }

    private final ServerExtensions bench = ServerExtensions.load(List.of("bench"), getClass().getClassLoader());

    @Test
    void aServerFindsItByNameAndGetsItsMutator() {
        assertEquals("bench", bench.describe());
        Mutators mutators = Mutators.withBuiltins();
        bench.registerMutators(mutators);
        assertTrue(mutators.get(CappedAppend.ID) instanceof CappedAppend);
    }

    @Test
    void shardPlacementBuildsAFreshTableOfTheGivenSizePerMachine() {
        PlacementConfig seven = placement("{kind: shards, shardsPerMachine: 7}");
        ShardPlacement p = (ShardPlacement) bench.placement(seven, 2);
        assertEquals(14, p.shards());
        assertNotSame(p, bench.placement(seven, 2), "each machine gets its own table");
        ShardPlacement d = (ShardPlacement) bench.placement(placement("{kind: shards}"), 2);
        assertEquals(2 * ShardPlacement.DEFAULT_SHARDS_PER_MACHINE, d.shards());
        assertNull(new BenchExtension().placement(placement("{kind: ranges}"), 2), "not its kind");
    }

    @Test
    void badShardSettingsAreRefusedNamingTheKey() {
        refused("{kind: shards, shardsPerMachine: 0}", "placement.shardsPerMachine", "between 1 and 10000");
        refused("{kind: shards, shardsPerMachine: 10001}", "placement.shardsPerMachine", "between 1 and 10000");
        refused("{kind: shards, shardsPerMachine: many}", "placement.shardsPerMachine", "expected an integer");
        refused("{kind: shards, shards: 10}", "placement.shards", "unknown key");
    }

    private void refused(String section, String key, String reasonPart) {
        ConfigException e = assertThrows(ConfigException.class, () -> bench.placement(placement(section), 2));
        assertEquals(key, e.key(), e.getMessage());
        assertTrue(e.reason().contains(reasonPart), e.getMessage());
    }
}
