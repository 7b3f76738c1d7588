package io.pragh.address;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.LimitExceededException;
import org.junit.jupiter.api.Test;

class AddressTest {
    private static final long[] SIZES_LOCAL = {1, 2, 3, 1L << 21, (1L << 22) - 1, 1L << 22, (1L << 29) - 2,
        (1L << 29) - 1};
    private static final long[] SIZES_MIGRATED = {1, 2, 1L << 10, (1L << 22) - 2, (1L << 22) - 1};
    private static final long[] OFFSETS = {0, 1, 8, (1L << 33) - 1, 1L << 33, (1L << 34) - 2, (1L << 34) - 1};

    @Test
    void localAddressesRoundTripAtEveryBoundary() {
        for (long size : SIZES_LOCAL) {
            for (long off : OFFSETS) {
                long a = Address.local(size, off);
                assertFalse(Address.isMigrated(a));
                assertEquals(size, Address.sizeUnits(a));
                assertEquals(off, Address.offsetUnits(a));
                assertEquals(off << 3, Address.byteOffset(a));
                assertEquals(size << 3, Address.byteSize(a));
                assertEquals(5, Address.host(a, 5), "a local address lives on the key's home");
                assertTrue(a != Address.NONE);
            }
        }
    }

    @Test
    void migratedAddressesRoundTripForEveryMachine() {
        for (int machine = 0; machine < 128; machine++) {
            for (long size : SIZES_MIGRATED) {
                for (long off : OFFSETS) {
                    long a = Address.migrated(machine, size, off);
                    assertTrue(Address.isMigrated(a));
                    assertEquals(machine, Address.host(a, 99));
                    assertEquals(size, Address.sizeUnits(a));
                    assertEquals(off, Address.offsetUnits(a));
                }
            }
        }
    }

    @Test
    void ofPicksTheEncodingByWhetherTheHostIsHome() {
        assertFalse(Address.isMigrated(Address.of(3, 3, 4, 10)));
        assertTrue(Address.isMigrated(Address.of(2, 3, 4, 10)));
        assertEquals(2, Address.host(Address.of(2, 3, 4, 10), 3));
    }

    @Test
    void aLocalValueOf4GiBOrMoreIsRejectedNamingTheLimit() {
        LimitExceededException e = assertThrows(LimitExceededException.class, () -> Address.local(1L << 29, 0));
        assertTrue(e.getMessage().contains("4 GiB"), e.getMessage());
        assertThrows(LimitExceededException.class, () -> Address.local(0, 0));
        assertThrows(LimitExceededException.class, () -> Address.local(-1, 0));
    }

    @Test
    void aMigratedValueOf32MiBOrMoreIsRejectedNamingTheLimit() {
        LimitExceededException e = assertThrows(LimitExceededException.class, () -> Address.migrated(1, 1L << 22, 0));
        assertTrue(e.getMessage().contains("32 MiB"), e.getMessage());
    }

    @Test
    void moreThan128MachinesIsRejectedNamingTheLimit() {
        LimitExceededException e = assertThrows(LimitExceededException.class, () -> Address.migrated(128, 1, 0));
        assertTrue(e.getMessage().contains("128"), e.getMessage());
        assertThrows(LimitExceededException.class, () -> Address.migrated(-1, 1, 0));
        assertThrows(LimitExceededException.class, () -> Address.checkMachineCount(129));
        assertThrows(LimitExceededException.class, () -> Address.checkMachineCount(0));
        Address.checkMachineCount(128);
    }

    @Test
    void anOffsetBeyond128GiBIsRejectedNamingTheLimit() {
        LimitExceededException e = assertThrows(LimitExceededException.class, () -> Address.local(1, 1L << 34));
        assertTrue(e.getMessage().contains("128 GiB"), e.getMessage());
        assertThrows(LimitExceededException.class, () -> Address.migrated(0, 1, 1L << 34));
        assertThrows(LimitExceededException.class, () -> Address.local(1, -1));
    }

    @Test
    void fieldsNeverBleedIntoEachOther() {
        long a = Address.migrated(127, (1L << 22) - 1, (1L << 34) - 1);
        assertEquals(-1L, a, "all fields at their maximum fill all 64 bits");
        long b = Address.migrated(0, 1, 0);
        assertEquals(Long.MIN_VALUE | (1L << 34), b);
    }
}
