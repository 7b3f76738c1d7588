package io.pragh.consistency;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.chaos.ChaosValues;
import io.pragh.chaos.RecordingClient;
import io.pragh.embedded.EmbeddedCluster;
import io.pragh.fabric.Region;
import io.pragh.fabric.fault.FaultFabric;
import io.pragh.fabric.fault.HoldRule;
import io.pragh.linearizability.History;
import io.pragh.migration.Migrator;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/**
 * GET is linearizable per key: once a GET returned a PUT's value, no GET that starts later returns an older one. A
 * PUT of a migrated value is frozen right after its CAS on the home's address word took effect (the CAS's reply is
 * held), so the record it replaced is still valid on its host. A GET at the home then finds the new record, flagged
 * invalidation-pending; a machine whose location cache still names the old record reads that one. Before GET waited
 * for the flag, the home's GET returned the new value and the cached reader, starting after it, the old one.
 */
class HeldInvalidationLinearizableGetTest {
    private static final long SEED = 11;
    private static final int HOME = 0;
    private static final int HOST = 1;
    private static final int CACHED_READER = 2;
    private static final int WRITER = 3;

    @Test
    void aGetStartedAfterAGetOfTheNewValueNeverReturnsTheOldOneWhileTheInvalidationIsHeld() throws Exception {
        FaultFabric fabric = Scenarios.fabric(4, SEED);
        History history = new History();
        RecordingClient main = new RecordingClient(history.recorder(1));
        RecordingClient writer = new RecordingClient(history.recorder(2));
        RecordingClient homeReader = new RecordingClient(history.recorder(3));
        try (EmbeddedCluster c = Scenarios.cluster(fabric, 4, 5_000, 10_000, 0).build()) {
            long key = Scenarios.keyHomedAt(c, HOME, 1);
            byte[] v1 = ChaosValues.put(key, 1, 1, 8);
            byte[] v2 = ChaosValues.put(key, 2, 1, 8);
            main.put(c.machine(HOME), key, v1);
            assertEquals(Migrator.Outcome.MIGRATED, main.migrate(c.machine(HOST), key));
            assertArrayEquals(v1, main.get(c.machine(CACHED_READER), key), "fills the reader's location cache");

            HoldRule frozenAfterCas = fabric.when().cas().single().from(HOST).to(HOME).region(Region.KEYS).times(1)
                .holdReply();
            CompletableFuture<Void> put = CompletableFuture.runAsync(() -> writer.put(c.machine(WRITER), key, v2));
            assertTrue(frozenAfterCas.awaitHeld(1, 20, TimeUnit.SECONDS), "the PUT's CAS never reached the home");
            CompletableFuture<byte[]> newer = CompletableFuture.supplyAsync(
                () -> homeReader.get(c.machine(HOME), key));
            try {
                // Without the wait this GET returns the new value at once; with it, it cannot before the release.
                newer.get(1, TimeUnit.SECONDS);
            } catch (TimeoutException waitingForTheInvalidation) {
                // Expected with linearizable GETs.
            }
            boolean newerReturnedFirst = newer.isDone();
            byte[] later = main.get(c.machine(CACHED_READER), key);
            frozenAfterCas.release();
            put.get(20, TimeUnit.SECONDS);
            assertArrayEquals(v2, newer.get(20, TimeUnit.SECONDS), "the home's GET reads the PUT's value");
            assertTrue(c.machine(HOME).store().settleWaits() > 0, "the home's GET waited for the pending record:"
                + " counted (MachineStore.settleWaits, the traversal benchmark's count of GETs that waited)");
            for (int m = 0; m < 4; m++) {
                assertArrayEquals(v2, main.get(c.machine(m), key), "machine " + m + " reads the PUT's value");
            }
            System.out.println("HeldInvalidationLinearizableGetTest: the home's GET " + (newerReturnedFirst
                ? "returned before" : "was still waiting when") + " the cached reader read "
                + (java.util.Arrays.equals(later, v1) ? "the old value" : "the new value"));
            Scenarios.assertLinearizable("GET during a held invalidation", SEED, history.drain());
        }
    }

    /**
     * The same for a DELETE: once a GET found the key absent, a later GET through a cached address must not find the
     * deleted record still valid. The delete flags the record before its CAS, so the cached reader waits; and a GET at
     * the home that finds the tombstone waits until the removed record is invalidated, so that no GET answers "absent"
     * while another can still read the value (on a durable cluster, while a restart could still bring it back).
     */
    @Test
    void aGetStartedAfterAGetOfTheDeletionNeverReturnsTheDeletedValueWhileItsInvalidationIsHeld() throws Exception {
        FaultFabric fabric = Scenarios.fabric(4, SEED);
        History history = new History();
        RecordingClient main = new RecordingClient(history.recorder(1));
        RecordingClient writer = new RecordingClient(history.recorder(2));
        RecordingClient homeReader = new RecordingClient(history.recorder(3));
        RecordingClient cachedReader = new RecordingClient(history.recorder(4));
        try (EmbeddedCluster c = Scenarios.cluster(fabric, 4, 5_000, 10_000, 0).build()) {
            long key = Scenarios.keyHomedAt(c, HOME, 1);
            byte[] v1 = ChaosValues.put(key, 1, 1, 8);
            main.put(c.machine(HOME), key, v1);
            assertEquals(Migrator.Outcome.MIGRATED, main.migrate(c.machine(HOST), key));
            assertArrayEquals(v1, main.get(c.machine(CACHED_READER), key), "fills the reader's location cache");

            HoldRule frozenAfterCas = fabric.when().cas().single().from(HOST).to(HOME).region(Region.KEYS).times(1)
                .holdReply();
            CompletableFuture<Void> delete = CompletableFuture.runAsync(() -> writer.delete(c.machine(WRITER), key));
            assertTrue(frozenAfterCas.awaitHeld(1, 20, TimeUnit.SECONDS), "the DELETE's CAS never reached the home");
            CompletableFuture<byte[]> atHome = CompletableFuture.supplyAsync(() -> homeReader.get(c.machine(HOME), key));
            CompletableFuture<byte[]> cached = CompletableFuture.supplyAsync(
                () -> cachedReader.get(c.machine(CACHED_READER), key));
            try {
                // Without the waits both return at once (absent at the home, the deleted value through the cache).
                CompletableFuture.anyOf(atHome, cached).get(1, TimeUnit.SECONDS);
            } catch (TimeoutException waitingForTheInvalidation) {
                // Expected with linearizable GETs.
            } catch (java.util.concurrent.ExecutionException gaveUp) {
                // A GET that waited out its patience on a very slow machine: retryable, and no answer.
            }
            boolean answeredWhileHeld = answered(atHome) || answered(cached);
            frozenAfterCas.release();
            delete.get(20, TimeUnit.SECONDS);
            assertFalse(answeredWhileHeld, "a GET answered while the DELETE's invalidation was held");
            for (CompletableFuture<byte[]> get : java.util.List.of(atHome, cached)) {
                if (!get.isCompletedExceptionally()) {
                    assertNull(get.get(20, TimeUnit.SECONDS), "a GET that waited reads the key absent");
                }
            }
            for (int m = 0; m < 4; m++) {
                assertNull(main.get(c.machine(m), key), "machine " + m + " reads the key absent");
            }
            Scenarios.assertLinearizable("GET during a held delete invalidation", SEED, history.drain());
        }
    }

    /** Whether a GET has returned a value (or absence): one that gave up, retryably, answered nothing. */
    private static boolean answered(CompletableFuture<byte[]> get) {
        return get.isDone() && !get.isCompletedExceptionally();
    }
}
