package io.pragh.fabric.tcp;

import io.pragh.fabric.MachineMemory;
import io.pragh.memory.ChunkedRegion;

/** Small registered memories for fabric tests, freed together. */
final class TestMemory {
    static final int CHUNK = 4096;
    static final long REGION_BYTES = 2L * CHUNK;

    private TestMemory() {
    }

    static MachineMemory[] allocate(int machines) {
        MachineMemory[] m = new MachineMemory[machines];
        for (int i = 0; i < machines; i++) {
            m[i] = allocateOne(i);
        }
        return m;
    }

    static MachineMemory allocateOne(int machine) {
        return new MachineMemory(ChunkedRegion.allocate("keys-" + machine, REGION_BYTES, CHUNK),
            ChunkedRegion.allocate("values-" + machine, REGION_BYTES, CHUNK),
            ChunkedRegion.allocate("reclaim-" + machine, REGION_BYTES, CHUNK));
    }

    static void free(MachineMemory... memories) {
        for (MachineMemory m : memories) {
            if (m != null) {
                m.keys().close();
                m.values().close();
                m.reclaim().close();
            }
        }
    }
}
