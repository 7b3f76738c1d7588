package io.pragh.consistency;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.address.Address;
import io.pragh.chaos.ChaosValues;
import io.pragh.chaos.RecordingClient;
import io.pragh.embedded.EmbeddedCluster;
import io.pragh.fabric.Region;
import io.pragh.fabric.fault.FaultFabric;
import io.pragh.fabric.fault.HoldRule;
import io.pragh.linearizability.History;
import io.pragh.migration.Migrator;
import io.pragh.store.MachineStore;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Bug 1 of issue 11, the ABA of a late CAS: a MIGRATE reads the value, then its CAS of the home's address word is held
 * in the fabric while PUTs replace the record, the GC frees it after the reclaim lease and the allocator hands the
 * same offset back to the key. Released, the CAS finds the word it expected (same host, size and offset) and publishes
 * the copy of the first value over every later acknowledged PUT: a lost write, and a read of a value overwritten long
 * ago. Now the address word carries the allocation's generation, which the reuse advanced, so the late CAS fails and
 * the migration goes round again on the newest value. The history is checked by search; every step waits on a count
 * (held operations, records freed), never on time.
 */
class LateCasAbaTest {
    private static final long SEED = 1;
    private static final int HOME = 0;
    private static final int MIGRATOR = 1;
    private static final int PADDING = 40;

    @Test
    void aMigrationCasHeldPastTheReclaimLeaseCannotPublishAValueOverwrittenMeanwhile() throws Exception {
        FaultFabric fabric = Scenarios.fabric(3, SEED);
        History history = new History();
        RecordingClient client = new RecordingClient(history.recorder(1));
        try (EmbeddedCluster c = Scenarios.cluster(fabric, 3, 10, 20, 0).build()) {
            long key = Scenarios.keyHomedAt(c, HOME, 1);
            MachineStore home = c.machine(HOME).store();
            client.put(c.machine(HOME), key, ChaosValues.putPadded(key, 1, 1, PADDING));
            long slot = home.keys().find(key);
            long first = home.keys().address(slot);

            HoldRule held = fabric.when().cas().batched().from(MIGRATOR).to(HOME).region(Region.KEYS).times(1).hold();
            long invoked = System.nanoTime();
            CompletableFuture<Migrator.Outcome> migration = c.machine(MIGRATOR).migrateAsync(key);
            assertTrue(held.awaitHeld(1, 10, TimeUnit.SECONDS), "the migration's CAS was never issued");

            // PUTs of the same size until the home names a record at the first record's offset again.
            boolean reused = false;
            for (int seq = 2; seq < 64 && !reused; seq++) {
                long freedBefore = home.reclaimer().freed();
                client.put(c.machine(2), key, ChaosValues.putPadded(key, 1, seq, PADDING));
                long now = home.keys().address(slot);
                reused = Address.byteOffset(now) == Address.byteOffset(first);
                if (!reused) {
                    Scenarios.awaitTrue(() -> home.reclaimer().freed() > freedBefore,
                        "the GC frees the record the PUT replaced");
                }
            }
            assertTrue(reused, "the key's first record's memory was never handed back to it while the CAS was held:"
                + " the scenario did not happen");

            held.release();
            client.awaitMigration(key, MIGRATOR, invoked, migration, 10_000);
            for (int m = 0; m < 3; m++) {
                client.get(c.machine(m), key);
            }
            Scenarios.assertLinearizable("late CAS after reuse", SEED, history.drain());
        }
    }
}
