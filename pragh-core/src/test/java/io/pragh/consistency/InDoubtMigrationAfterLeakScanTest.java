package io.pragh.consistency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.PraghException;
import io.pragh.chaos.ChaosValues;
import io.pragh.chaos.RecordingClient;
import io.pragh.embedded.EmbeddedCluster;
import io.pragh.fabric.Region;
import io.pragh.fabric.fault.FaultFabric;
import io.pragh.fabric.fault.FaultRule;
import io.pragh.linearizability.History;
import io.pragh.migration.Migrator;
import io.pragh.store.MachineStore;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Bug 2 of issue 11: a MIGRATE whose CAS failed leaves its new record in doubt until the migrator can read the home's
 * word again. Before the fix, the target's leak scan meanwhile found the record unnamed and reclaimed it, the GC freed
 * it, and a later MIGRATE of the same key reused the offset (a value of another size in the same size class). When the
 * migrator finally settled the doubt, the home named neither address it knew, so it took the record for never
 * published and zeroed it: the key's live value. Now the scan leaves a record alone while a migration still tracks it
 * (its pending bit), and the settle pass frees only the allocation it owns (its generation). The fault fabric drops
 * the first CAS and keeps the settling pass from reading the home's word (its 8-byte READs of the key region) until
 * the second MIGRATE is done; the test drives the target's scans itself, the second one past the grace period, so the
 * scan meets the record exactly when it would take it; every other step waits on a count, never on time. Afterwards
 * every machine must read and update the key, and the history must be linearizable.
 */
class InDoubtMigrationAfterLeakScanTest {
    private static final long SEED = 2;
    private static final int HOME = 0;
    private static final int TARGET = 1;
    /** Values of 240 and 248 bytes: records of 33 and 34 units, both in the 36-unit size class. */
    private static final int FIRST_PADDING = 240 - ChaosValues.PUT_HEADER_BYTES;
    private static final int SECOND_PADDING = 248 - ChaosValues.PUT_HEADER_BYTES;

    @Test
    void settlingAnInDoubtMigrationNeverFreesARecordALaterMigrationReused() throws Exception {
        FaultFabric fabric = Scenarios.fabric(3, SEED);
        History history = new History();
        RecordingClient client = new RecordingClient(history.recorder(1));
        List<String> failures = new ArrayList<>();
        long reclaimed;
        try (EmbeddedCluster c = Scenarios.cluster(fabric, 3, 10, 20, 0).build()) {
            long key = Scenarios.keyHomedAt(c, HOME, 1);
            MachineStore target = c.machine(TARGET).store();
            client.put(c.machine(HOME), key, ChaosValues.putPadded(key, 1, 1, FIRST_PADDING));

            FaultRule lostCas = fabric.when().cas().batched().from(TARGET).to(HOME).region(Region.KEYS).times(1)
                .drop();
            FaultRule blindSettle = fabric.when().reads().single().from(TARGET).to(HOME).region(Region.KEYS)
                .length(8).refuse();
            assertThrows(PraghException.class, () -> client.migrate(c.machine(TARGET), key),
                "the migration whose CAS was dropped fails");
            assertEquals(1, lostCas.fired());
            assertEquals(1, c.machine(TARGET).migrationThread().migrator().unfinishedMigrations(),
                "the dropped CAS left its record in doubt");

            reclaimed = Scenarios.scanTwicePastTheGrace(target);
            client.put(c.machine(2), key, ChaosValues.putPadded(key, 1, 2, SECOND_PADDING));
            assertEquals(Migrator.Outcome.MIGRATED, client.migrate(c.machine(TARGET), key));
            for (int m = 0; m < 3; m++) {
                client.get(c.machine(m), key);
            }

            blindSettle.remove();
            Scenarios.awaitTrue(() -> c.machine(TARGET).migrationThread().migrator().unfinishedMigrations() == 0,
                "the migrator settles its doubt");
            for (int m = 0; m < 3; m++) {
                try {
                    client.get(c.machine(m), key);
                    client.put(c.machine(m), key, ChaosValues.putPadded(key, 1, 3 + m, SECOND_PADDING));
                } catch (RuntimeException e) {
                    failures.add("machine " + m + ": " + e);
                }
            }
            Scenarios.assertLinearizable("in-doubt migration settled after the leak scan", SEED, history.drain());
        }
        assertTrue(failures.isEmpty(), "with every fault healed, the key can no longer be read or updated (seed "
            + SEED + "): " + failures);
        assertEquals(0, reclaimed, "the leak scan took the record of a migration still in doubt");
    }
}
