package io.pragh.consistency;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;

import io.pragh.chaos.ChaosValues;
import io.pragh.chaos.RecordingClient;
import io.pragh.embedded.EmbeddedCluster;
import io.pragh.fabric.fault.FaultFabric;
import io.pragh.fabric.fault.HoldRule;
import io.pragh.linearizability.History;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Found by ChaosHistoryTest's restarts case on a quiet machine: a durable DELETE of a migrated value is finished by
 * its LOG, which the host sends to the key's home; an insert of the key forwarded to the home meanwhile found the
 * tombstone and waited for that DELETE on the home's message delivery thread, the very thread that would take in
 * the LOG. The home delivered nothing for the insert's whole patience (5 s): the insert failed, the DELETE and every
 * update behind it waited, and their clients timed out. The insert must go aside to wait, and both must succeed.
 *
 * <p>Durable three-machine cluster: home 0, the value migrated to host 1, the client on machine 2. The DELETE's LOG
 * is held until the insert has reached the home.
 */
class InsertBehindUnloggedDeleteTest {
    private static final long SEED = 11;
    private static final int HOME = 0;
    private static final int HOST = 1;
    private static final int CLIENT = 2;

    @Test
    void anInsertArrivingWhileTheDeleteBeforeItAwaitsItsLogWaitsAsideAndBothSucceed(@TempDir Path dir)
        throws Exception {
        History history = new History();
        RecordingClient client = new RecordingClient(history.recorder(1));
        RecordingClient deleter = new RecordingClient(history.recorder(2));
        RecordingClient inserter = new RecordingClient(history.recorder(3));
        FaultFabric fabric = Scenarios.fabric(3, SEED);
        // Operation timeout well above the 5 s an insert used to hold the home's delivery thread.
        try (EmbeddedCluster c = Scenarios.durableCluster(fabric, 3, dir, 20_000)) {
            long key = Scenarios.keyMigratedTo(c, client, HOME, HOST);
            HoldRule log = fabric.when().messages().from(HOST).to(HOME).times(1).hold();
            CompletableFuture<Void> delete = CompletableFuture.runAsync(() -> deleter.delete(c.machine(CLIENT), key));
            Scenarios.awaitTrue(() -> log.everHeld() == 1, "the DELETE's LOG is held on its way to the home");

            byte[] reinserted = ChaosValues.put(key, 1, 2, 8);
            CompletableFuture<Void> put = CompletableFuture.runAsync(
                () -> inserter.put(c.machine(CLIENT), key, reinserted));
            Scenarios.awaitTrue(() -> c.machine(HOME).store().deferredUpdates().deferred() >= 1,
                "the insert reached the home and found the DELETE unfinished");
            log.release();

            assertDoesNotThrow(() -> delete.get(30, TimeUnit.SECONDS), "the DELETE is acknowledged");
            assertDoesNotThrow(() -> put.get(30, TimeUnit.SECONDS), "the insert after it is acknowledged");
            for (int m = 0; m < 3; m++) {
                assertArrayEquals(reinserted, client.get(c.machine(m), key), "machine " + m + " reads the insert");
            }
        }
        Scenarios.assertLinearizable("insert behind an unlogged DELETE", SEED, history.drain());
    }
}
