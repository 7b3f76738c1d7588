package io.pragh.consistency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.chaos.ChaosValues;
import io.pragh.chaos.RecordingClient;
import io.pragh.embedded.EmbeddedCluster;
import io.pragh.fabric.Region;
import io.pragh.fabric.fault.FaultFabric;
import io.pragh.fabric.fault.HoldRule;
import io.pragh.linearizability.History;
import io.pragh.migration.Migrator;
import io.pragh.store.MachineStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Found by {@link ChaosHistoryTest}'s held CASes, beyond the three bugs issue 11 names: the leak scan takes a record
 * no address word has named for its grace period (twice the reclaim lease) for leaked, on the ground that a record is
 * published only by a CAS made within the reclaim lease of its lookup. But the lease is checked before the CAS is
 * issued, not when it lands: a PUT of a migrated value whose CAS of the home's word is held in the fabric past the
 * grace period has its new record reclaimed and freed by the host's leak scan, then the CAS lands (the home's word
 * still holds the address it expects), the PUT is acknowledged, and the home names freed memory: the value is lost
 * and the allocator's free list is corrupted. The scan must leave a record alone while the operation that wrote it
 * has not settled its CAS. The test drives the host's scans itself, the second one past the grace period, so the
 * scan meets the record exactly when it would take it; every other step waits on a count, never on time.
 */
class HeldPutCasVersusLeakScanTest {
    private static final long SEED = 4;
    private static final int HOME = 0;
    private static final int HOST = 1;

    @Test
    void aPutWhoseCasIsHeldPastTheLeakScansGraceKeepsItsValue() throws Exception {
        FaultFabric fabric = Scenarios.fabric(3, SEED);
        History history = new History();
        RecordingClient client = new RecordingClient(history.recorder(1));
        List<String> failures = new ArrayList<>();
        long reclaimed;
        long skipped;
        try (EmbeddedCluster c = Scenarios.cluster(fabric, 3, 10, 20, 0).build()) {
            long key = Scenarios.keyHomedAt(c, HOME, 1);
            MachineStore host = c.machine(HOST).store();
            client.put(c.machine(HOME), key, ChaosValues.put(key, 1, 1, 8));
            assertEquals(Migrator.Outcome.MIGRATED, client.migrate(c.machine(HOST), key));

            HoldRule held = fabric.when().cas().single().from(HOST).to(HOME).region(Region.KEYS).times(1).hold();
            RecordingClient writer = new RecordingClient(history.recorder(2));
            CompletableFuture<Void> put = CompletableFuture.runAsync(
                () -> writer.put(c.machine(2), key, ChaosValues.put(key, 2, 1, 8)));
            assertTrue(held.awaitHeld(1, 10, TimeUnit.SECONDS), "the PUT's CAS was never issued");
            reclaimed = Scenarios.scanTwicePastTheGrace(host);
            held.release();
            put.get(20, TimeUnit.SECONDS);
            for (int m = 0; m < 3; m++) {
                try {
                    client.get(c.machine(m), key);
                } catch (RuntimeException e) {
                    failures.add("machine " + m + ": " + e);
                }
            }
            Scenarios.assertLinearizable("PUT CAS held past the leak scan's grace", SEED, history.drain());
            skipped = host.leakScanner().skippedInFlight();
        }
        assertTrue(failures.isEmpty(), "after the acknowledged PUT, the key cannot be read (seed " + SEED + "): "
            + failures);
        assertEquals(0, reclaimed, "the leak scan took the record of a PUT whose CAS was still on its way");
        assertTrue(skipped > 0, "the scans met the PUT's record and left it alone");
    }
}
