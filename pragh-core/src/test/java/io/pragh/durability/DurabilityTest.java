package io.pragh.durability;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.cluster.EmbeddedCluster;
import io.pragh.keys.KeyLayout;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DurabilityTest {
    @TempDir
    Path dir;

    private EmbeddedCluster open(SyncPolicy policy) {
        return EmbeddedCluster.builder().machines(3).workersPerMachine(1).keysPerMachine(1000)
            .valueBytesPerMachine(4 << 20).cacheBytes(1 << 16).remoteLatencyNs(0).durability(dir, policy, 0).build();
    }

    private static long vertex(long v) {
        return KeyLayout.key(v, 0, KeyLayout.VERTEX);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    private static long[] sorted(long[] a) {
        Arrays.sort(a);
        return a;
    }

    @Test
    void everyAcknowledgedUpdateSurvivesARestartUnderEachPolicy() {
        for (SyncPolicy policy : SyncPolicy.values()) {
            try (EmbeddedCluster c = open(policy)) {
                for (long v = 1; v <= 30; v++) {
                    c.machine((int) (v % 3)).put(vertex(v), bytes(policy + "-" + v));
                }
                c.machine(1).delete(vertex(7));
            }
            try (EmbeddedCluster c = open(policy)) {
                for (long v = 1; v <= 30; v++) {
                    if (v == 7) {
                        assertNull(c.machine(0).get(vertex(v)), "a logged delete stays deleted");
                    } else {
                        assertArrayEquals(bytes(policy + "-" + v), c.machine(2).get(vertex(v)), policy + " key " + v);
                    }
                }
            }
        }
    }

    @Test
    void updatesAppliedOnMigratedHostsReplayInVersionOrder() {
        long src = 11;
        long adjacency = KeyLayout.key(src, 0, KeyLayout.OUT);
        long[] before;
        try (EmbeddedCluster c = open(SyncPolicy.NONE)) {
            for (int i = 0; i < 60; i++) {
                c.graph().addEdge(src, 0, 1000 + i);
                if (i % 10 == 3) {
                    c.machine(i % 3).migrate(adjacency);
                }
            }
            c.machine(0).put(vertex(5), bytes("first"));
            c.machine(2).migrate(vertex(5));
            c.machine(1).put(vertex(5), bytes("second, applied on the migrated host"));
            before = c.graph().neighbours(1, src, 0);
        }
        try (EmbeddedCluster c = open(SyncPolicy.NONE)) {
            assertArrayEquals(before, c.graph().neighbours(0, src, 0), "same edges in the same order");
            assertEquals(60, before.length);
            assertArrayEquals(bytes("second, applied on the migrated host"), c.machine(0).get(vertex(5)));
        }
    }

    @Test
    void aSnapshotPlusTheLogAfterItRecoversEverythingAndTrimsOldFiles() throws Exception {
        try (EmbeddedCluster c = open(SyncPolicy.BATCH)) {
            for (long v = 1; v <= 20; v++) {
                c.machine(0).put(vertex(v), bytes("old-" + v));
            }
            for (int m = 0; m < 3; m++) {
                c.machine(m).durability().snapshot();
            }
            for (long v = 11; v <= 30; v++) {
                c.machine(1).put(vertex(v), bytes("new-" + v));
            }
        }
        try (EmbeddedCluster c = open(SyncPolicy.BATCH)) {
            long snapshotKeys = 0;
            for (int m = 0; m < 3; m++) {
                snapshotKeys += c.machine(m).durability().recovered().snapshotKeys();
            }
            assertEquals(20, snapshotKeys);
            for (long v = 1; v <= 30; v++) {
                assertArrayEquals(bytes((v <= 10 ? "old-" : "new-") + v), c.machine(2).get(vertex(v)));
            }
        }
    }

    @Test
    void aTornRecordAtTheEndOfTheLogIsCutOffAndEverythingBeforeItKept() throws IOException {
        long key = vertex(4);
        int home;
        try (EmbeddedCluster c = open(SyncPolicy.ALWAYS)) {
            home = c.home(key);
            c.machine(0).put(key, bytes("kept"));
        }
        Path machineDir = dir.resolve("machine-" + home);
        List<Long> starts = Segments.walStarts(machineDir);
        Path last = Segments.walFile(machineDir, starts.get(starts.size() - 1));
        Files.write(last, new byte[] {40, 0, 0, 0, 1, 2, 3}, StandardOpenOption.APPEND);
        try (EmbeddedCluster c = open(SyncPolicy.ALWAYS)) {
            assertArrayEquals(bytes("kept"), c.machine(1).get(key));
            assertEquals(7, c.machine(home).durability().recovered().tornBytes());
            c.machine(1).put(key, bytes("and writable again"));
        }
        try (EmbeddedCluster c = open(SyncPolicy.ALWAYS)) {
            assertArrayEquals(bytes("and writable again"), c.machine(2).get(key));
        }
    }

    @Test
    void recoveredIncarnationsStayAboveEveryLoggedVersion() {
        long key = vertex(9);
        long version;
        try (EmbeddedCluster c = open(SyncPolicy.NONE)) {
            c.machine(0).put(key, bytes("a"));
            c.machine(0).delete(key);
            c.machine(0).put(key, bytes("b"));
            version = c.machine(0).session().get(key).version();
        }
        try (EmbeddedCluster c = open(SyncPolicy.NONE)) {
            assertEquals(version, c.machine(1).session().get(key).version());
            c.machine(1).delete(key);
            c.machine(1).put(key, bytes("c"));
            assertTrue(c.machine(1).session().get(key).version() > version);
        }
        try (EmbeddedCluster c = open(SyncPolicy.NONE)) {
            assertArrayEquals(bytes("c"), c.machine(2).get(key), "the newest incarnation wins replay");
        }
    }
}
