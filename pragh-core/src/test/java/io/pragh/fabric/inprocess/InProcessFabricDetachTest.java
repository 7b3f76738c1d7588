package io.pragh.fabric.inprocess;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.fabric.Endpoint;
import io.pragh.fabric.FabricException;
import io.pragh.fabric.MachineMemory;
import io.pragh.fabric.Region;
import io.pragh.memory.ChunkedRegion;
import java.util.ArrayList;
import java.util.List;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/**
 * A machine detached from the in-process fabric is unreachable (retryably) until a machine with new memory attaches
 * under its id, which then serves one-sided operations on that new memory: what a memory node's restart relies on.
 */
class InProcessFabricDetachTest {
    private static final int CHUNK = 4096;
    private final List<MachineMemory> memories = new ArrayList<>();

    private MachineMemory memory() {
        MachineMemory m = new MachineMemory(ChunkedRegion.allocate("k", CHUNK, CHUNK),
            ChunkedRegion.allocate("v", CHUNK, CHUNK), ChunkedRegion.allocate("r", CHUNK, CHUNK));
        memories.add(m);
        return m;
    }

    @Test
    void aDetachedMachineIsUnreachableUntilANewOneAttachesUnderItsId() {
        try (InProcessFabric fabric = new InProcessFabric(2, 0)) {
            Endpoint e0 = fabric.attach(0, memory(), (a, b, c, d) -> { });
            MachineMemory old = memory();
            fabric.attach(1, old, (a, b, c, d) -> { });
            old.values().putLong(0, 11);
            UnsafeBuffer dst = new UnsafeBuffer(new byte[8]);
            e0.read(1, Region.VALUES, 0, dst, 0, 8);
            assertEquals(11, dst.getLong(0));

            assertTrue(fabric.detach(1), "the delivery thread ended");
            FabricException gone = assertThrows(FabricException.class, () -> e0.read(1, Region.VALUES, 0, dst, 0, 8));
            assertTrue(gone.retryable(), "a detached machine may come back: " + gone.getMessage());
            assertThrows(IllegalStateException.class, () -> fabric.detach(1), "detached twice");

            MachineMemory fresh = memory();
            fresh.values().putLong(0, 22);
            fabric.attach(1, fresh, (a, b, c, d) -> { });
            e0.read(1, Region.VALUES, 0, dst, 0, 8);
            assertEquals(22, dst.getLong(0), "the new machine's memory answers");
        } finally {
            for (MachineMemory m : memories) {
                m.keys().close();
                m.values().close();
                m.reclaim().close();
            }
        }
    }
}
