package io.pragh.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.agrona.UnsafeAccess;
import org.junit.jupiter.api.Test;

class ChunkedRegionTest {
    private static final int BYTES = 64 << 10;

    /**
     * Memory malloc hands back from a freed block holds the old bytes: the region must still start all zero, the
     * words a page holds past its first non-zero one included.
     */
    @Test
    void clearsRecycledMemoryWordByWord() {
        long raw = UnsafeAccess.UNSAFE.allocateMemory(BYTES);
        try {
            UnsafeAccess.UNSAFE.setMemory(raw, BYTES, (byte) 0);
            UnsafeAccess.UNSAFE.putLong(raw + 4096 + 8 * 7, -1L);        // one word in the second page
            UnsafeAccess.UNSAFE.setMemory(raw + 3 * 4096 + 2048, 4096, (byte) 0x5A); // across a page boundary
            UnsafeAccess.UNSAFE.putLong(raw + BYTES - 8, 42L);          // the last word
            ChunkedRegion.clearUntouched(raw, BYTES);
            for (long w = 0; w < BYTES; w += 8) {
                assertEquals(0L, UnsafeAccess.UNSAFE.getLong(raw + w), "word at byte " + w);
            }
        } finally {
            UnsafeAccess.UNSAFE.freeMemory(raw);
        }
    }

    @Test
    void everyNewRegionReadsAsZeroAfterAnotherWasFilledAndFreed() {
        for (int round = 0; round < 8; round++) {
            try (ChunkedRegion r = ChunkedRegion.allocate("test", BYTES, 1 << 20)) {
                for (long w = 0; w < r.capacity(); w += 8) {
                    assertEquals(0L, r.getLong(w), "round " + round + ", word at byte " + w);
                    r.putLong(w, ~w);
                }
            }
        }
    }

    @Test
    void pretouchKeepsEveryByte() {
        try (ChunkedRegion r = ChunkedRegion.allocate("test", 4 * BYTES, BYTES)) {
            for (long w = 0; w < r.capacity(); w += 8) {
                r.putLong(w, w * 31 + 7);
            }
            r.pretouch();
            for (long w = 0; w < r.capacity(); w += 8) {
                assertEquals(w * 31 + 7, r.getLong(w), "word at byte " + w);
            }
        }
    }
}
