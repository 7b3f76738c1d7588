package io.pragh.reclaim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.embedded.EmbeddedCluster;
import io.pragh.embedded.Machine;
import io.pragh.keys.KeyLayout;
import io.pragh.store.StoreConfig;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Superseded records wait out the reclaim lease, so a fast writer fills the value region with garbage: the store
 * must slow the writer down to the rate at which garbage is freed, never fail it, and never report failed an update
 * whose CAS won because the GC could not take the old record.
 */
class BackPressureTest {
    private static EmbeddedCluster.Builder oneMachine(long valueBytes) {
        return EmbeddedCluster.builder().machines(1).workersPerMachine(1).keysPerMachine(100)
            .valueBytesPerMachine(valueBytes).cacheBytes(1 << 16).remoteLatencyNs(0);
    }

    /**
     * The test drives the GC: it frees garbage only when it sees a writer waiting for it, so the region must fill
     * (the writes make six times its size of garbage) and every write must wait its turn and succeed, however fast or
     * slow the machine.
     */
    @Test
    void writersThatFillTheRegionWithGarbageWaitForTheReclaimerAndAllSucceed() throws Exception {
        // 256 KiB hold about 60 records of 4 KiB; 400 overwrites make about 1.6 MiB of garbage.
        try (EmbeddedCluster c = oneMachine(256 << 10).leases(60_000, 60_000).build()) {
            Machine m = c.machine(0);
            Reclaimer gc = m.store().reclaimer();
            gc.close();
            long[] keys = new long[4];
            for (int k = 0; k < keys.length; k++) {
                keys[k] = KeyLayout.key(10 + k, 0, KeyLayout.VERTEX);
            }
            CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
                byte[] value = new byte[4000];
                for (int i = 0; i < 400; i++) {
                    Arrays.fill(value, (byte) i);
                    m.put(keys[i % keys.length], value); // throws if any write failed
                }
            });
            long served = 0;
            long freed = 0;
            while (!writer.isDone()) {
                long waits = m.store().values().backPressureWaits();
                if (waits > served) {
                    served = waits;
                    // A writer is waiting: free everything retired so far, as if the lease had passed.
                    freed += gc.drainOnce(System.nanoTime() + TimeUnit.SECONDS.toNanos(61));
                }
                Thread.sleep(1);
            }
            writer.get();
            for (int k = 0; k < keys.length; k++) {
                byte[] expected = new byte[4000];
                Arrays.fill(expected, (byte) (396 + k));
                assertArrayEquals(expected, m.get(keys[k]), "the last write of key " + k + " is readable");
            }
            assertTrue(served > 0, "no write ever waited, yet the region holds a sixth of the garbage");
            assertTrue(freed > 0, "nothing was freed, so the writers cannot have got memory back");
            System.out.println("BackPressureTest: " + served + " writes waited for the reclaimer, " + freed
                + " records freed");
        }
    }

    @Test
    void anUpdateWhoseCasWonIsAcknowledgedEvenWhileItsGcCannotTakeTheOldRecord() throws Exception {
        // The smallest rings and a GC thread that has stopped: before, the 17th overwrite waited 5 s for a ring slot
        // after its CAS had won and then reported failure (and was never logged) although its value was in place.
        try (EmbeddedCluster c = oneMachine(1 << 20)
                .config(StoreConfig.defaults().withKeys(100).withValueBytes(1 << 20).withCacheBytes(1 << 16)
                    .withReclaimRingSlots(16)).build()) {
            Machine m = c.machine(0);
            m.store().reclaimer().close();
            long key = KeyLayout.key(3, 0, KeyLayout.VERTEX);
            for (int i = 0; i < 64; i++) {
                m.put(key, new byte[] {(byte) i});
            }
            assertArrayEquals(new byte[] {63}, m.get(key));
            assertEquals(0, m.store().reclaimRings().leaked(), "no old record was given up on");
        }
    }
}
