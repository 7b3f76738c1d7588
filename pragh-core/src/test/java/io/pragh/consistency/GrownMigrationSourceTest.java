package io.pragh.consistency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.pragh.PraghException;
import io.pragh.chaos.ChaosValues;
import io.pragh.chaos.RecordingClient;
import io.pragh.embedded.EmbeddedCluster;
import io.pragh.fabric.Region;
import io.pragh.fabric.fault.FaultFabric;
import io.pragh.fabric.fault.FaultRule;
import io.pragh.fabric.fault.HoldRule;
import io.pragh.linearizability.History;
import io.pragh.migration.Migrator;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * Appends in place (at the key's home) can grow a migration's source after the migration copied it: the appender read
 * the home's word before the migration's CAS, and acknowledges at once. The migration must carry them over to its
 * new record before that record settles. Two ways they were lost: the home's leak scan found the source unnamed and
 * invalidated it before the migration could (the settle pass then found it invalid and settled the new record
 * without the appends), and a carry-over whose READ of the appended bytes failed after its CAS had invalidated the
 * source (the next pass likewise found nothing left to carry). The migration's CAS of the home's word is held while
 * the home appends; every step waits on a fault rule's count or on the settle pass, never on time. Each test then
 * reads the key on every machine and checks the history.
 */
class GrownMigrationSourceTest {
    private static final long SEED = 5;
    private static final int HOME = 0;
    private static final int TARGET = 1;

    /** Appends ids 1..n at the home: from the second on the list has room to grow in place (power-of-two records). */
    private static long listHomedAt(EmbeddedCluster c, RecordingClient client, int n) {
        long key = Scenarios.keyHomedAt(c, HOME, 1);
        for (int i = 1; i <= n; i++) {
            client.append(c.machine(HOME), key, ChaosValues.append(1, i));
        }
        return key;
    }

    private static void assertEveryMachineReads(EmbeddedCluster c, RecordingClient client, long key, int ids) {
        for (int m = 0; m < c.machineCount(); m++) {
            assertEquals(ids * ChaosValues.APPEND_BYTES, client.get(c.machine(m), key).length,
                "bytes of the list read on machine " + m + " (every acknowledged append, once)");
        }
    }

    /** A MIGRATE to the target that has copied the value and whose CAS of the home's word is held. */
    private record HeldMigration(HoldRule homeWord, long invoked, CompletableFuture<Migrator.Outcome> outcome) {
    }

    private static HeldMigration copiedThenHeld(EmbeddedCluster c, FaultFabric fabric, long key)
        throws InterruptedException {
        HoldRule homeWord = fabric.when().cas().batched().from(TARGET).to(HOME).region(Region.KEYS).times(1).hold();
        long invoked = System.nanoTime();
        CompletableFuture<Migrator.Outcome> outcome = c.machine(TARGET).migrateAsync(key);
        Scenarios.awaitTrue(() -> homeWord.everHeld() == 1, "the migration copied the list and CASes the word");
        return new HeldMigration(homeWord, invoked, outcome);
    }

    @Test
    void anAppendOnTheSourceAfterItWasCopiedSurvivesTheHomesLeakScan() throws Exception {
        FaultFabric fabric = Scenarios.fabric(3, SEED);
        History history = new History();
        RecordingClient client = new RecordingClient(history.recorder(1));
        RecordingClient migrator = new RecordingClient(history.recorder(2));
        long reclaimed;
        try (EmbeddedCluster c = Scenarios.cluster(fabric, 3, 10_000, 20, 0).build()) {
            // Three ids: 24 bytes in a record that holds 40, so one more fits in place.
            long key = listHomedAt(c, client, 3);

            HeldMigration m = copiedThenHeld(c, fabric, key);
            // Copied, not yet moved: the home still names its own record, which grows in place, acknowledged.
            client.append(c.machine(HOME), key, ChaosValues.append(1, 4));

            // The migration wins the home's word but reaches the source with nothing else: its invalidation and
            // every settle pass fail until the rules go.
            FaultRule cas = fabric.when().cas().from(TARGET).to(HOME).region(Region.VALUES).refuse();
            FaultRule reads = fabric.when().reads().single().from(TARGET).to(HOME).region(Region.VALUES).refuse();
            m.homeWord().release();
            assertThrows(PraghException.class, () -> migrator.awaitMigration(key, TARGET, m.invoked(), m.outcome(), 20_000),
                "the migration whose source does not answer its invalidation fails");
            assertEquals(1, c.machine(TARGET).migrationThread().migrator().unfinishedMigrations(),
                "the migration won the home's word and waits to invalidate its source");
            reclaimed = Scenarios.scanTwicePastTheGrace(c.machine(HOME).store());

            cas.remove();
            reads.remove();
            Scenarios.awaitTrue(() -> c.machine(TARGET).migrationThread().migrator().unfinishedMigrations() == 0,
                "the migration settles once its source answers");
            assertEveryMachineReads(c, client, key, 4);
            client.append(c.machine(HOME), key, ChaosValues.append(1, 5));
            assertEveryMachineReads(c, client, key, 5);
        }
        Scenarios.assertLinearizable("append on a migration's source, then its leak scan", SEED, history.drain());
        assertEquals(0, reclaimed, "the leak scan took a source its migration had still to carry over");
    }

    @Test
    void appendsCarriedOverSurviveACarryReadThatFails() throws Exception {
        FaultFabric fabric = Scenarios.fabric(3, SEED);
        History history = new History();
        RecordingClient client = new RecordingClient(history.recorder(1));
        RecordingClient migrator = new RecordingClient(history.recorder(2));
        try (EmbeddedCluster c = Scenarios.cluster(fabric, 3, 10_000, 20, 0).build()) {
            // Six ids: 48 bytes in a record that holds 104, so two more fit in place.
            long key = listHomedAt(c, client, 6);

            HeldMigration m = copiedThenHeld(c, fabric, key);
            // Copied, not yet moved: the home still names its own record, which grows in place by 16 bytes.
            client.append(c.machine(HOME), key, ChaosValues.append(1, 7));
            client.append(c.machine(HOME), key, ChaosValues.append(1, 8));

            FaultRule carry = fabric.when().reads().single().from(TARGET).to(HOME).region(Region.VALUES).length(16)
                .refuse();
            m.homeWord().release();
            migrator.awaitMigration(key, TARGET, m.invoked(), m.outcome(), 20_000);
            Scenarios.awaitTrue(() -> carry.fired() >= 1, "the migration tried to carry the two appends over");
            carry.remove();
            Scenarios.awaitTrue(() -> c.machine(TARGET).migrationThread().migrator().unfinishedMigrations() == 0,
                "the migration settles once the carry-over reads");
            assertEveryMachineReads(c, client, key, 8);
        }
        Scenarios.assertLinearizable("appends carried over through a failed READ", SEED, history.drain());
    }
}
