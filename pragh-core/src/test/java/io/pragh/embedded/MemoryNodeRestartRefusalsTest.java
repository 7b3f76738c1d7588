package io.pragh.embedded;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.durability.SyncPolicy;
import io.pragh.tier.TieringConfig;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A restart that could not put the node's values back, or is not a memory node's, is refused naming why. */
class MemoryNodeRestartRefusalsTest {
    private static EmbeddedCluster.Builder builder() {
        return EmbeddedCluster.builder().machines(2).memoryNodes(1, 1 << 20).workersPerMachine(1).keysPerMachine(1_000)
            .valueBytesPerMachine(1 << 20).remoteLatencyNs(0).pinThreads(false)
            .tiering(TieringConfig.defaults().withIntervalMillis(TieringConfig.MANUAL));
    }

    @Test
    void aClusterThatLogsNothingCannotRestartItsMemoryNode() {
        try (EmbeddedCluster c = builder().build()) {
            Exception e = assertThrows(IllegalStateException.class, () -> c.restartMemoryNode(2));
            assertTrue(e.getMessage().contains("not durable"), e.getMessage());
        }
    }

    @Test
    void onlyAMemoryNodeRestartsByItself(@TempDir Path dir) {
        try (EmbeddedCluster c = builder().durability(dir, SyncPolicy.BATCH, 60_000).build()) {
            Exception e = assertThrows(IllegalArgumentException.class, () -> c.restartMemoryNode(0));
            assertTrue(e.getMessage().contains("compute machine"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> c.restartMemoryNode(3), "no machine 3");
        }
    }
}
