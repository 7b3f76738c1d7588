package io.pragh.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code placement:} is hash, or a kind an extension named under {@code extensions} supplies (whose keys the
 * extension reads); any kind but hash refuses what it cannot run correctly.
 */
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
    void hashPlacementWithoutExtensionsIsTheDefault() {
        ClusterConfig c = parse(MINIMAL);
        assertTrue(c.placement().isHash());
        assertEquals(List.of(), c.placement().settings().keys());
        assertEquals(List.of(), c.extensions(), "a server runs no extension unless its file names one");
        assertTrue(parse(MINIMAL + "placement: {kind: hash}\n").placement().isHash());
    }

    @Test
    void theExampleFileDocumentsTheDefaults() throws java.io.IOException {
        try (java.io.InputStream in = ClusterConfig.class.getResourceAsStream("/cluster-example.yaml")) {
            String example = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertTrue(example.contains("placement:") && example.contains("extensions:"), "both are documented");
            ClusterConfig c = parse(example);
            assertTrue(c.placement().isHash());
            assertEquals(List.of(), c.extensions());
        }
    }

    @Test
    void anExtensionsKindKeepsItsOwnKeysForTheExtension() {
        ClusterConfig c = parse(MINIMAL + "extensions: [bench]\nplacement: {kind: shards, shardsPerMachine: 7}\n");
        assertEquals("shards", c.placement().kind());
        assertEquals(List.of("bench"), c.extensions());
        ConfigNode settings = c.placement().settings().allow("shardsPerMachine");
        assertEquals(List.of("shardsPerMachine"), settings.keys(), "kind is the server's, the rest the kind's");
        assertEquals(7, settings.integer("shardsPerMachine", 100, 1, 10));
        ConfigException e = org.junit.jupiter.api.Assertions.assertThrows(ConfigException.class,
            () -> settings.integer("shardsPerMachine", 100, 10, 20));
        assertEquals("placement.shardsPerMachine", e.key(), "an extension's errors name the key in the file");
    }

    @Test
    void badPlacementsAndExtensionListsAreRefusedNamingTheKey() {
        refused(MINIMAL + "placement: {kind: shards}\n", "placement.kind", "name that extension under extensions");
        refused(MINIMAL + "placement: {kind: 3}\n", "placement.kind", "expected a string");
        refused(MINIMAL + "placement: {kind: hash, shardsPerMachine: 10}\n", "placement.shardsPerMachine",
            "hash placement has no other keys");
        refused(MINIMAL + "placement: {shardsPerMachine: 10}\n", "placement.shardsPerMachine",
            "hash placement has no other keys");
        refused(MINIMAL + "extensions: bench\n", "extensions", "expected a list of names");
        refused(MINIMAL + "extensions: [bench, bench]\n", "extensions[1]", "listed twice");
        refused(MINIMAL + "extensions: [\"\"]\n", "extensions[0]", "expected a name");
    }

    @Test
    void onlyHashPlacementRunsWithAMembership() {
        refused(MINIMAL + "extensions: [bench]\nplacement: {kind: shards}\nmembership: {zookeeper: \"127.0.0.1:2181\"}\n",
            "placement.kind", "cannot run with a membership section");
        assertTrue(parse(MINIMAL + "placement: {kind: hash}\nmembership: {zookeeper: \"127.0.0.1:2181\"}\n")
            .placement().isHash());
    }
}
