package io.pragh.address;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.LimitExceededException;
import org.junit.jupiter.api.Test;

class AddressTest {
    private static final int[] CLASSES = {0, 1, 30, 31, SizeClasses.COUNT - 2, SizeClasses.COUNT - 1};
    private static final int[] GENERATIONS = {1, 2, Address.MAX_GENERATION - 1, Address.MAX_GENERATION};
    private static final long[] OFFSETS = {0, 1, 8, (1L << 33) - 1, 1L << 33, (1L << 34) - 2, (1L << 34) - 1};

    @Test
    void localAddressesRoundTripAtEveryBoundary() {
        for (int c : CLASSES) {
            for (int g : GENERATIONS) {
                for (long off : OFFSETS) {
                    long a = Address.local(c, g, off);
                    assertFalse(Address.isMigrated(a));
                    assertFalse(Address.isNone(a), "a value's address is never 'no value'");
                    assertEquals(c, Address.sizeClass(a));
                    assertEquals(g, Address.generation(a));
                    assertEquals(off, Address.offsetUnits(a));
                    assertEquals(off << 3, Address.byteOffset(a));
                    assertEquals(SizeClasses.units(c) << 3, Address.byteSize(a));
                    assertEquals(5, Address.host(a, 5), "a local address lives on the key's home");
                }
            }
        }
    }

    @Test
    void anAllocationSeenFromAnyMachineKeepsItsFields() {
        long local = Address.local(SizeClasses.COUNT - 1, Address.MAX_GENERATION, (1L << 34) - 1);
        for (int machine = 0; machine < 128; machine++) {
            long m = Address.at(machine, 200, local);
            assertTrue(Address.isMigrated(m));
            assertEquals(machine, Address.host(m, 200));
            assertEquals(Address.sizeClass(local), Address.sizeClass(m));
            assertEquals(Address.generation(local), Address.generation(m));
            assertEquals(Address.offsetUnits(local), Address.offsetUnits(m));
            assertTrue(Address.sameAllocation(local, m));
            assertEquals(local, Address.at(machine, machine, m), "seen from its own home it is local again");
        }
    }

    @Test
    void anotherGenerationAtTheSameOffsetIsAnotherAllocation() {
        long a = Address.local(4, 7, 1024);
        long reused = Address.local(4, Address.nextGeneration(7), 1024);
        assertFalse(Address.sameAllocation(a, reused));
        assertTrue(a != reused, "a CAS expecting the old allocation's word fails on the new one's");
        assertEquals(1, Address.nextGeneration(Address.MAX_GENERATION), "wraps to 1, never to 0");
    }

    @Test
    void aTombstoneHoldsNoValueButNamesTheRecordItRemoved() {
        long a = Address.at(3, 0, Address.local(9, 42, 777));
        long t = Address.tombstone(a);
        assertTrue(Address.isNone(t));
        assertTrue(Address.isTombstone(t));
        assertEquals(3, Address.host(t, 0));
        assertEquals(42, Address.generation(t));
        assertEquals(777, Address.offsetUnits(t));
        assertTrue(t != Address.tombstone(Address.at(3, 0, Address.local(9, 43, 777))),
            "unique to the allocation removed");
        assertTrue(Address.isNone(Address.NONE));
        assertFalse(Address.isTombstone(Address.NONE));
        assertFalse(Address.isTombstone(a));
    }

    @Test
    void aRecordOver1GiBIsRejectedNamingTheLimit() {
        assertEquals(1L << 30, Address.MAX_RECORD_BYTES);
        assertEquals(-1, SizeClasses.classOf(SizeClasses.MAX_UNITS + 1));
        assertEquals(SizeClasses.COUNT - 1, SizeClasses.classOf(SizeClasses.MAX_UNITS));
        LimitExceededException e = assertThrows(LimitExceededException.class,
            () -> io.pragh.values.ValueRecord.unitsFor(Address.MAX_RECORD_BYTES));
        assertTrue(e.getMessage().contains("1 GiB"), e.getMessage());
    }

    @Test
    void sizeClassesCoverEveryUnitCountWithBoundedWasteAndFitTheClassField() {
        assertTrue(SizeClasses.COUNT < 255, SizeClasses.COUNT + " classes leave no room for the tombstone");
        for (long u = 1; u <= SizeClasses.MAX_UNITS; u += (u < 100 ? 1 : u / 50)) {
            int k = SizeClasses.classOf(u);
            assertTrue(SizeClasses.units(k) >= u, "class " + k + " holds " + u);
            assertTrue(SizeClasses.units(k) <= Math.max(2, u + (u >>> 3) + 1), "waste bounded for " + u);
            if (k > 0) {
                assertTrue(SizeClasses.units(k - 1) < u, "smallest class for " + u);
            }
        }
    }

    @Test
    void badFieldsAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> Address.local(0, 0, 8), "generation 0");
        assertThrows(IllegalArgumentException.class, () -> Address.local(0, Address.MAX_GENERATION + 1, 8));
        assertThrows(IllegalArgumentException.class, () -> Address.local(SizeClasses.COUNT, 1, 8));
        assertThrows(IllegalArgumentException.class, () -> Address.local(-1, 1, 8));
    }

    @Test
    void moreThan128MachinesIsRejectedNamingTheLimit() {
        long a = Address.local(1, 1, 0);
        LimitExceededException e = assertThrows(LimitExceededException.class, () -> Address.at(128, 0, a));
        assertTrue(e.getMessage().contains("128"), e.getMessage());
        assertThrows(LimitExceededException.class, () -> Address.at(-1, 0, a));
        assertThrows(LimitExceededException.class, () -> Address.checkMachineCount(129));
        assertThrows(LimitExceededException.class, () -> Address.checkMachineCount(0));
        Address.checkMachineCount(128);
    }

    @Test
    void anOffsetBeyond128GiBIsRejectedNamingTheLimit() {
        LimitExceededException e = assertThrows(LimitExceededException.class, () -> Address.local(1, 1, 1L << 34));
        assertTrue(e.getMessage().contains("128 GiB"), e.getMessage());
        assertThrows(LimitExceededException.class, () -> Address.local(1, 1, -1));
    }

    @Test
    void fieldsNeverBleedIntoEachOther() {
        long a = Address.at(127, 0, Address.local(SizeClasses.COUNT - 1, Address.MAX_GENERATION, (1L << 34) - 1));
        assertEquals(-1L, a | (0xFFL << 48), "machine, generation and offset at their maximum fill their bits");
        assertEquals(SizeClasses.COUNT - 1, Address.sizeClass(a));
        long b = Address.at(0, 1, Address.local(0, 1, 0));
        assertEquals(Long.MIN_VALUE | (1L << 34), b);
    }
}
