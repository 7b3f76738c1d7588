package io.pragh.bench.traversal.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.coordinator.Mechanism;
import io.pragh.server.cli.LocalCluster;
import io.pragh.server.config.ClusterConfig;
import io.pragh.server.config.MachineConfig;
import io.pragh.server.config.MigrationPolicy;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cluster file a mode's server processes start from says what the spec says: sizes, cache, the manual policy
 * with the benchmark's interval, rate and mechanism, and shard placement for the shard baseline (no process runs).
 */
class ProcessBenchClusterSettingsTest {
    @TempDir
    Path dir;

    private ClusterConfig written(ClusterSpec spec) {
        return LocalCluster.create(dir.resolve("c"), ProcessBenchCluster.settings(spec)).config();
    }

    @Test
    void aSplitCacheClusterRunsTheManualPolicyWithTheBenchmarksKnobs() {
        ClusterConfig c = written(new ClusterSpec(3, 5_000, 80L << 20, 4L << 20, ClusterSpec.HASHED, 0, 1_500, 2.5,
            Mechanism.DEFERRED));
        assertEquals(3, c.machineCount());
        assertEquals(80L << 20, c.storeConfig().valueBytes());
        assertEquals(4L << 20, c.storeConfig().cacheBytes());
        assertEquals(MigrationPolicy.Trigger.MANUAL, c.policy().trigger(), "the benchmark drives the phases");
        assertEquals(Duration.ofMillis(1_500), c.policy().reportInterval());
        assertEquals(2.5, c.policy().minimumRate());
        assertEquals(MigrationPolicy.Mode.DEFERRED, c.policy().mode());
        assertTrue(c.placement().isHash());
        assertEquals(java.util.List.of("bench"), c.extensions(), "the servers serve the benchmark's operations");
        assertFalse(c.membership().enabled(), "nothing crashes in a benchmark: no ZooKeeper to start");
        assertEquals(MachineConfig.NO_GREMLIN_PORT, c.machine(0).gremlinPort(), "no Gremlin Server per machine");
    }

    @Test
    void aReplicaClusterGivesEveryMachineTheSpecsReplicaBytesAndLease() {
        ClusterConfig c = written(new ClusterSpec(2, 5_000, 80L << 20, 4L << 20, ClusterSpec.HASHED, 0, 1_500, 0,
            Mechanism.EAGER, ClusterSpec.DEFAULT_REPLICA_BYTES));
        assertEquals(new io.pragh.store.ReplicaSettings(ClusterSpec.DEFAULT_REPLICA_BYTES,
            io.pragh.store.ReplicaSettings.DEFAULT_LEASE_MILLIS), c.replicas().toSettings());
        assertFalse(written2(new ClusterSpec(2, 5_000, 80L << 20, 4L << 20, ClusterSpec.HASHED, 0, 1_500, 0,
            Mechanism.EAGER)).replicas().toSettings().enabled(), "off without replica bytes");
    }

    private ClusterConfig written2(ClusterSpec spec) {
        return LocalCluster.create(dir.resolve("c2"), ProcessBenchCluster.settings(spec)).config();
    }

    @Test
    void theShardBaselinesClusterPlacesKeysByShardWithoutACache() {
        ClusterConfig c = written(new ClusterSpec(4, 5_000, 80L << 20, 0, 100, 0, 2_000, 10, Mechanism.EAGER));
        assertEquals("shards", c.placement().kind());
        assertEquals(java.util.List.of("bench"), c.extensions(), "the extension supplies the shard placement");
        io.pragh.bench.shard.ShardPlacement p = (io.pragh.bench.shard.ShardPlacement)
            new io.pragh.bench.extension.BenchExtension().placement(c.placement(), c.machineCount());
        assertEquals(400, p.shards(), "100 shards per machine");
        assertEquals(0, c.storeConfig().cacheBytes());
    }

    @Test
    void aModesDirectoryThatHoldsAClusterIsNotReusedButNumbered() {
        assertEquals(dir.resolve("orig"), ProcessBenchCluster.freeDirectory(dir, "orig"));
        LocalCluster.create(dir.resolve("orig"), LocalCluster.Settings.small(1));
        assertEquals(dir.resolve("orig-2"), ProcessBenchCluster.freeDirectory(dir, "orig"));
        LocalCluster.create(dir.resolve("orig-2"), LocalCluster.Settings.small(1));
        assertEquals(dir.resolve("orig-3"), ProcessBenchCluster.freeDirectory(dir, "orig"));
    }
}
