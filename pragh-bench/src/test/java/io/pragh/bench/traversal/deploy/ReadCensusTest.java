package io.pragh.bench.traversal.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.embedded.EmbeddedCluster;
import io.pragh.keys.KeyLayout;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class ReadCensusTest {
    @Test
    void remoteReadsOfAKeyOneMachineReadsAreAboveTheFloorAndFiledByWhatHappenedToTheKey() {
        try (EmbeddedCluster cluster = EmbeddedCluster.builder().machines(2).workersPerMachine(1).pinThreads(false)
            .keysPerMachine(1024).valueBytesPerMachine(1 << 20).build()) {
            long stays = keyHomedAt(cluster, 0, 1);
            long moves = keyHomedAt(cluster, 0, 2);
            long added = keyHomedAt(cluster, 0, 3);
            for (long k : new long[] {stays, moves, added}) {
                cluster.homeOf(k).put(k, new byte[] {1});
            }
            int[] observed = new int[1];
            cluster.machine(1).store().setAccessObserver((key, home, host) -> observed[0]++);
            ReadCensus census = ReadCensus.start(cluster);
            for (int i = 0; i < 3; i++) {
                cluster.machine(1).get(stays);   // remote: read from machine 1, its value at home
                cluster.machine(1).get(moves);
                cluster.machine(1).get(added);
            }
            cluster.machine(1).migrate(moves);
            cluster.machine(1).get(moves);     // local now
            String report = census.stop(k -> k != added);

            assertEquals(10, observed[0], "the observer installed before the census still saw every read");
            assertEquals(3, excess(report, "never moved"), report);
            assertEquals(3, excess(report, "moved to best reader in window"), report);
            assertEquals(3, excess(report, "new neighbour \\(insert\\)"), report);
            cluster.machine(1).get(stays);
            assertEquals(11, observed[0], "stop put the chained observer back");
            assertTrue(report.contains("their window floor 0 "), report);
        }
    }

    private static long excess(String report, String cls) {
        Matcher m = Pattern.compile(cls + ":\\s+([+-]\\d+) reads").matcher(report);
        assertTrue(m.find(), cls + " missing from " + report);
        return Long.parseLong(m.group(1));
    }

    /** The {@code nth} adjacency key of label 0 homed at {@code home}. */
    static long keyHomedAt(EmbeddedCluster cluster, int home, int nth) {
        int found = 0;
        for (long vid = 1; ; vid++) {
            long k = KeyLayout.key(vid, 0, KeyLayout.OUT);
            if (cluster.home(k) == home && ++found == nth) {
                return k;
            }
        }
    }
}
