package io.pragh.bench.traversal.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.embedded.EmbeddedCluster;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class CompulsoryReadsTest {
    @Test
    void firstReadsAwayFromHomeAndReadsOfARewrittenValueButOneAreCompulsory() {
        try (EmbeddedCluster cluster = EmbeddedCluster.builder().machines(3).workersPerMachine(1).pinThreads(false)
            .keysPerMachine(1024).valueBytesPerMachine(1 << 20).build()) {
            long key = ReadCensusTest.keyHomedAt(cluster, 0, 1);
            long readBefore = ReadCensusTest.keyHomedAt(cluster, 0, 2);
            for (long k : new long[] {key, readBefore}) {
                cluster.homeOf(k).put(k, new byte[] {1});
            }
            int[] observed = new int[1];
            cluster.machine(1).store().setAccessObserver((k, home, host) -> observed[0]++);
            CompulsoryReads c = CompulsoryReads.install(cluster);
            cluster.machine(2).get(readBefore); // before the window: not a first read in it
            c.openWindow();
            cluster.machine(2).get(readBefore);
            for (int i = 0; i < 3; i++) {
                cluster.machine(1).get(key);    // one first read away from home, then re-reads
            }
            cluster.machine(0).get(key);        // the home: the loaded value is there
            cluster.homeOf(key).put(key, new byte[] {2});
            c.wrote(key);
            cluster.machine(1).get(key);        // read it before: may be the host of the fresh copy (exempt)
            cluster.machine(2).get(key);        // never read it: cannot be the host
            cluster.machine(0).get(key);        // one copy after a write: only one earlier reader is exempt
            cluster.machine(0).get(key);        // read since the write
            String report = c.closeWindow();

            assertEquals(2, count(report, "first reads of a value by a machine that never read it"), report);
            assertEquals(1, count(report, "reads of a value rewritten since the machine's last read"), report);
            assertEquals(3, count(report, "compulsory remote value reads"), report);
            assertTrue(report.contains(" 9 value reads, 1 edge inserts"), report);
            assertEquals(4, observed[0], "the observer installed before still saw machine 1's reads");
        }
    }

    private static long count(String report, String what) {
        Matcher m = Pattern.compile(Pattern.quote(what) + " (\\d+)").matcher(report);
        assertTrue(m.find(), what + " missing from " + report);
        return Long.parseLong(m.group(1));
    }
}
