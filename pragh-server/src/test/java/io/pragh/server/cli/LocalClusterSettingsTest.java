package io.pragh.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.server.config.ConfigException;
import io.pragh.server.config.MachineConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The cluster file {@code LocalCluster.create} writes from its settings, without starting any process. */
class LocalClusterSettingsTest {
    @TempDir
    Path dir;

    @Test
    void extraSectionsAreWrittenAndReadBackWithTheRest() throws Exception {
        LocalCluster c = LocalCluster.create(dir.resolve("c"), LocalCluster.Settings.small(2)
            .withSection("leases", "{cache: 2s, reclaim: 4s}").withStore("16MiB", 4096, "0"));
        String yaml = Files.readString(c.directory().resolve(LocalCluster.CONFIG));
        assertTrue(yaml.contains("\nleases: {cache: 2s, reclaim: 4s}\n"), yaml);
        assertEquals(16L << 20, c.config().storeConfig().valueBytes());
        assertEquals(0, c.config().storeConfig().cacheBytes(), "a cache of 0 bytes is no cache");
    }

    @Test
    void withoutAGremlinBaseNoMachineHasAGremlinPort() {
        LocalCluster c = LocalCluster.create(dir.resolve("c"), LocalCluster.Settings.small(3)
            .withGremlinPortBase(LocalCluster.Settings.NO_GREMLIN));
        for (int m = 0; m < 3; m++) {
            assertEquals(MachineConfig.NO_GREMLIN_PORT, c.config().machine(m).gremlinPort());
        }
    }

    @Test
    void aSectionTheSettingsWriteThemselvesCannotBeAdded() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> LocalCluster.Settings.small(2).withSection("store", "{valueBytes: 1MiB}"));
        assertTrue(e.getMessage().contains("section 'store' is written from the settings' own fields"),
            e.getMessage());
    }

    @Test
    void aBadSectionIsRefusedBeforeAnythingIsWritten() {
        Path c = dir.resolve("c");
        ConfigException e = assertThrows(ConfigException.class, () -> LocalCluster.create(c,
            LocalCluster.Settings.small(2).withSection("leases", "{cache: often}")));
        assertEquals("leases.cache", e.key(), e.getMessage());
        assertFalse(Files.exists(c.resolve(LocalCluster.CONFIG)), "no half-made cluster is left behind");
    }

    @Test
    void theClusterFileAndTheTlsKeysAreReadableByTheirOwnerOnly() throws Exception {
        Path c = dir.resolve("c");
        // A world-readable file would let any user of the host read the cluster secret (or mint certificates).
        LocalCluster.create(c, LocalCluster.Settings.small(1), true);
        for (Path secret : new Path[] {c.resolve(LocalCluster.CONFIG), c.resolve("tls/node-key.pem"),
            c.resolve("tls/ca.p12")}) {
            assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(
                Files.getPosixFilePermissions(secret)), secret.toString());
        }
        assertTrue(Files.readString(c.resolve(LocalCluster.CONFIG)).contains("clusterSecret"));
    }
}
