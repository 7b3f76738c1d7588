package io.pragh.consistency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.chaos.ChaosValues;
import io.pragh.chaos.RecordingClient;
import io.pragh.durability.SyncPolicy;
import io.pragh.embedded.EmbeddedCluster;
import io.pragh.fabric.fault.FaultFabric;
import io.pragh.fabric.inprocess.InProcessFabric;
import io.pragh.keys.KeyLayout;
import io.pragh.linearizability.CheckReport;
import io.pragh.linearizability.LinearizabilityChecker;
import io.pragh.linearizability.Operation;
import io.pragh.migration.Migrator;
import io.pragh.reclaim.Leases;
import io.pragh.store.LeakScanner;
import io.pragh.store.MachineStore;
import io.pragh.store.StoreConfig;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/** What the hand-written fault scenarios share: a small cluster under a fault fabric, waits, and the check. */
final class Scenarios {
    private Scenarios() {
    }

    /**
     * A small embedded cluster whose machines share {@code fabric}: no emulated latency, one worker each, the given
     * leases and leak scan interval (0: none).
     */
    static EmbeddedCluster.Builder cluster(FaultFabric fabric, int machines, long cacheLeaseMillis,
                                           long reclaimLeaseMillis, long leakScanMillis) {
        StoreConfig config = StoreConfig.defaults().withKeys(1_000).withValueBytes(4L << 20).withChunkBytes(4 << 20)
            .withCacheBytes(64 << 10).withReclaimRingSlots(1 << 10)
            .withLeases(new Leases(cacheLeaseMillis, reclaimLeaseMillis)).withLeakScanMillis(leakScanMillis);
        return EmbeddedCluster.builder().machines(machines).workersPerMachine(1).pinThreads(false).config(config)
            .operationTimeoutMillis(10_000).fabricPerMachine(i -> fabric);
    }

    /**
     * A durable {@link #cluster} on {@code dir} (its machines log to BATCH-synced logs there, no snapshots), with the
     * scenarios' leases (cache 5 s, reclaim 10 s), no leak scan, and operations that give up after
     * {@code operationTimeoutMillis}; building it again on the same {@code dir} is a restart.
     */
    static EmbeddedCluster durableCluster(FaultFabric fabric, int machines, Path dir, long operationTimeoutMillis) {
        return cluster(fabric, machines, 5_000, 10_000, 0).operationTimeoutMillis(operationTimeoutMillis)
            .durability(dir, SyncPolicy.BATCH, 0).build();
    }

    static FaultFabric fabric(int machines, long seed) {
        return new FaultFabric(new InProcessFabric(machines, 0), seed);
    }

    /** The first vertex key, from vid {@code fromVid} up, whose home is {@code home}. */
    static long keyHomedAt(EmbeddedCluster c, int home, long fromVid) {
        for (long vid = fromVid; ; vid++) {
            long key = KeyLayout.key(vid, 0, KeyLayout.VERTEX);
            if (c.home(key) == home) {
                return key;
            }
        }
    }

    /**
     * The first vertex key homed at {@code home}, written through {@code client} at its home (acknowledged), whose
     * value then migrated to {@code host}.
     */
    static long keyMigratedTo(EmbeddedCluster c, RecordingClient client, int home, int host) {
        long key = keyHomedAt(c, home, 1);
        client.put(c.machine(home), key, ChaosValues.put(key, 1, 1, 8));
        assertEquals(Migrator.Outcome.MIGRATED, client.migrate(c.machine(host), key));
        return key;
    }

    /** Waits until {@code condition} holds, failing the test naming {@code what} after 60 s (a hang, not slowness). */
    static void awaitTrue(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after 60 s waiting until " + what);
            }
            Thread.sleep(1);
        }
    }

    /**
     * Runs two leak scans of {@code store}, the second past the grace period (as its background thread would over
     * time, here without depending on the clock), and returns the records they reclaimed; when any, waits until the GC
     * has freed something since.
     */
    static long scanTwicePastTheGrace(MachineStore store) throws InterruptedException {
        LeakScanner scan = store.leakScanner();
        long reclaimedBefore = scan.reclaimed();
        long freedBefore = store.reclaimer().freed();
        long t0 = System.nanoTime();
        scan.scanOnce(t0);
        scan.scanOnce(t0 + TimeUnit.MILLISECONDS.toNanos(scan.graceMillis()) + 1);
        long reclaimed = scan.reclaimed() - reclaimedBefore;
        if (reclaimed > 0) {
            awaitTrue(() -> store.reclaimer().freed() > freedBefore, "the GC frees what the scan took");
        }
        return reclaimed;
    }

    /** Checks the history by search and fails the test with the violations' minimal windows. */
    static CheckReport assertLinearizable(String scenario, long seed, List<Operation> history) {
        CheckReport report = LinearizabilityChecker.forValues().check(history);
        String text = report.describe(ChaosValues.FORMAT, 3);
        System.out.println(scenario + " (seed " + seed + "): " + text);
        assertTrue(report.linearizable(), scenario + " (seed " + seed + "): " + text);
        assertTrue(report.undecidedKeys().isEmpty(), scenario + " (seed " + seed + "): " + text);
        return report;
    }
}
