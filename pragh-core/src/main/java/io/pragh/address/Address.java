package io.pragh.address;

import io.pragh.LimitExceededException;

/**
 * The 64-bit address word of paper section 4.1, CAS-able locally and by one-sided atomics.
 *
 * <pre>
 *  local    (bit 63 = 0): | 0 | size: 29 bits | offset: 34 bits |    value on the key's home machine
 *  migrated (bit 63 = 1): | 1 | machine: 7 bits | size: 22 bits | offset: 34 bits |
 * </pre>
 * Size and offset count 8-byte units, so a local value may reach 4 GiB, a migrated one 32 MiB, a value region
 * 128 GiB, and a cluster 128 machines. The word 0 means "no value" (a local address always has size &gt; 0).
 *
 * <pre>{@code
 * long a = Address.local(4, 1024);          // 32-byte record at byte offset 8192 of the home's value region
 * long m = Address.migrated(3, 4, 64);      // the same size, migrated to machine 3
 * int host = Address.host(m, homeMachine);  // 3
 * }</pre>
 */
public final class Address {
    public static final long NONE = 0L;

    public static final int OFFSET_BITS = 34;
    public static final int LOCAL_SIZE_BITS = 29;
    public static final int MIGRATED_SIZE_BITS = 22;
    public static final int MACHINE_BITS = 7;

    public static final long MAX_OFFSET_UNITS = (1L << OFFSET_BITS) - 1;
    public static final long MAX_LOCAL_UNITS = (1L << LOCAL_SIZE_BITS) - 1;
    public static final long MAX_MIGRATED_UNITS = (1L << MIGRATED_SIZE_BITS) - 1;
    public static final int MAX_MACHINES = 1 << MACHINE_BITS;

    /** Largest record a local address can describe: just under 4 GiB. */
    public static final long MAX_LOCAL_BYTES = MAX_LOCAL_UNITS << 3;
    /** Largest record that can migrate: just under 32 MiB. */
    public static final long MAX_MIGRATED_BYTES = MAX_MIGRATED_UNITS << 3;
    /** Largest value region a machine may address: 128 GiB. */
    public static final long MAX_REGION_BYTES = (MAX_OFFSET_UNITS + 1) << 3;

    private static final long TYPE_BIT = 1L << 63;
    private static final long OFFSET_MASK = MAX_OFFSET_UNITS;

    private Address() {
    }

    public static long local(long sizeUnits, long offsetUnits) {
        if (sizeUnits <= 0 || sizeUnits > MAX_LOCAL_UNITS) {
            throw new LimitExceededException("value record of " + (sizeUnits << 3) + " bytes exceeds the "
                + MAX_LOCAL_BYTES + "-byte (4 GiB) limit of a local address (29-bit size in 8-byte units)");
        }
        checkOffset(offsetUnits);
        return (sizeUnits << OFFSET_BITS) | offsetUnits;
    }

    public static long migrated(int machine, long sizeUnits, long offsetUnits) {
        checkMachine(machine);
        if (sizeUnits <= 0 || sizeUnits > MAX_MIGRATED_UNITS) {
            throw new LimitExceededException("value record of " + (sizeUnits << 3) + " bytes exceeds the "
                + MAX_MIGRATED_BYTES + "-byte (32 MiB) limit of a migrated address (22-bit size in 8-byte units)");
        }
        checkOffset(offsetUnits);
        return TYPE_BIT | ((long) machine << (OFFSET_BITS + MIGRATED_SIZE_BITS)) | (sizeUnits << OFFSET_BITS)
            | offsetUnits;
    }

    /** The address a value at {@code offsetUnits} on {@code host} gets, as seen from the key's {@code home}. */
    public static long of(int host, int home, long sizeUnits, long offsetUnits) {
        return host == home ? local(sizeUnits, offsetUnits) : migrated(host, sizeUnits, offsetUnits);
    }

    public static boolean isMigrated(long address) {
        return address < 0;
    }

    public static boolean isNone(long address) {
        return address == NONE;
    }

    /** Machine the value lives on: the key's home for a local address, the encoded machine otherwise. */
    public static int host(long address, int home) {
        return address < 0 ? (int) ((address >>> (OFFSET_BITS + MIGRATED_SIZE_BITS)) & (MAX_MACHINES - 1)) : home;
    }

    public static long sizeUnits(long address) {
        return address < 0
            ? (address >>> OFFSET_BITS) & MAX_MIGRATED_UNITS
            : (address >>> OFFSET_BITS) & MAX_LOCAL_UNITS;
    }

    public static long offsetUnits(long address) {
        return address & OFFSET_MASK;
    }

    public static long byteOffset(long address) {
        return offsetUnits(address) << 3;
    }

    public static long byteSize(long address) {
        return sizeUnits(address) << 3;
    }

    public static void checkMachine(int machine) {
        if (machine < 0 || machine >= MAX_MACHINES) {
            throw new LimitExceededException("machine id " + machine + " is outside 0.." + (MAX_MACHINES - 1)
                + ": a migrated address has 7 bits for the machine, so a cluster has at most " + MAX_MACHINES
                + " machines");
        }
    }

    public static void checkMachineCount(int machines) {
        if (machines < 1 || machines > MAX_MACHINES) {
            throw new LimitExceededException("a cluster of " + machines + " machines is not possible: at least 1 and"
                + " at most " + MAX_MACHINES + " (7-bit machine id in the address word)");
        }
    }

    private static void checkOffset(long offsetUnits) {
        if (offsetUnits < 0 || offsetUnits > MAX_OFFSET_UNITS) {
            throw new LimitExceededException("value offset of " + (offsetUnits << 3) + " bytes exceeds the "
                + MAX_REGION_BYTES + "-byte (128 GiB) value region an address can reach (34-bit offset)");
        }
    }

    public static String toString(long address) {
        if (address == NONE) {
            return "Address[none]";
        }
        return (address < 0 ? "Address[migrated to " + host(address, -1) + ", " : "Address[local, ")
            + byteSize(address) + " B at " + byteOffset(address) + "]";
    }
}
