package io.pragh.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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

    /**
     * Where the kernel offers transparent huge pages, a region that asks for them gets chunks aligned to a huge page
     * and a mapping the kernel marks eligible for them (smaps' THPeligible); where it does not, the region says so
     * and why. Either way it starts all zero, keeps every byte, and gives its reservation back on close.
     */
    @Test
    void aRegionOnHugePagesIsAlignedAndAdvisedWhereTheKernelOffersThemAndWorksTheSameEitherWay() throws IOException {
        long before = ChunkedRegion.liveBytes();
        int chunk = 2 * HugePages.BYTES;
        try (ChunkedRegion r = ChunkedRegion.allocate("huge", 2L * chunk, chunk, true)) {
            if (HugePages.available()) {
                assertTrue(r.hugePages(), "the kernel offers huge pages: the region took the advice");
                for (int i = 0; i < r.chunkCount(); i++) {
                    long address = r.chunk(i).addressOffset();
                    assertEquals(0, address % HugePages.BYTES, "chunk " + i + " starts on a huge page");
                    assertEquals(1, thpEligible(address), "chunk " + i + "'s mapping is eligible for huge pages");
                }
            } else {
                assertFalse(r.hugePages());
                assertNotNull(HugePages.unavailableBecause(), "an unavailable feature names why");
            }
            for (long w = 0; w < r.capacity(); w += 8) {
                assertEquals(0L, r.getLong(w), "word at byte " + w);
                r.putLong(w, w * 31 + 7);
            }
            for (long w = 0; w < r.capacity(); w += 8) {
                assertEquals(w * 31 + 7, r.getLong(w), "word at byte " + w);
            }
        }
        assertEquals(before, ChunkedRegion.liveBytes(), "closing gives back the chunks and their alignment");
    }

    @Test
    void aRegionSmallerThanAHugePageKeepsSmallPagesAndWorks() {
        try (ChunkedRegion r = ChunkedRegion.allocate("small", BYTES, 1 << 20, true)) {
            assertFalse(r.hugePages(), "a chunk of less than 2 MiB would hold no whole huge page");
            assertEquals(0, r.chunk(0).addressOffset() % 64);
            r.putLong(BYTES - 8, 42);
            assertEquals(42, r.getLong(BYTES - 8));
        }
    }

    /** The THPeligible figure of the mapping holding {@code address} in /proc/self/smaps, or -1 when none says. */
    private static int thpEligible(long address) throws IOException {
        List<String> lines = Files.readAllLines(Path.of("/proc/self/smaps"));
        boolean inside = false;
        for (String line : lines) {
            int dash = line.indexOf('-');
            int space = line.indexOf(' ');
            if (dash > 0 && space > dash && line.substring(0, dash).matches("[0-9a-f]+")) {
                long start = Long.parseUnsignedLong(line.substring(0, dash), 16);
                long end = Long.parseUnsignedLong(line.substring(dash + 1, space), 16);
                inside = address >= start && address < end;
            } else if (inside && line.startsWith("THPeligible:")) {
                return Integer.parseInt(line.substring("THPeligible:".length()).trim());
            }
        }
        return -1;
    }
}
