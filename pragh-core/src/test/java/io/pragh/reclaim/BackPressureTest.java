package io.pragh.reclaim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.cluster.EmbeddedCluster;
import io.pragh.cluster.Machine;
import io.pragh.keys.KeyLayout;
import io.pragh.store.StoreConfig;
import java.util.Arrays;
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

    @Test
    void writersThatFillTheRegionWithGarbageWaitForTheReclaimerAndAllSucceed() throws Exception {
        // 256 KiB hold about 60 records of 4 KiB; 400 overwrites make about 1.6 MiB of garbage, freed 300 ms later.
        try (EmbeddedCluster c = oneMachine(256 << 10).leases(100, 300).build()) {
            Machine m = c.machine(0);
            long[] keys = new long[4];
            for (int k = 0; k < keys.length; k++) {
                keys[k] = KeyLayout.key(10 + k, 0, KeyLayout.VERTEX);
            }
            byte[] value = new byte[4000];
            for (int i = 0; i < 400; i++) {
                Arrays.fill(value, (byte) i);
                m.put(keys[i % keys.length], value); // throws if any write failed
            }
            for (int k = 0; k < keys.length; k++) {
                byte[] expected = new byte[4000];
                Arrays.fill(expected, (byte) (396 + k));
                assertArrayEquals(expected, m.get(keys[k]), "the last write of key " + k + " is readable");
            }
            assertTrue(m.store().values().backPressureWaits() > 0,
                "the region never filled, so this proved nothing about back-pressure");
            assertTrue(m.store().reclaimer().freed() >= 400 - 60 - keys.length, "the GC freed the garbage");
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
