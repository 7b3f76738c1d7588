package io.pragh.consistency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.chaos.ChaosValues;
import io.pragh.chaos.RecordingClient;
import io.pragh.cluster.EmbeddedCluster;
import io.pragh.fabric.Region;
import io.pragh.fabric.fault.FaultFabric;
import io.pragh.fabric.fault.FaultRule;
import io.pragh.linearizability.History;
import io.pragh.migration.Migrator;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Found by the soak's lost CAS replies, beyond the three bugs issue 11 names: a PUT of a migrated value CASes the
 * home's address word one-sidedly; when that CAS takes effect but its reply is lost (a connection that breaks after
 * the home applied it, which TCP and verbs can both do), the update protocol treats the CAS as not done and refuses
 * the PUT retryably, leaving the record it published with its invalidation-pending bit set and the record it replaced
 * never invalidated. The key then can never be updated or migrated again (both wait for the bit), and the old record
 * stays readable through cached addresses. A client retrying the PUT, as a retryable refusal invites, must get it
 * acknowledged; afterwards every machine must read it and the history must be linearizable.
 */
class LostPutCasReplyTest {
    private static final long SEED = 5;
    private static final int HOME = 0;
    private static final int HOST = 1;

    @Test
    void aPutWhoseCasReplyWasLostCanBeRetriedAndTheKeyStaysUpdatable() throws Exception {
        FaultFabric fabric = Scenarios.fabric(3, SEED);
        History history = new History();
        RecordingClient client = new RecordingClient(history.recorder(1));
        List<String> failures = new ArrayList<>();
        try (EmbeddedCluster c = Scenarios.cluster(fabric, 3, 10, 20, 0).operationTimeoutMillis(20_000).build()) {
            long key = Scenarios.keyHomedAt(c, HOME, 1);
            client.put(c.machine(HOME), key, ChaosValues.put(key, 1, 1, 8));
            assertEquals(Migrator.Outcome.MIGRATED, client.migrate(c.machine(HOST), key));

            FaultRule lostReply = fabric.when().cas().single().from(HOST).to(HOME).region(Region.KEYS).times(1)
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
}
