package io.pragh.reclaim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.embedded.EmbeddedCluster;
import io.pragh.embedded.Machine;
import io.pragh.keys.KeyLayout;
import io.pragh.store.MachineStore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ReclaimTest {
    private static void awaitTrue(java.util.function.BooleanSupplier condition, String what) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting until " + what);
            }
            Thread.sleep(5);
        }
    }

    @Test
    void overwrittenAndMigratedRecordsAreFreedAfterTheReclaimLease() throws Exception {
        try (EmbeddedCluster c = EmbeddedCluster.builder().machines(2).workersPerMachine(1).keysPerMachine(100)
                .valueBytesPerMachine(1 << 20).cacheBytes(1 << 16).remoteLatencyNs(0).leases(20, 50).build()) {
            long key = KeyLayout.key(3, 0, KeyLayout.VERTEX);
            Machine home = c.homeOf(key);
            Machine other = c.machine(1 - home.id());
            for (int i = 0; i < 200; i++) {
                other.put(key, new byte[100 + i % 3]);
            }
            other.migrate(key);
            home.migrate(key);
            MachineStore hs = home.store();
            awaitTrue(() -> hs.reclaimer().freed() >= 200, "200 old records of the home are freed");
            awaitTrue(() -> other.store().reclaimer().freed() >= 1, "the migrated copy on the other machine is freed");
            assertEquals(0, hs.reclaimer().pending());
            assertTrue(hs.values().liveBytes() <= 2 * 144, "only the live record remains: " + hs.values().liveBytes());
            assertEquals(0, other.store().values().liveBytes());
            assertArrayEquals(new byte[101], other.get(key));
        }
    }

    @Test
    void nothingIsFreedBeforeTheLease() throws Exception {
        try (EmbeddedCluster c = EmbeddedCluster.builder().machines(1).workersPerMachine(1).keysPerMachine(100)
                .valueBytesPerMachine(1 << 20).cacheBytes(1 << 16).remoteLatencyNs(0).leases(60_000, 60_000)
                .build()) {
            long key = KeyLayout.key(3, 0, KeyLayout.VERTEX);
            for (int i = 0; i < 10; i++) {
                c.machine(0).put(key, new byte[8]);
            }
            Reclaimer gc = c.machine(0).store().reclaimer();
            awaitTrue(() -> gc.pending() == 9, "the GC took all 9 old records from the ring");
            assertEquals(0, gc.drainOnce(System.nanoTime()));
            assertEquals(9, gc.drainOnce(System.nanoTime() + TimeUnit.SECONDS.toNanos(61)));
        }
    }

    /**
     * The lease of a ring entry runs from when the GC thread saw it, not from the start of the pass that took it: a
     * pass that began before the entry was posted (a GC thread stalled mid-pass) must not backdate it, or the record
     * could be freed while a reader that read its address after the pass began still relies on it.
     */
    @Test
    void aRecordsLeaseStartsWhenTheGcSawItNotWhenItsPassBegan() throws Exception {
        try (EmbeddedCluster c = EmbeddedCluster.builder().machines(2).workersPerMachine(1).keysPerMachine(100)
                .valueBytesPerMachine(1 << 20).cacheBytes(1 << 16).remoteLatencyNs(0).leases(60_000, 60_000)
                .build()) {
            long key = KeyLayout.key(3, 0, KeyLayout.VERTEX);
            Machine home = c.homeOf(key);
            Machine other = c.machine(1 - home.id());
            Reclaimer gc = home.store().reclaimer();
            gc.close(); // the test drives the passes
            long lease = TimeUnit.SECONDS.toNanos(60);
            long passBegan = System.nanoTime();
            home.put(key, new byte[8]);
            home.put(key, new byte[16]); // retires the first record on the home itself
            other.migrate(key);          // the other machine posts the second one to its ring on the home
            assertEquals(0, gc.drainOnce(passBegan), "nothing is due at the start of the pass");
            assertEquals(2, gc.pending(), "the pass took the retired record and the ring entry");
            assertEquals(0, gc.drainOnce(passBegan + lease),
                "a lease counted from the pass's start would free both records here, before their lease has passed");
            assertEquals(2, gc.drainOnce(System.nanoTime() + lease));
        }
    }

    /**
     * The reclaim lease bounds one copy of a record, not the life of a cached address (generations catch reuse behind
     * an old address), so it may be shorter than the cache lease; it must be positive.
     */
    @Test
    void aReclaimLeaseShorterThanTheCacheLeaseIsAllowedButNotAnEmptyOne() {
        Leases leases = new Leases(5_000, 50);
        assertEquals(5_050, leases.addressMillis());
        assertTrue(Leases.DEFAULT.reclaimMillis() < Leases.DEFAULT.cacheMillis());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new Leases(100, 0));
        assertTrue(e.getMessage().contains("reclaim lease"), e.getMessage());
    }
}
