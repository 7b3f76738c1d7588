package io.pragh.consistency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.chaos.ChaosValues;
import io.pragh.chaos.RecordingClient;
import io.pragh.embedded.EmbeddedCluster;
import io.pragh.fabric.Region;
import io.pragh.fabric.fault.FaultFabric;
import io.pragh.fabric.fault.FaultRule;
import io.pragh.linearizability.History;
import io.pragh.address.Address;
import io.pragh.migration.Migrator;
import io.pragh.store.HostUnavailableException;
import io.pragh.store.MachineStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Found by the soak's lost CAS replies, beyond the three bugs issue 11 names: a PUT of a migrated value CASes the
 * home's address word one-sidedly; when that CAS takes effect but its reply is lost (a connection that breaks after
 * the home applied it, which TCP and verbs can both do), the update protocol treats the CAS as not done and refuses
 * the PUT retryably, leaving the record it published with its invalidation-pending bit set and the record it replaced
 * never invalidated. The key then can never be updated or migrated again (both wait for the bit), and the old record
 * stays readable through cached addresses. A client retrying the PUT, as a retryable refusal invites, must get it
 * acknowledged; afterwards every machine must read it and the history must be linearizable. The same for a DELETE
 * (whose CAS installs a tombstone), and for a CAS whose home then stops answering altogether (the update is settled,
 * and only then answered, once the home answers again).
 */
class LostPutCasReplyTest {
    private static final long SEED = 5;
    private static final int HOME = 0;
    private static final int HOST = 1;

    private static EmbeddedCluster cluster(FaultFabric fabric) {
        return Scenarios.cluster(fabric, 3, 10, 20, 0).operationTimeoutMillis(20_000).build();
    }

    /** Selects the host's single CASes of the home's address words: a PUT's or a DELETE's. */
    private static io.pragh.fabric.fault.FaultSelector homeWordCas(FaultFabric fabric) {
        return fabric.when().cas().single().from(HOST).to(HOME).region(Region.KEYS);
    }

    /** A key homed at {@link #HOME} whose value, written through {@code client}, migrated to {@link #HOST}. */
    private static long valueOnHost(EmbeddedCluster c, RecordingClient client) {
        return Scenarios.keyMigratedTo(c, client, HOME, HOST);
    }

    @Test
    void aPutWhoseCasReplyWasLostCanBeRetriedAndTheKeyStaysUpdatable() throws Exception {
        FaultFabric fabric = Scenarios.fabric(3, SEED);
        History history = new History();
        RecordingClient client = new RecordingClient(history.recorder(1));
        List<String> failures = new ArrayList<>();
        try (EmbeddedCluster c = cluster(fabric)) {
            long key = valueOnHost(c, client);

            FaultRule lostReply = homeWordCas(fabric).times(1)
                .applyThenFail();
            try {
                client.put(c.machine(2), key, ChaosValues.put(key, 1, 2, 8));
            } catch (RuntimeException refused) {
                System.out.println("LostPutCasReplyTest: the PUT whose CAS reply was lost: " + refused);
            }
            assertEquals(1, lostReply.fired());
            try {
                client.put(c.machine(2), key, ChaosValues.put(key, 1, 3, 8));
                for (int m = 0; m < 3; m++) {
                    client.get(c.machine(m), key);
                }
                client.migrate(c.machine(2), key);
            } catch (RuntimeException e) {
                failures.add(e.toString());
            }
            Scenarios.assertLinearizable("PUT CAS reply lost", SEED, history.drain());
        }
        assertTrue(failures.isEmpty(), "the key stays stuck after a lost CAS reply (seed " + SEED + "): " + failures);
    }

    /**
     * A DELETE of a migrated value whose CAS reply is lost, and whose PRUNE to the home is lost too: the DELETE is
     * acknowledged (its second CAS finds the tombstone it installed), the key reads absent everywhere, and an insert
     * at the home replaces the tombstone left in its word (the DELETE invalidated the record it removed).
     */
    @Test
    void aDeleteWhoseCasReplyWasLostIsAcknowledgedAndAnInsertReplacesItsTombstone() throws Exception {
        FaultFabric fabric = Scenarios.fabric(3, SEED);
        History history = new History();
        RecordingClient client = new RecordingClient(history.recorder(1));
        try (EmbeddedCluster c = cluster(fabric)) {
            long key = valueOnHost(c, client);

            FaultRule lostReply = homeWordCas(fabric).times(1)
                .applyThenFail();
            FaultRule lostPrune = fabric.when().messages().from(HOST).to(HOME).length(24).times(1).drop();
            client.delete(c.machine(2), key);
            assertEquals(1, lostReply.fired());
            assertEquals(1, lostPrune.fired(), "the PRUNE that would have cleared the tombstone was lost");
            MachineStore home = c.machine(HOME).store();
            assertTrue(Address.isTombstone(home.keys().address(home.keys().find(key))),
                "the home's word keeps the DELETE's tombstone");
            for (int m = 0; m < 3; m++) {
                assertNull(client.get(c.machine(m), key), "machine " + m + " reads the key absent");
            }
            client.put(c.machine(2), key, ChaosValues.put(key, 1, 2, 8));
            for (int m = 0; m < 3; m++) {
                client.get(c.machine(m), key);
            }
            Scenarios.assertLinearizable("DELETE CAS reply lost", SEED, history.drain());
        }
    }

    /**
     * A PUT whose CAS took effect but whose reply was lost, and whose home then refuses the second CAS too: the PUT
     * is handed to the host's settling thread and answered only once the home answers again (acknowledged: its CAS
     * took effect). A second PUT, whose first CAS never reached the home, is settled as lost when a migration moved
     * the value meanwhile, and refused retryably: it did not take effect.
     */
    @Test
    void anUpdateWhoseHomeStopsAnsweringMidCasIsAnsweredOnceItIsSettled() throws Exception {
        FaultFabric fabric = Scenarios.fabric(3, SEED);
        History history = new History();
        RecordingClient client = new RecordingClient(history.recorder(1));
        try (EmbeddedCluster c = cluster(fabric)) {
            long key = valueOnHost(c, client);
            MachineStore host = c.machine(HOST).store();

            FaultRule lostReply = homeWordCas(fabric).times(1)
                .applyThenFail();
            FaultRule silent = homeWordCas(fabric).refuse();
            RecordingClient writer = new RecordingClient(history.recorder(2));
            CompletableFuture<Void> won = CompletableFuture.runAsync(
                () -> writer.put(c.machine(2), key, ChaosValues.put(key, 2, 1, 8)));
            Scenarios.awaitTrue(() -> host.uncertainUpdates().size() == 1, "the PUT is handed to the settling thread");
            assertEquals(1, lostReply.fired());
            assertTrue(!won.isDone(), "the PUT is not answered while its outcome is unknown");
            silent.remove();
            won.get(20, TimeUnit.SECONDS);
            Scenarios.awaitTrue(() -> host.uncertainUpdates().size() == 0, "the settled PUT leaves the list");
            for (int m = 0; m < 3; m++) {
                client.get(c.machine(m), key);
            }

            FaultRule neverArrived = homeWordCas(fabric).times(1)
                .drop();
            silent = homeWordCas(fabric).refuse();
            CompletableFuture<Void> lost = c.machine(2).store().update(key, io.pragh.store.Mutators.SET,
                new org.agrona.concurrent.UnsafeBuffer(ChaosValues.put(key, 2, 2, 8)), 0, 16);
            Scenarios.awaitTrue(() -> host.uncertainUpdates().size() == 1, "the second PUT is handed over too");
            assertEquals(1, neverArrived.fired());
            // Machine 2 takes the value meanwhile (its CAS is not refused): the second PUT's CAS can never land now.
            assertEquals(Migrator.Outcome.MIGRATED, client.migrate(c.machine(2), key));
            silent.remove();
            ExecutionException refused = assertThrows(ExecutionException.class, () -> lost.get(20, TimeUnit.SECONDS));
            assertInstanceOf(HostUnavailableException.class, refused.getCause(), "refused retryably: not taken effect");
            // The settling pass answers each update before it adds the pass's count to settled().
            Scenarios.awaitTrue(() -> host.uncertainUpdates().settled() == 2, "both PUTs counted as settled");
            for (int m = 0; m < 3; m++) {
                client.get(c.machine(m), key);
                client.put(c.machine(m), key, ChaosValues.put(key, 1, 10 + m, 8));
            }
            Scenarios.assertLinearizable("PUTs whose home stopped answering mid-CAS", SEED, history.drain());
        }
    }
}
