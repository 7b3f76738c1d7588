package io.pragh.consistency;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.pragh.chaos.ChaosValues;
import io.pragh.chaos.RecordingClient;
import io.pragh.embedded.EmbeddedCluster;
import io.pragh.fabric.fault.FaultFabric;
import io.pragh.fabric.fault.FaultRule;
import io.pragh.linearizability.History;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Found by the soak with restarts (issue 11): an update becomes visible before it is durable at its key's home, and
 * a restart then takes back a value that reads had already observed. An update of a migrated value is applied on the
 * value's host (its CAS of the home's address word publishes it at once) and only then sent to the home in a LOG
 * message, whose write-ahead log makes it durable and acknowledges it. When that message is lost (a partition refuses
 * it), the update is never acknowledged, yet every GET reads it; after a restart, recovery replays the home's log,
 * which never held it, and the value is gone. For an APPEND the loss is plainer still: later appends, logged as
 * deltas, survive around the missing one. A GET's observation must be permanent: an update nobody has made durable
 * must not be readable. So a durable update's new record stays pending (GETs wait for it) until the home's log has
 * it, and its host sends the LOG again until the home acknowledges it.
 *
 * <p>Each scenario runs on a durable three-machine cluster (home 0, host 1, clients on machine 2), drops exactly the
 * one LOG message from the host to the home, restarts the whole cluster on its directories, and checks the history
 * across both lives by search.
 */
class LostLogRecordRestartTest {
    private static final long SEED = 11;
    private static final int HOME = 0;
    private static final int HOST = 1;
    private static final int CLIENT = 2;
    /** The update's origin gives up on its acknowledgement after this long: the LOG that would bring it is lost. */
    private static final long TIMEOUT_MILLIS = 2_000;

    private static EmbeddedCluster open(FaultFabric fabric, Path dir) {
        return Scenarios.durableCluster(fabric, 3, dir, TIMEOUT_MILLIS);
    }

    /** Drops the next LOG message from the host to the home. */
    private static FaultRule dropLog(FaultFabric fabric) {
        // Nothing else travels from the host to the home meanwhile (acknowledgements go to the client's machine).
        return fabric.when().messages().from(HOST).to(HOME).times(1).drop();
    }

    /**
     * Runs an update whose LOG is dropped once: without its LOG sent again it is never acknowledged (the client's
     * timeout ends it, its outcome unknown to the checker); sent again, it may be acknowledged late. Both are fine.
     */
    private static void unacknowledgedOrLate(Runnable update) {
        try {
            update.run();
        } catch (RuntimeException unacknowledged) {
            System.out.println("LostLogRecordRestartTest: the update whose LOG was dropped: " + unacknowledged);
        }
    }

    /** What a scenario does to its key, on the cluster's first life. */
    private interface BeforeRestart {
        void run(EmbeddedCluster c, FaultFabric fabric, RecordingClient client, long key);
    }

    /**
     * Writes a key at its home, migrates its value to the host, runs {@code steps}, builds the cluster again on
     * {@code dir} as a restart does, reads the key through every machine, and checks the history across both lives.
     */
    private static void runThenRestart(Path dir, String scenario, BeforeRestart steps) {
        History history = new History();
        RecordingClient client = new RecordingClient(history.recorder(1));
        FaultFabric fabric = Scenarios.fabric(3, SEED);
        long key;
        try (EmbeddedCluster c = open(fabric, dir)) {
            key = Scenarios.keyMigratedTo(c, client, HOME, HOST);
            steps.run(c, fabric, client, key);
        }
        try (EmbeddedCluster c = open(Scenarios.fabric(3, SEED), dir)) {
            for (int m = 0; m < 3; m++) {
                client.get(c.machine(m), key);
            }
        }
        Scenarios.assertLinearizable(scenario, SEED, history.drain());
    }

    @Test
    void aPutReadBeforeItsLogRecordWasLostSurvivesARestart(@TempDir Path dir) {
        runThenRestart(dir, "PUT read, its LOG lost, restart", (c, fabric, client, key) -> {
            byte[] second = ChaosValues.put(key, 1, 2, 8);
            FaultRule lostLog = dropLog(fabric);
            unacknowledgedOrLate(() -> client.put(c.machine(CLIENT), key, second));
            assertEquals(1, lostLog.fired());
            assertArrayEquals(second, client.get(c.machine(CLIENT), key), "the PUT is readable");
        });
    }

    @Test
    void anAppendReadBeforeItsLogRecordWasLostSurvivesARestartWithTheAppendsAfterIt(@TempDir Path dir) {
        runThenRestart(dir, "APPEND read, its LOG lost, later APPEND, restart", (c, fabric, client, key) -> {
            byte[] lost = ChaosValues.append(1, 2);
            FaultRule lostLog = dropLog(fabric);
            unacknowledgedOrLate(() -> client.append(c.machine(CLIENT), key, lost));
            assertEquals(1, lostLog.fired());
            byte[] read = client.get(c.machine(CLIENT), key);
            assertArrayEquals(lost, Arrays.copyOfRange(read, read.length - lost.length, read.length),
                "the APPEND is readable");
            client.append(c.machine(CLIENT), key, ChaosValues.append(1, 3));
            client.get(c.machine(CLIENT), key);
        });
    }

    /**
     * The DELETE side: a DELETE installs a tombstone in the home's word by CAS, so a GET that trusted the tombstone
     * would read the key absent before the home's log has the DELETE. The record it removed stays valid and pending
     * until then, and a GET that finds the tombstone waits for its invalidation. Both host-to-home messages that
     * could make the DELETE durable first are dropped (before the fix: its PRUNE and its only LOG; after: its LOG
     * and the first resend), so the GET runs while the home's log lacks it.
     */
    @Test
    void aDeleteReadBeforeItsLogRecordWasLostSurvivesARestart(@TempDir Path dir) {
        runThenRestart(dir, "DELETE read, its LOG lost, restart", (c, fabric, client, key) -> {
            FaultRule lostLog = fabric.when().messages().from(HOST).to(HOME).times(2).drop();
            unacknowledgedOrLate(() -> client.delete(c.machine(CLIENT), key));
            assertNull(client.get(c.machine(CLIENT), key), "the DELETE is observed");
            assertEquals(2, lostLog.fired(), "both messages were dropped");
        });
    }
    /**
     * A LOG whose first send is refused outright (the home cut off for a moment), not lost on the way: the update took
     * effect and its record is pending, so the host must still send the LOG again; before it did, the send's error
     * ended the update, the record stayed pending for good and the key could never be read again.
     */
    @Test
    void aPutWhoseLogIsRefusedOnceIsLoggedAndReadable(@TempDir Path dir) {
        runThenRestart(dir, "PUT, its first LOG refused, restart", (c, fabric, client, key) -> {
            byte[] second = ChaosValues.put(key, 1, 2, 8);
            FaultRule refused = fabric.when().messages().from(HOST).to(HOME).times(1).refuse();
            unacknowledgedOrLate(() -> client.put(c.machine(CLIENT), key, second));
            assertEquals(1, refused.fired());
            assertArrayEquals(second, client.get(c.machine(CLIENT), key), "the PUT is logged, settled and readable");
        });
    }

    /** The same for a DELETE, whose removed record stays pending (and the key unreadable) until its LOG is in. */
    @Test
    void aDeleteWhoseLogIsRefusedOnceIsLoggedAndObservable(@TempDir Path dir) {
        runThenRestart(dir, "DELETE, its first LOG refused, restart", (c, fabric, client, key) -> {
            FaultRule refused = fabric.when().messages().from(HOST).to(HOME).times(1).refuse();
            unacknowledgedOrLate(() -> client.delete(c.machine(CLIENT), key));
            assertEquals(1, refused.fired());
            assertNull(client.get(c.machine(CLIENT), key), "the DELETE is logged and observed");
        });
    }
}
