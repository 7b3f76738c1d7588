package io.pragh.consistency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.PraghException;
import io.pragh.address.Address;
import io.pragh.chaos.ChaosValues;
import io.pragh.chaos.RecordingClient;
import io.pragh.embedded.EmbeddedCluster;
import io.pragh.fabric.Region;
import io.pragh.fabric.fault.FaultFabric;
import io.pragh.fabric.fault.FaultRule;
import io.pragh.fabric.fault.HoldRule;
import io.pragh.linearizability.History;
import io.pragh.migration.Migrator;
import io.pragh.store.MachineStore;
import org.junit.jupiter.api.Test;

/**
 * A MIGRATE whose CAS of the home's address word its migrator was told failed (as on a timeout: on TCP the home may
 * decode the frame after its issuer gave up, {@code AbandonedCasTest} in pragh-server) and that lands at the home
 * later. The migration is then in doubt ({@code UnfinishedMigrations}): its settle pass must find out from the home's
 * word whatever the CAS did, however late it lands. Both orders, each step waiting on a count, never on time: the
 * late CAS lands after a PUT moved the word on (it must fail, and the migration's copy must never be published), or
 * it lands before the settle pass looks (the migration took effect and must be finished as won). Afterwards every
 * machine reads and updates the key, and the history is checked for linearizability by search.
 */
class LateLandingMigrationCasTest {
    private static final long SEED = 3;
    private static final int HOME = 0;
    private static final int TARGET = 1;
    private static final int OTHER = 2;
    private static final int PADDING = 40;

    @Test
    void aMigrationCasThatLandsAfterAPutMovedTheWordFailsAndItsCopyIsNeverPublished() throws Exception {
        run("late migration CAS after a PUT", (fabric, c, client, key, late) -> {
            client.put(c.machine(OTHER), key, ChaosValues.putPadded(key, 1, 2, PADDING));
            late.cas.release();
            assertEquals(1, fabric.lateOperationsLanded());
            assertEquals(0, fabric.lateOperationsTookEffect(), "the late CAS found the word a PUT had moved on");
            late.settle(c);
            assertEquals(HOME, hostNamedByTheHome(c, key), "the migration's copy was never published");
        });
    }

    @Test
    void aMigrationCasThatLandsBeforeTheSettlePassLooksIsFinishedAsWon() throws Exception {
        run("late migration CAS before the settle pass", (fabric, c, client, key, late) -> {
            late.cas.release();
            assertEquals(1, fabric.lateOperationsTookEffect(), "the late CAS found the word it expected");
            assertEquals(TARGET, hostNamedByTheHome(c, key), "the home names the migration's copy");
            late.settle(c);
        });
    }

    /** What happens between the migration's failure and the checks every scenario ends with. */
    private interface Scenario {
        void run(FaultFabric fabric, EmbeddedCluster c, RecordingClient client, long key, LateMigration late)
            throws Exception;
    }

    /**
     * A key at {@link #HOME} with a value, a MIGRATE to {@link #TARGET} whose CAS waits to land, the scenario, then
     * every machine reads and updates the key and the history must be linearizable.
     */
    private static void run(String name, Scenario scenario) throws Exception {
        FaultFabric fabric = Scenarios.fabric(3, SEED);
        History history = new History();
        RecordingClient client = new RecordingClient(history.recorder(1));
        try (EmbeddedCluster c = Scenarios.cluster(fabric, 3, 10, 20, 0).build()) {
            long key = Scenarios.keyHomedAt(c, HOME, 1);
            client.put(c.machine(HOME), key, ChaosValues.putPadded(key, 1, 1, PADDING));
            scenario.run(fabric, c, client, key, migrateWithALateCas(fabric, c, client, key));
            everyMachineReadsAndUpdates(c, client, key);
            Scenarios.assertLinearizable(name, SEED, history.drain());
        }
    }

    private static int hostNamedByTheHome(EmbeddedCluster c, long key) {
        MachineStore home = c.machine(HOME).store();
        return Address.host(home.keys().address(home.keys().find(key)), HOME);
    }

    /** The late CAS, and the rule that keeps the migrator's settle pass from reading the home's word meanwhile. */
    private record LateMigration(HoldRule cas, FaultRule blindSettle) {
        void settle(EmbeddedCluster c) throws InterruptedException {
            blindSettle.remove();
            Scenarios.awaitTrue(() -> c.machine(TARGET).migrationThread().migrator().unfinishedMigrations() == 0,
                "the migrator settles its doubt");
        }
    }

    /** A MIGRATE to {@link #TARGET} whose CAS of the home's word fails at the migrator and waits to land. */
    private static LateMigration migrateWithALateCas(FaultFabric fabric, EmbeddedCluster c, RecordingClient client,
                                                     long key) {
        HoldRule cas = fabric.when().cas().batched().from(TARGET).to(HOME).region(Region.KEYS).times(1)
            .applyLateOnRelease();
        FaultRule blindSettle = fabric.when().reads().single().from(TARGET).to(HOME).region(Region.KEYS).length(8)
            .refuse();
        assertThrows(PraghException.class, () -> client.migrate(c.machine(TARGET), key),
            "the migration whose CAS got no answer fails");
        assertEquals(1, cas.everHeld());
        assertEquals(1, fabric.lateOperationsInFlight());
        assertEquals(1, c.machine(TARGET).migrationThread().migrator().unfinishedMigrations(),
            "the CAS without an answer left the migration in doubt");
        return new LateMigration(cas, blindSettle);
    }

    private static void everyMachineReadsAndUpdates(EmbeddedCluster c, RecordingClient client, long key) {
        for (int m = 0; m < 3; m++) {
            client.get(c.machine(m), key);
            client.put(c.machine(m), key, ChaosValues.putPadded(key, 1, 10 + m, PADDING));
            for (int r = 0; r < 3; r++) {
                client.get(c.machine(r), key);
            }
        }
        assertEquals(Migrator.Outcome.MIGRATED, client.migrate(c.machine(OTHER), key));
        for (int m = 0; m < 3; m++) {
            client.get(c.machine(m), key);
        }
    }
}
