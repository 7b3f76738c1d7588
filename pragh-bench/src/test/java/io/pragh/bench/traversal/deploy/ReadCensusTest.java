package io.pragh.bench.traversal.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.cache.LocationCache;
import io.pragh.embedded.EmbeddedCluster;
import io.pragh.keys.KeyLayout;
import io.pragh.reclaim.Leases;
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
            LocationCache.Hit hit = new LocationCache.Hit();
            assertTrue(cluster.machine(1).store().cache().peek(stays, Leases.nowMillis(), hit));
            cluster.machine(1).store().cache().invalidate(stays, hit.address); // as a GET that found it stale does
            cluster.machine(1).get(stays);     // its lookup misses: the address was dropped
            cluster.machine(0).get(moves);     // at the home, whose value moved away: a probe, no remote lookup
            String report = census.stop(k -> k != added);

            assertEquals(11, observed[0], "the observer installed before the census still saw every read");
            assertEquals(2, lookups(report, "not cached: first lookup of a loaded key in the window"), report);
            assertEquals(1, lookups(report, "not cached: a new neighbour \\(not among the loaded two-hop reads\\)"),
                report);
            assertEquals(1, lookups(report, "address dropped, it was elsewhere \\(found stale: moved or rewritten\\)"),
                report);
            assertEquals(0, lookups(report, "not cached: evicted live \\(capacity or set conflict\\)"), report);
            assertTrue(report.contains("misses at the key's home (a probe for a replica held there, no remote operation) 1"),
                report);
            assertTrue(report.contains("key lookups on a cache miss 4 "), report);
            assertEquals(4, excess(report, "never moved"), report);
            assertEquals(3, excess(report, "moved to best reader in window"), report);
            assertEquals(3, excess(report, "new neighbour \\(insert\\)"), report);
            cluster.machine(1).get(stays);
            assertEquals(12, observed[0], "stop put the chained observer back");
            assertTrue(report.contains("their window floor 1 "), report);
        }
    }

    private static long lookups(String report, String cause) {
        Matcher m = Pattern.compile("key lookups, " + cause + ":\\s+(\\d+) ").matcher(report);
        assertTrue(m.find(), cause + " missing from " + report);
        return Long.parseLong(m.group(1));
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
