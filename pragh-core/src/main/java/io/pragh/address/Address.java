package io.pragh.address;

import io.pragh.LimitExceededException;

/**
 * The 64-bit address word of paper section 4.1, CAS-able locally and by one-sided atomics, with a generation tag
 * that makes a reused offset detectable (as FaRM's and DrTM's incarnations do).
 *
 * <pre>
 *  bit 63           56 55        48 47               34 33                     0
 *     | M | machine: 7 | class: 8  | generation: 14   |  offset: 34            |
 *
 *  M = 0: the value lives on the key's home (machine is 0); M = 1: it migrated to {@code machine}
 *  class:      the record's size class ({@link SizeClasses}); 255 marks a tombstone (see below)
 *  generation: the allocation's generation at that offset, 1..16383, never 0
 *  offset:     in 8-byte units within the host's value region
 * </pre>
 * The record at that offset repeats the class and the generation in its header (see
 * {@code io.pragh.values.ValueRecord}). A slot's generation advances every time its record is freed after being
 * published and the slot is handed out again, so an address names one allocation, not a place: a CAS that expects
 * it fails, and a read through it fails its header check, once that allocation has gone, however late either
 * arrives, until the same slot has been freed and reused 16,383 more times (each reuse waits out the reclaim lease,
 * so that takes 16,383 reclaim leases at the least).
 *
 * <p>Limits: a record (24-byte header plus value) of at most {@link #MAX_RECORD_BYTES} (1 GiB, the largest value
 * region chunk), on the key's home or migrated alike; a value region of {@link #MAX_REGION_BYTES} (128 GiB, a 34-bit
 * offset in 8-byte units); at most {@link #MAX_MACHINES} (128) machines; {@link #MAX_GENERATION} generations per
 * slot before the tag wraps. Each is refused with a {@link LimitExceededException} naming the limit.
 *
 * <p>The word 0 ({@link #NONE}) means "no value", and so does a <em>tombstone</em>: the word a DELETE installs, the
 * address it removed with class 255, so that the DELETE can tell afterwards whether its CAS took effect (a lost
 * reply) exactly as a PUT does with the unique address it installs ({@link #isNone}).
 *
 * <pre>{@code
 * long a = Address.local(4, 7, 1024);       // size class 4 (6 units), generation 7, at byte offset 8192 of the home
 * long m = Address.at(3, 0, a);             // the same allocation on machine 3, as key-home 0 names it
 * int host = Address.host(m, 0);            // 3
 * boolean same = Address.sameAllocation(a, m);  // true: class, generation and offset agree
 * }</pre>
 */
public final class Address {
    public static final long NONE = 0L;

    public static final int OFFSET_BITS = 34;
    public static final int GENERATION_BITS = 14;
    public static final int CLASS_BITS = 8;
    public static final int MACHINE_BITS = 7;

    private static final int GENERATION_SHIFT = OFFSET_BITS;
    private static final int CLASS_SHIFT = GENERATION_SHIFT + GENERATION_BITS;
    private static final int MACHINE_SHIFT = CLASS_SHIFT + CLASS_BITS;

    public static final long MAX_OFFSET_UNITS = (1L << OFFSET_BITS) - 1;
    /** Generations run 1..MAX_GENERATION and wrap to 1: 0 is never a generation, so no address word is 0. */
    public static final int MAX_GENERATION = (1 << GENERATION_BITS) - 1;
    public static final int MAX_MACHINES = 1 << MACHINE_BITS;
    /** The class field of a tombstone; no size class has it. */
    static final int TOMBSTONE_CLASS = (1 << CLASS_BITS) - 1;

    /** Largest record an address can describe, on the home or migrated: 1 GiB (the largest region chunk). */
    public static final long MAX_RECORD_BYTES = SizeClasses.MAX_UNITS << 3;
    /** Largest value region a machine may address: 128 GiB. */
    public static final long MAX_REGION_BYTES = (MAX_OFFSET_UNITS + 1) << 3;

    private static final long TYPE_BIT = 1L << 63;
    private static final long OFFSET_MASK = MAX_OFFSET_UNITS;
    private static final long GENERATION_MASK = (long) MAX_GENERATION << GENERATION_SHIFT;
    private static final long CLASS_MASK = (long) TOMBSTONE_CLASS << CLASS_SHIFT;
    /** What names an allocation: class, generation and offset (not where it is seen from). */
    private static final long ALLOCATION_MASK = CLASS_MASK | GENERATION_MASK | OFFSET_MASK;

    private Address() {
    }

    /** The address of a record on the key's home: size class, generation (1..16383) and offset in 8-byte units. */
    public static long local(int sizeClass, int generation, long offsetUnits) {
        if (sizeClass < 0 || sizeClass >= SizeClasses.COUNT) {
            throw new IllegalArgumentException("size class " + sizeClass + " is outside 0.." + (SizeClasses.COUNT - 1));
        }
        if (generation < 1 || generation > MAX_GENERATION) {
            throw new IllegalArgumentException("generation " + generation + " is outside 1.." + MAX_GENERATION);
        }
        checkOffset(offsetUnits);
        return ((long) sizeClass << CLASS_SHIFT) | ((long) generation << GENERATION_SHIFT) | offsetUnits;
    }

    /**
     * The word naming, from the key's {@code home}, the allocation {@code address} names on {@code host}: the local
     * form when the host is the home, the migrated form otherwise.
     */
    public static long at(int host, int home, long address) {
        long allocation = address & ALLOCATION_MASK;
        if (host == home) {
            return allocation;
        }
        checkMachine(host);
        return TYPE_BIT | ((long) host << MACHINE_SHIFT) | allocation;
    }

    public static boolean isMigrated(long address) {
        return address < 0;
    }

    /** Whether the word says "no value": {@link #NONE} or a tombstone. */
    public static boolean isNone(long address) {
        return address == NONE || (address & CLASS_MASK) == CLASS_MASK;
    }

    /**
     * Whether the word is a tombstone, the word a DELETE installed: its {@link #host}, {@link #generation} and
     * {@link #byteOffset} are those of the record the DELETE removed (its size class is not kept).
     */
    public static boolean isTombstone(long address) {
        return address != NONE && (address & CLASS_MASK) == CLASS_MASK;
    }

    /** The tombstone a DELETE of the value at {@code address} installs: unique to that allocation, and no value. */
    public static long tombstone(long address) {
        return address | CLASS_MASK;
    }

    /** Machine the value lives on: the key's home for a local address, the encoded machine otherwise. */
    public static int host(long address, int home) {
        return address < 0 ? (int) ((address >>> MACHINE_SHIFT) & (MAX_MACHINES - 1)) : home;
    }

    public static int sizeClass(long address) {
        return (int) ((address >>> CLASS_SHIFT) & TOMBSTONE_CLASS);
    }

    public static int generation(long address) {
        return (int) ((address >>> GENERATION_SHIFT) & MAX_GENERATION);
    }

    /** Class, generation and offset as one number: equal for two words naming the same allocation. */
    public static long allocation(long address) {
        return address & ALLOCATION_MASK;
    }

    /** Whether two words name the same allocation (wherever each is seen from). */
    public static boolean sameAllocation(long a, long b) {
        return ((a ^ b) & ALLOCATION_MASK) == 0;
    }

    /** Record size in 8-byte units: its size class's, which the allocation has whatever the value's own size. */
    public static long sizeUnits(long address) {
        return SizeClasses.units(sizeClass(address));
    }

    public static long offsetUnits(long address) {
        return address & OFFSET_MASK;
    }

    public static long byteOffset(long address) {
        return offsetUnits(address) << 3;
    }

    /** Bytes a reader copies: the whole allocation of the record's size class. */
    public static long byteSize(long address) {
        return sizeUnits(address) << 3;
    }

    /** The generation that follows {@code generation} at a slot: 1..16383, wrapping to 1 (0 is never one). */
    public static int nextGeneration(int generation) {
        return generation >= MAX_GENERATION ? 1 : generation + 1;
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
        if (isTombstone(address)) {
            return "Address[tombstone of generation " + generation(address) + " at " + byteOffset(address)
                + (address < 0 ? " on " + host(address, -1) : "") + "]";
        }
        return (address < 0 ? "Address[migrated to " + host(address, -1) + ", " : "Address[local, ")
            + byteSize(address) + " B (class " + sizeClass(address) + ") generation " + generation(address) + " at "
            + byteOffset(address) + "]";
    }
}
