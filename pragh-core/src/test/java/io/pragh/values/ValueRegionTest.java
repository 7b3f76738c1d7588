package io.pragh.values;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.LimitExceededException;
import io.pragh.address.Address;
import io.pragh.address.SizeClasses;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

class ValueRegionTest {
    @Test
    void recordsAreAlignedNonOverlappingAndNeverCrossAChunk() {
        try (ValueRegion values = new ValueRegion(64 * 1024, 4096)) {
            Set<Long> chunksSeen = new HashSet<>();
            long prevEnd = 0;
            for (int i = 0; i < 100; i++) {
                long units = 20 + (i % 7) * 10;
                long address = values.allocate(units);
                long off = Address.byteOffset(address);
                long bytes = Address.byteSize(address);
                assertTrue(bytes >= units * 8, "the size class holds the record");
                assertEquals(0, off % 8);
                assertTrue(off >= prevEnd, "bump allocation never overlaps");
                assertEquals(off / 4096, (off + bytes - 1) / 4096, "record stays in one chunk");
                chunksSeen.add(off / 4096);
                prevEnd = off + bytes;
            }
            assertTrue(chunksSeen.size() > 1);
        }
    }

    @Test
    void aReleasedRecordComesBackWithItsGenerationAFreedPublishedOneWithTheNext() {
        try (ValueRegion values = new ValueRegion(64 * 1024, 1 << 16)) {
            long a = values.allocate(10);
            long b = values.allocate(10);
            long live = values.liveBytes();
            values.release(a);
            assertEquals(live - Address.byteSize(a), values.liveBytes());
            assertEquals(a, values.allocate(10), "never published: the same allocation, generation and all");

            writeRecord(values, a, 42, 1);
            assertFalse(values.free(a), "a live record is not freed: it must be invalidated first");
            assertTrue(values.invalidate(a));
            assertFalse(values.invalidate(a), "invalidated once");
            assertTrue(values.free(a));
            long again = values.allocate(10);
            assertEquals(Address.offsetUnits(a), Address.offsetUnits(again), "the free list hands the slot back");
            assertEquals(Address.nextGeneration(Address.generation(a)), Address.generation(again),
                "with the next generation: the freed record's address no longer names it");
            assertFalse(values.free(a), "a late free of the old allocation frees nothing");
            assertFalse(values.invalidate(a), "and a late invalidation touches nothing");
            assertEquals(2, values.refusedFrees(), "both refused frees counted");

            values.release(b);
            values.release(again);
            assertEquals(again, values.allocate(10), "last in, first out");
            assertEquals(b, values.allocate(10));
            assertThrows(IllegalStateException.class, () -> values.release(a),
                "releasing an allocation the slot no longer holds");
        }
    }

    @Test
    void aRecordPostedTwiceIsFreedOnce() {
        try (ValueRegion values = new ValueRegion(64 * 1024, 1 << 16)) {
            long a = values.allocate(10);
            writeRecord(values, a, 42, 1);
            assertTrue(values.invalidate(a));
            assertTrue(values.invalidated(a));
            assertTrue(values.free(a));
            assertFalse(values.invalidated(a), "free now, not invalidated");
            assertFalse(values.free(a), "the second post of the same record frees nothing");
            long b = values.allocate(10);
            long c = values.allocate(10);
            assertEquals(Address.offsetUnits(a), Address.offsetUnits(b));
            assertTrue(Address.offsetUnits(c) != Address.offsetUnits(b), "the slot was on the free list once");
        }
    }

    @Test
    void aFullRegionRefusesWithAClearErrorAndKeepsWhatItHas() {
        try (ValueRegion values = new ValueRegion(8192, 4096)) {
            long first = values.allocate(100);
            values.region().putLongVolatile(Address.byteOffset(first), 1234);
            LimitExceededException e = assertThrows(LimitExceededException.class, () -> {
                for (int i = 0; i < 1000; i++) {
                    values.allocate(100);
                }
            });
            assertTrue(e.getMessage().contains("value region is full"), e.getMessage());
            assertEquals(1234, values.region().getLongVolatile(Address.byteOffset(first)));
            assertThrows(LimitExceededException.class, () -> values.allocate(4096 / 8 + 1),
                "a record larger than a chunk cannot exist");
        }
    }

    /**
     * Slots keep their class for good: a region carved into large records, then freed, must still serve small ones
     * once the bump pointer is at the end, from the larger free slots (and say so in the address: the slot's class).
     */
    @Test
    void aRegionCarvedIntoLargerClassesServesASmallRecordFromAFreeLargerSlot() {
        try (ValueRegion values = new ValueRegion(8192, 4096)) {
            List<Long> large = fillWith(values, 100);
            assertTrue(large.size() >= 2, "the region holds a few 100-unit records: " + large.size());
            fillWith(values, 10); // the chunks' tails, too small for a large record, take small ones
            long freed = large.get(0);
            writeRecord(values, freed, 42, 1);
            assertTrue(values.invalidate(freed));
            long live = values.liveBytes();
            assertTrue(values.free(freed));

            long small = values.allocate(10);
            assertEquals(Address.offsetUnits(freed), Address.offsetUnits(small), "the free larger slot serves it");
            assertEquals(Address.sizeClass(freed), Address.sizeClass(small), "its address names the slot's class");
            assertEquals(Address.nextGeneration(Address.generation(freed)), Address.generation(small),
                "with the slot's next generation: the freed record's address does not name it");
            assertEquals(live, values.liveBytes(), "counted at the slot's size");
            assertThrows(LimitExceededException.class, () -> values.allocate(10), "and then the region is full");
        }
    }

    /**
     * The allocator's known limit, pinned so that it is seen: a region carved wholly into small classes and then
     * freed refuses a larger record even though almost all of it is free, and says so (not "full of live records",
     * which would send an operator looking for a leak); the small classes it holds still serve.
     */
    @Test
    void aRegionCarvedIntoSmallClassesRefusesALargerRecordNamingTheFragmentation() {
        try (ValueRegion values = new ValueRegion(8192, 4096)) {
            List<Long> small = fillWith(values, 10);
            for (long a : small) {
                writeRecord(values, a, 7, 1);
                assertTrue(values.invalidate(a));
                assertTrue(values.free(a));
            }
            assertEquals(0, values.liveBytes());
            LimitExceededException e = assertThrows(LimitExceededException.class, () -> values.allocate(100));
            long needed = SizeClasses.units(SizeClasses.classOf(100)) << 3;
            assertTrue(e.getMessage().contains("0 live; cannot allocate " + needed + " more: ")
                && e.getMessage().contains("bytes are free, but only in slots of smaller size classes"), e.getMessage());
            assertEquals(small.size(), fillWith(values, 10).size(), "every small slot still serves");
            LimitExceededException full = assertThrows(LimitExceededException.class, () -> values.allocate(10));
            assertFalse(full.getMessage().contains("smaller size classes"), "full of live records now: "
                + full.getMessage());
        }
    }

    @Test
    void headerCheckRejectsInvalidatedForeignAndReusedRecords() {
        UnsafeBuffer rec = new UnsafeBuffer(new byte[64]);
        long units = ValueRecord.unitsFor(20);
        assertEquals(6, units, "24-byte header plus 20 bytes, padded to 8");
        long address = Address.local(io.pragh.address.SizeClasses.classOf(units), 7, 8);
        rec.putLong(0, ValueRecord.headerWord(20, address));
        rec.putLong(8, 42);
        assertTrue(ValueRecord.isValid(rec, 0, address, 42));
        assertEquals(20, ValueRecord.payloadLengthOf(rec.getLong(0)));
        assertEquals(7, ValueRecord.generationOf(rec.getLong(0)));
        assertEquals(units, ValueRecord.unitsOf(rec.getLong(0)));
        assertFalse(ValueRecord.isValid(rec, 0, address, 43), "another key's record");
        assertFalse(ValueRecord.isValid(rec, 0, Address.local(5, 7, 8), 42), "another size class");
        assertFalse(ValueRecord.isValid(rec, 0, Address.local(4, 8, 8), 42), "another generation: reused memory");
        rec.putLong(0, rec.getLong(0) | ValueRecord.INVALIDATION_PENDING);
        assertTrue(ValueRecord.isValid(rec, 0, address, 42), "pending is still the value (a GET waits on it)");
        rec.putLong(0, ValueRecord.invalidated(rec.getLong(0)));
        assertFalse(ValueRecord.isValid(rec, 0, address, 42), "invalidated");
        assertEquals(7, ValueRecord.generationOf(rec.getLong(0)), "invalidation keeps the generation");
        rec.putLong(0, 0);
        assertFalse(ValueRecord.isValid(rec, 0, address, 42), "a zeroed word");
    }

    /** Writes a live record of the largest payload the allocation holds. */
    /** Allocates records of {@code units} until the region refuses one; returns their addresses. */
    private static List<Long> fillWith(ValueRegion values, long units) {
        List<Long> addresses = new ArrayList<>();
        while (true) {
            try {
                addresses.add(values.allocate(units));
            } catch (LimitExceededException full) {
                return addresses;
            }
        }
    }

    private static void writeRecord(ValueRegion values, long address, long key, long version) {
        long off = Address.byteOffset(address);
        values.region().putLong(off + ValueRecord.KEY_OFFSET, key);
        int length = (int) Address.byteSize(address) - ValueRecord.HEADER_BYTES;
        values.region().putLong(off + ValueRecord.VERSION_OFFSET, ValueRecord.versionWord(version, length));
        values.region().putLongVolatile(off, ValueRecord.headerWord(length, address));
    }

    @Test
    void theWalkVisitsEveryAllocatedValidRecordWithItsKeyAndVersionAcrossChunks() {
        try (ValueRegion values = new ValueRegion(64 * 1024, 4096)) {
            java.util.Map<Long, long[]> expected = new java.util.HashMap<>();
            java.util.Map<Long, Long> addresses = new java.util.HashMap<>();
            for (int i = 0; i < 200; i++) {
                long units = 3 + (i % 9) * 7;
                long address = values.allocate(units);
                writeRecord(values, address, 1000 + i, 50 + i);
                long at = Address.offsetUnits(address);
                addresses.put(at, address);
                expected.put(at, new long[] {1000 + i, 50 + i, Address.sizeUnits(address)});
            }
            // Freed, and invalidated (waiting for reclaim): neither is visited.
            long freed = expected.keySet().stream().sorted().skip(10).findFirst().orElseThrow();
            assertTrue(values.invalidate(addresses.get(freed)));
            assertTrue(values.free(addresses.get(freed)));
            expected.remove(freed);
            long invalidated = expected.keySet().stream().sorted().skip(20).findFirst().orElseThrow();
            assertTrue(values.invalidate(addresses.get(invalidated)));
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
    void aWriterFindingTheRegionFullOfGarbageWaitsForAFreeAndGetsTheFreedRecord() throws Exception {
        try (ValueRegion values = new ValueRegion(8192, 4096)) {
            values.applyBackPressure(() -> 1_000, java.util.concurrent.TimeUnit.SECONDS.toNanos(60));
            List<Long> held = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                held.add(values.allocate(100)); // two 4 KiB chunks hold four 100-unit records each
            }
            java.util.concurrent.CompletableFuture<Long> writer = java.util.concurrent.CompletableFuture.supplyAsync(
                () -> values.allocate(100));
            // The writer cannot finish before the free below: nothing else can give it memory.
            Thread.sleep(50);
            assertFalse(writer.isDone(), "the writer did not wait: " + writer);
            assertTrue(values.free(held.get(3)));
            assertEquals(Address.offsetUnits(held.get(3)),
                Address.offsetUnits(writer.get(30, java.util.concurrent.TimeUnit.SECONDS)),
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
