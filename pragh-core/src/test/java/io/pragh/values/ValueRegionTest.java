package io.pragh.values;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.LimitExceededException;
import io.pragh.address.Address;
import java.util.HashSet;
import java.util.Set;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

class ValueRegionTest {
    @Test
    void sizeClassesCoverEveryUnitCountWithBoundedWaste() {
        SizeClasses c = new SizeClasses(1 << 20);
        for (long u = 1; u <= (1 << 20); u += (u < 100 ? 1 : 97)) {
            int k = c.classOf(u);
            assertTrue(c.units(k) >= u, "class " + k + " holds " + u);
            assertTrue(c.units(k) <= Math.max(2, u + (u >>> 3) + 1), "waste bounded for " + u);
            if (k > 0) {
                assertTrue(c.units(k - 1) < u, "smallest class for " + u);
            }
        }
        assertEquals(-1, c.classOf((1 << 20) + 1));
    }

    @Test
    void recordsAreAlignedNonOverlappingAndNeverCrossAChunk() {
        try (ValueRegion values = new ValueRegion(64 * 1024, 4096)) {
            Set<Long> chunksSeen = new HashSet<>();
            long prevEnd = 0;
            for (int i = 0; i < 100; i++) {
                long units = 20 + (i % 7) * 10;
                long off = values.allocate(units) << 3;
                assertEquals(0, off % 8);
                assertTrue(off >= prevEnd, "bump allocation never overlaps");
                assertEquals(off / 4096, (off + units * 8 - 1) / 4096, "record stays in one chunk");
                chunksSeen.add(off / 4096);
                prevEnd = off + units * 8;
            }
            assertTrue(chunksSeen.size() > 1);
        }
    }

    @Test
    void freedRecordsAreReusedBySameSizeClass() {
        try (ValueRegion values = new ValueRegion(64 * 1024, 1 << 16)) {
            long a = values.allocate(10);
            long b = values.allocate(10);
            long live = values.liveBytes();
            values.free(a, 10);
            assertEquals(live - 80, values.liveBytes());
            assertEquals(a, values.allocate(10), "the freed record comes back first");
            values.free(b, 10);
            values.free(a, 10);
            assertEquals(a, values.allocate(10));
            assertEquals(b, values.allocate(10));
        }
    }

    @Test
    void aFullRegionRefusesWithAClearErrorAndKeepsWhatItHas() {
        try (ValueRegion values = new ValueRegion(8192, 4096)) {
            long first = values.allocate(100);
            values.region().putLongVolatile(first << 3, 1234);
            LimitExceededException e = assertThrows(LimitExceededException.class, () -> {
                for (int i = 0; i < 1000; i++) {
                    values.allocate(100);
                }
            });
            assertTrue(e.getMessage().contains("value region is full"), e.getMessage());
            assertEquals(1234, values.region().getLongVolatile(first << 3));
            assertThrows(LimitExceededException.class, () -> values.allocate(4096 / 8 + 1),
                "a record larger than a chunk cannot exist");
        }
    }

    @Test
    void headerCheckRejectsInvalidatedAndForeignRecords() {
        UnsafeBuffer rec = new UnsafeBuffer(new byte[64]);
        long units = ValueRecord.unitsFor(20);
        assertEquals(6, units, "24-byte header plus 20 bytes, padded to 8");
        long address = Address.local(units, 8);
        rec.putLong(0, ValueRecord.headerWord(20, units));
        rec.putLong(8, 42);
        assertTrue(ValueRecord.isValid(rec, 0, address, 42));
        assertEquals(20, ValueRecord.payloadLengthOf(rec.getLong(0)));
        assertFalse(ValueRecord.isValid(rec, 0, address, 43), "another key's record");
        assertFalse(ValueRecord.isValid(rec, 0, Address.local(7, 8), 42), "a different size");
        rec.putLong(0, 0);
        assertFalse(ValueRecord.isValid(rec, 0, address, 42), "invalidated");
        assertThrows(LimitExceededException.class, () -> ValueRecord.unitsFor(Address.MAX_LOCAL_BYTES));
    }

    private static void writeRecord(ValueRegion values, long offsetUnits, long units, long key, long version) {
        long off = offsetUnits << 3;
        values.region().putLong(off + ValueRecord.KEY_OFFSET, key);
        values.region().putLong(off + ValueRecord.VERSION_OFFSET, version);
        values.region().putLongVolatile(off, ValueRecord.headerWord((units << 3) - ValueRecord.HEADER_BYTES, units));
    }

    @Test
    void theWalkVisitsEveryAllocatedValidRecordWithItsKeyAndVersionAcrossChunks() {
        try (ValueRegion values = new ValueRegion(64 * 1024, 4096)) {
            java.util.Map<Long, long[]> expected = new java.util.HashMap<>();
            for (int i = 0; i < 200; i++) {
                long units = 3 + (i % 9) * 7;
                long at = values.allocate(units);
                writeRecord(values, at, units, 1000 + i, 50 + i);
                expected.put(at, new long[] {1000 + i, 50 + i, units});
            }
            // Freed, and invalidated (header zeroed, waiting for reclaim): neither is visited.
            long freed = expected.keySet().stream().sorted().skip(10).findFirst().orElseThrow();
            values.free(freed, expected.remove(freed)[2]);
            long invalidated = expected.keySet().stream().sorted().skip(20).findFirst().orElseThrow();
            values.region().putLongVolatile(invalidated << 3, 0);
            expected.remove(invalidated);
            java.util.Map<Long, long[]> seen = new java.util.HashMap<>();
            long n = values.forEachRecord((unit, header, key, version) ->
                seen.put(unit, new long[] {key, version, ValueRecord.unitsOf(header)}));
            assertEquals(expected.size(), n);
            assertEquals(expected.keySet(), seen.keySet());
            expected.forEach((unit, v) -> assertTrue(java.util.Arrays.equals(v, seen.get(unit)), "record at " + unit));
        }
    }

    @Test
    void aWatchedRecordHandedOutAgainIsNoLongerWatched() {
        try (ValueRegion values = new ValueRegion(64 * 1024, 4096)) {
            long a = values.allocate(4);
            long b = values.allocate(4);
            values.watch(a);
            values.watch(b);
            values.free(a, 4);
            assertTrue(values.watched(a), "freed but not handed out again");
            assertEquals(a, values.allocate(4), "the free list hands the same record out again");
            assertFalse(values.watched(a));
            assertTrue(values.watched(b));
            values.unwatch(b);
            assertFalse(values.watched(b));
        }
    }

    @Test
    void aWriterFindingTheRegionFullOfGarbageWaitsForAFreeAndGetsTheFreedRecord() throws Exception {
        try (ValueRegion values = new ValueRegion(8192, 4096)) {
            values.applyBackPressure(() -> 1_000, java.util.concurrent.TimeUnit.SECONDS.toNanos(60));
            java.util.List<Long> held = new java.util.ArrayList<>();
            for (int i = 0; i < 8; i++) {
                held.add(values.allocate(100)); // two 4 KiB chunks hold four 100-unit records each
            }
            java.util.concurrent.CompletableFuture<Long> writer = java.util.concurrent.CompletableFuture.supplyAsync(
                () -> values.allocate(100));
            // The writer cannot finish before the free below: nothing else can give it memory.
            Thread.sleep(50);
            assertFalse(writer.isDone(), "the writer did not wait: " + writer);
            values.free(held.get(3), 100);
            assertEquals(held.get(3), writer.get(30, java.util.concurrent.TimeUnit.SECONDS),
                "the waiting writer got the freed record");
        }
    }

    @Test
    void aRegionThatStaysFullOfGarbageRefusesRetryablyNamingWhatItHolds() {
        try (ValueRegion values = new ValueRegion(8192, 4096)) {
            values.applyBackPressure(() -> 4096, java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(100));
            for (int i = 0; i < 8; i++) {
                values.allocate(100);
            }
            RegionFullException e = assertThrows(RegionFullException.class, () -> values.allocate(100));
            assertTrue(e.retryable());
            assertEquals("value", e.region());
            assertEquals(8192, e.capacityBytes());
            assertEquals(4096, e.awaitingReclaimBytes());
            assertEquals(values.liveBytes(), e.liveBytes());
            assertTrue(e.getMessage().contains("value region is full: 8192 bytes, of which 4096 hold superseded"
                + " records awaiting reclaim"), e.getMessage());
        }
    }

    @Test
    void aRegionFullOfLiveRecordsIsAHardLimitEvenWithBackPressure() {
        try (ValueRegion values = new ValueRegion(8192, 4096)) {
            values.applyBackPressure(() -> 0, java.util.concurrent.TimeUnit.SECONDS.toNanos(60));
            for (int i = 0; i < 8; i++) {
                values.allocate(100);
            }
            long start = System.nanoTime();
            LimitExceededException e = assertThrows(LimitExceededException.class, () -> values.allocate(100));
            assertTrue(e.getMessage().contains("value region is full"), e.getMessage());
            assertTrue(System.nanoTime() - start < java.util.concurrent.TimeUnit.SECONDS.toNanos(30),
                "gave up after the empty-backlog grace, not the 60 s patience");
        }
    }
}
