package io.pragh.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.keys.Placement;
import io.pragh.shard.ShardPlacement;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code placement:} picks hash or shard placement; shard placement refuses what it cannot run correctly. */
class PlacementConfigTest {
    private static final String MINIMAL = ConfigFiles.MINIMAL;

    @TempDir
    Path dir;

    private ClusterConfig parse(String yaml) {
        return ConfigFiles.parse(dir, yaml);
    }

    private void refused(String yaml, String key, String reasonPart) {
        ConfigFiles.refused(dir, yaml, key, reasonPart);
    }

    @Test
    void hashPlacementIsTheDefault() {
        ClusterConfig c = parse(MINIMAL);
        assertEquals(PlacementConfig.DEFAULT, c.placement());
        assertEquals(PlacementConfig.Kind.HASH, c.placement().kind());
        assertEquals(Placement.hashed(2).home(12345L), c.placement().build(2).home(12345L));
        assertEquals(PlacementConfig.DEFAULT, parse(MINIMAL + "placement: {kind: hash}\n").placement());
    }

    @Test
    void theExampleFileDocumentsTheDefault() throws java.io.IOException {
        try (java.io.InputStream in = ClusterConfig.class.getResourceAsStream("/cluster-example.yaml")) {
            String example = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertTrue(example.contains("placement:"), "the example has a placement section");
            assertEquals(PlacementConfig.DEFAULT, parse(example).placement());
        }
    }

    @Test
    void shardPlacementBuildsAFreshTableOfTheGivenSize() {
        ClusterConfig c = parse(MINIMAL + "placement: {kind: shards, shardsPerMachine: 7}\n");
        assertEquals(new PlacementConfig(PlacementConfig.Kind.SHARDS, 7), c.placement());
        ShardPlacement p = (ShardPlacement) c.placement().build(2);
        assertEquals(14, p.shards());
        assertTrue(p != c.placement().build(2), "each machine gets its own table");
        ClusterConfig d = parse(MINIMAL + "placement: {kind: shards}\n");
        assertEquals(ShardPlacement.DEFAULT_SHARDS_PER_MACHINE, d.placement().shardsPerMachine());
    }

    @Test
    void badPlacementValuesAreRefusedNamingTheKey() {
        refused(MINIMAL + "placement: {kind: ranges}\n", "placement.kind", "ranges");
        refused(MINIMAL + "placement: {kind: shards, shardsPerMachine: 0}\n", "placement.shardsPerMachine",
            "between 1 and 10000");
        refused(MINIMAL + "placement: {kind: shards, shardsPerMachine: 10001}\n", "placement.shardsPerMachine",
            "between 1 and 10000");
        refused(MINIMAL + "placement: {kind: shards, shardsPerMachine: many}\n", "placement.shardsPerMachine", "");
        refused(MINIMAL + "placement: {kind: hash, shardsPerMachine: 10}\n", "placement.shardsPerMachine",
            "only shard placement");
        refused(MINIMAL + "placement: {kind: shards, shards: 10}\n", "placement.shards", "unknown key");
    }

    @Test
    void shardPlacementIsRefusedWithAMembership() {
        refused(MINIMAL + "placement: {kind: shards}\nmembership: {zookeeper: \"127.0.0.1:2181\"}\n",
            "placement.kind", "cannot run with a membership section");
        assertEquals(PlacementConfig.Kind.HASH, parse(MINIMAL + "placement: {kind: hash}\n"
            + "membership: {zookeeper: \"127.0.0.1:2181\"}\n").placement().kind());
    }
}
