package io.pragh.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.keys.KeyLayout;
import io.pragh.keys.KeyRegion;
import io.pragh.memory.ChunkedRegion;
import io.pragh.values.ValueRecord;
import org.junit.jupiter.api.Test;

class OffHeapUseTest {
    @Test
    void countsReservedRegionsKeysValuesAndGarbage() {
        long before = ChunkedRegion.liveBytes();
        try (EmbeddedCluster c = EmbeddedCluster.builder().machines(2).workersPerMachine(1).remoteLatencyNs(0)
            .valueBytesPerMachine(4 << 20).keysPerMachine(4096).cacheBytes(64 << 10)
            .leases(1_000, 3_600_000).build()) { // garbage stays garbage for the test, however slow the machine
            OffHeapUse empty = c.offHeapUse();
            assertEquals(0, empty.usedBytes());
            // Reserved: every region of both machines, which is what this JVM allocated for them.
            assertTrue(empty.reservedBytes() > 2 * (4 << 20), empty.toString());
            assertTrue(empty.reservedBytes() <= ChunkedRegion.liveBytes() - before, empty.toString());

            for (int i = 0; i < 10; i++) {
                long key = KeyLayout.key(i, 0, KeyLayout.VERTEX);
                c.homeOf(key).put(key, new byte[100]);
            }
            OffHeapUse ten = c.offHeapUse();
            assertEquals(10L * KeyRegion.SLOT_BYTES, ten.keyBytes());
            assertEquals(10L * (ValueRecord.unitsFor(100) << 3), ten.valueBytes() + ten.garbageBytes(),
                "ten records of 100 bytes (no size class rounds 100-byte records up further here)");
            assertEquals(ten, c.machine(0).offHeapUse().plus(c.machine(1).offHeapUse()));

            long key = KeyLayout.key(0, 0, KeyLayout.VERTEX);
            c.homeOf(key).put(key, new byte[100]); // the old record is garbage until its reclaim lease has passed
            OffHeapUse replaced = c.offHeapUse();
            assertEquals(ValueRecord.unitsFor(100) << 3, replaced.garbageBytes());
            assertEquals(ten.valueBytes() + ten.garbageBytes() + (ValueRecord.unitsFor(100) << 3),
                replaced.valueBytes() + replaced.garbageBytes());
            assertEquals(ten.keyBytes(), replaced.keyBytes());
        }
    }
}
