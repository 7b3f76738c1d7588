package io.pragh.analytics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.embedded.EmbeddedCluster;
import io.pragh.fabric.fault.FaultFabric;
import io.pragh.fabric.fault.FaultRule;
import io.pragh.fabric.inprocess.InProcessFabric;
import io.pragh.keys.KeyLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** How a scan reads values that live on other machines. */
@Timeout(60)
class AdjacencyScanTest {
    private static final int LISTS = 12;
    private static final long RECLAIM_LEASE_MILLIS = 300;

    /**
     * A value homed on another machine that lives there (never migrated: its address word names no machine) is on
     * its home, not here: it comes in a chunk READ with its neighbours. The scan read such a word as naming this
     * machine, looked for the value in its own region, found another record there and read each one by GET.
     */
    @Test
    void valuesLivingOnTheirHomeElsewhereComeInChunks() {
        FaultFabric fabric = new FaultFabric(new InProcessFabric(2, 0), 11);
        try (EmbeddedCluster cluster = cluster(fabric, 500)) {
            long[] keys = new long[LISTS];
            Map<Long, Long> expected = loadListsHomedOn1(cluster, keys);
            AdjacencyScan scan = new AdjacencyScan(cluster.machine(0).store(), ScanOptions.defaults());
            assertEquals(expected, read(cluster, scan, keys));
            // One GET per list would make both counts LISTS. (A chunk copy slow enough to be read again, on a host
            // stalled for a reclaim lease, adds a GET per list to both, and keeps them apart.)
            assertTrue(scan.farReads() < scan.farValues(), "far lists next to each other come in chunks: "
                + scan.farReads() + " far READs for " + scan.farValues() + " far values");
        }
    }

    /**
     * A chunked READ of far values is trusted as a GET's copy is: only if, once it has ended, it took less than the
     * reclaim lease (and its addresses are within both leases). A copy slower than that may have read a header before
     * its record was freed and payload after the memory was handed out again, so its values are read again one by
     * one. The scan checked the clock only when it posted the batch, so a copy of any length was trusted.
     */
    @Test
    void aChunkCopySlowerThanTheReclaimLeaseIsReadAgainOneValueAtATime() {
        FaultFabric fabric = new FaultFabric(new InProcessFabric(2, 0), 11);
        try (EmbeddedCluster cluster = cluster(fabric, RECLAIM_LEASE_MILLIS)) {
            long[] keys = new long[LISTS];
            Map<Long, Long> expected = loadListsHomedOn1(cluster, keys);
            AdjacencyScan scan = new AdjacencyScan(cluster.machine(0).store(), ScanOptions.defaults());

            assertEquals(expected, read(cluster, scan, keys));

            // Every batched READ from machine 0 to 1 (bucket lookups and chunks) now takes twice the reclaim lease;
            // a single READ (a GET's) does not.
            FaultRule slow = fabric.when().reads().batched().from(0).to(1)
                .delay(2 * RECLAIM_LEASE_MILLIS, TimeUnit.MILLISECONDS);
            long before = scan.farReads();
            assertEquals(expected, read(cluster, scan, keys), "the values, read again one by one");
            long reads = scan.farReads() - before;
            slow.remove();
            // At least one chunk READ, then one GET per list: had the slow chunk been trusted, `reads` would be the
            // number of chunks alone, at most LISTS (one READ per list at worst).
            assertTrue(reads > LISTS, "a chunk copy slower than the reclaim lease must not be trusted: " + reads
                + " far READs for " + LISTS + " lists");
        }
    }

    private static EmbeddedCluster cluster(FaultFabric fabric, long reclaimLeaseMillis) {
        return EmbeddedCluster.builder().machines(2).workersPerMachine(1).keysPerMachine(4_096)
            .valueBytesPerMachine(1 << 20).leases(5_000, reclaimLeaseMillis).fabricPerMachine(i -> fabric).build();
    }

    /** Puts LISTS one-entry lists homed (and so hosted) on machine 1, far from the scanning machine 0. */
    private static Map<Long, Long> loadListsHomedOn1(EmbeddedCluster cluster, long[] keys) {
        Map<Long, Long> expected = new TreeMap<>();
        for (long v = 0, n = 0; n < LISTS; v++) {
            long key = KeyLayout.key(v, 0, KeyLayout.OUT);
            if (cluster.machine(0).store().placement().home(key) != 1) {
                continue;
            }
            cluster.machine(1).put(key, ByteBuffer.allocate(8).putLong(v * 31).array());
            expected.put(key, v * 31);
            keys[(int) n++] = key;
        }
        return expected;
    }

    private static Map<Long, Long> read(EmbeddedCluster cluster, AdjacencyScan scan, long[] keys) {
        Map<Long, Long> got = new TreeMap<>();
        cluster.machine(0).submit(() -> {
            scan.read(keys, keys.length, (key, buf, off, len) -> got.put(key, buf.getLong(off, ByteOrder.BIG_ENDIAN)));
            return null;
        }).join();
        return got;
    }
}
