package io.pragh.consistency;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.address.Address;
import io.pragh.chaos.ChaosValues;
import io.pragh.chaos.RecordingClient;
import io.pragh.embedded.EmbeddedCluster;
import io.pragh.fabric.fault.FaultFabric;
import io.pragh.fabric.fault.FaultRule;
import io.pragh.fabric.fault.HoldRule;
import io.pragh.keys.KeyRegion;
import io.pragh.linearizability.History;
import io.pragh.values.ValueRecord;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Found by the durable soak under partitions (issue 11): keys left reading as "its DELETE not yet finished" for
 * good. A durable update's host sends its LOG to the key's home again until the home settles the new record (clears
 * its pending bit by a CAS from the pending header). When the first LOG is only late, not lost, the home settles the
 * record twice, the second time from that late LOG. A DELETE of the key in between sets the pending bit on the same
 * record (the one it removes) and waits for the home to log it and invalidate the record. The late settle used to
 * find exactly the header it expected and clear the DELETE's bit; a DELETE whose own settle had failed (the home cut
 * off from the host) then looked settled to its host, which stopped sending its LOG: the record stayed live behind a
 * tombstone, and the DELETE, every GET and every insert of the key waited forever.
 *
 * <p>Durable three-machine cluster: home 0, the value migrated to host 1, the client on machine 2. The PUT's first
 * LOG is held until after the DELETE; the DELETE's LOGs are held, then delivered while the home cannot reach the host.
 */
class LateLogAfterDurableDeleteTest {
    private static final long SEED = 13;
    private static final int HOME = 0;
    private static final int HOST = 1;
    private static final int CLIENT = 2;

    @Test
    void aLateRepeatOfThePreviousUpdatesLogLeavesTheDeletePendingUntilTheDeleteItselfIsSettled(@TempDir Path dir)
        throws Exception {
        History history = new History();
        RecordingClient client = new RecordingClient(history.recorder(1));
        RecordingClient deleter = new RecordingClient(history.recorder(2));
        FaultFabric fabric = Scenarios.fabric(3, SEED);
        try (EmbeddedCluster c = Scenarios.durableCluster(fabric, 3, dir, 30_000)) {
            long key = Scenarios.keyMigratedTo(c, client, HOME, HOST);

            // A PUT whose first LOG is held: its host sends the LOG again, and the repeat acknowledges it.
            HoldRule firstLog = fabric.when().messages().from(HOST).to(HOME).times(1).hold();
            client.put(c.machine(CLIENT), key, ChaosValues.put(key, 1, 2, 8));
            assertEquals(1, firstLog.everHeld(), "the PUT's first LOG is held");
            KeyRegion keys = c.machine(HOME).store().keys();
            long record = keys.address(keys.find(key));
            assertEquals(HOST, Address.host(record, HOME), "the PUT's record is on the host");
            LongSupplier header = () -> c.machine(HOST).store().values().region()
                .getLongVolatile(Address.byteOffset(record));
            assertTrue(!ValueRecord.isInvalidationPending(header.getAsLong()), "the PUT is settled");

            // The DELETE flags that record and sends its LOG, which is held (and so is every repeat of it).
            HoldRule deleteLogs = fabric.when().messages().from(HOST).to(HOME).hold();
            CompletableFuture<Void> delete = CompletableFuture.runAsync(() -> deleter.delete(c.machine(CLIENT), key));
            assertTrue(deleteLogs.awaitHeld(1, 20, TimeUnit.SECONDS), "the DELETE's LOG was never sent");
            assertTrue(ValueRecord.isInvalidationPending(header.getAsLong()), "the DELETE flags the record it removes");

            // The PUT's late first LOG reaches the home, which settles the record again.
            HoldRule lateSettle = fabric.when().cas().from(HOME).to(HOST).times(1).holdReply();
            firstLog.release();
            assertTrue(lateSettle.awaitHeld(1, 20, TimeUnit.SECONDS), "the late LOG's settle never reached the host");
            lateSettle.release();
            // The DELETE is not settled: its host must go on sending its LOG (it stopped when the late settle had
            // cleared the DELETE's flag).
            long held = deleteLogs.everHeld();
            assertTrue(deleteLogs.awaitHeld(held + 2, 20, TimeUnit.SECONDS),
                "the host stopped sending the LOG of a DELETE that is not settled (header "
                    + Long.toHexString(header.getAsLong()) + ")");
            assertTrue(ValueRecord.isInvalidationPending(header.getAsLong()),
                "the late settle of the PUT cleared the DELETE's flag");

            // Every LOG of the DELETE held so far reaches the home while it cannot reach the host: none settles it.
            FaultRule cutOff = fabric.when().reads().from(HOME).to(HOST).refuse();
            long sent = deleteLogs.everHeld();
            deleteLogs.remove();
            Scenarios.awaitTrue(() -> cutOff.fired() >= sent, "the home tried to settle each LOG of the DELETE");
            cutOff.remove();

            // A later repeat settles it: the DELETE is acknowledged, and the key is absent, then usable again.
            assertDoesNotThrow(() -> delete.get(30, TimeUnit.SECONDS), "the DELETE is acknowledged");
            for (int m = 0; m < 3; m++) {
                assertNull(client.get(c.machine(m), key), "machine " + m + " reads the key deleted");
            }
            byte[] reinserted = ChaosValues.put(key, 1, 3, 8);
            client.put(c.machine(CLIENT), key, reinserted);
            for (int m = 0; m < 3; m++) {
                assertArrayEquals(reinserted, client.get(c.machine(m), key), "machine " + m + " reads the insert");
            }
        }
        Scenarios.assertLinearizable("late LOG after a durable DELETE", SEED, history.drain());
    }
}
