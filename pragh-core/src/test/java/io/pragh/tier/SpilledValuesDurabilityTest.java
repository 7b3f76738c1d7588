package io.pragh.tier;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.durability.SyncPolicy;
import io.pragh.embedded.EmbeddedCluster;
import io.pragh.keys.KeyLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Values on a memory node are logged at their keys' homes like any other, so when the memory node goes (here: the
 * whole cluster stops and starts again on its data directory) every acknowledged value, including those written
 * while they lived far, is recovered from the logs.
 */
class SpilledValuesDurabilityTest {
    private static final int KEYS = 300;

    private static EmbeddedCluster cluster(Path dir) {
        return EmbeddedCluster.builder().machines(2).memoryNodes(1, 8 << 20).workersPerMachine(1)
            .keysPerMachine(10_000).valueBytesPerMachine(8 << 20).remoteLatencyNs(0)
            .durability(dir, SyncPolicy.BATCH, 60_000)
            .tiering(TieringConfig.defaults().withLocalBudgetBytes(8 << 10).withIntervalMillis(TieringConfig.MANUAL))
            .build();
    }

    private static long key(int v) {
        return KeyLayout.key(v, 0, KeyLayout.VERTEX);
    }

    private static byte[] value(int v, String tag) {
        return String.format("%-80s", tag + "-" + v).getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void valuesSpilledAndWrittenOnAMemoryNodeSurviveItsRestartThroughTheLog(@TempDir Path dir) {
        try (EmbeddedCluster c = cluster(dir)) {
            for (int v = 0; v < KEYS; v++) {
                c.homeOf(key(v)).put(key(v), value(v, "first"));
            }
            c.tiering().runRound();
            assertTrue(c.tiering().bytes().far() > 10_000, "values went far: "
                + c.tiering().bytes() + ", moved " + c.tiering().demoted() + ", failed " + c.tiering().failed());
            for (int v = 0; v < KEYS; v += 3) {
                c.homeOf(key(v)).put(key(v), value(v, "while-far")); // forwarded to the memory node
            }
        }
        try (EmbeddedCluster c = cluster(dir)) {
            for (int v = 0; v < KEYS; v++) {
                assertArrayEquals(value(v, v % 3 == 0 ? "while-far" : "first"), c.machine(1 - c.home(key(v))).get(key(v)),
                    "key of vertex " + v);
            }
        }
    }
}
