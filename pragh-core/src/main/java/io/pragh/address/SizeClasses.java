package io.pragh.address;

import java.util.Arrays;

/**
 * The size classes of value records, in 8-byte units, one table for the whole cluster (an address word names a class,
 * so every machine must read it alike): exact from 2 to 32 units (256 B, the common adjacency list of a low-degree
 * vertex), then growing by an eighth, so no allocation wastes more than about 12%, up to {@link #MAX_UNITS} (1 GiB,
 * the largest value region chunk). 162 classes: they fit the address word's 8-bit class field with 255 to spare for
 * tombstones.
 *
 * <pre>{@code
 * int c = SizeClasses.classOf(ValueRecord.unitsFor(100));   // 16 units (128 B) -> class 14
 * long units = SizeClasses.units(c);                        // 16
 * }</pre>
 */
public final class SizeClasses {
    /** Largest record: 1 GiB in 8-byte units, the largest chunk a value region may have. */
    public static final long MAX_UNITS = 1L << 27;
    private static final int EXACT_LIMIT = 32;
    private static final long[] CLASS_UNITS = table();
    /** Number of classes. */
    public static final int COUNT = CLASS_UNITS.length;

    private SizeClasses() {
    }

    private static long[] table() {
        long[] tmp = new long[256];
        int n = 0;
        for (long u = 2; u <= EXACT_LIMIT; u++) {
            tmp[n++] = u;
        }
        long u = EXACT_LIMIT;
        while (u < MAX_UNITS) {
            u = Math.min(MAX_UNITS, u + Math.max(1, u >>> 3));
            tmp[n++] = u;
        }
        if (n >= Address.TOMBSTONE_CLASS) {
            throw new AssertionError(n + " size classes do not fit the address word's class field");
        }
        return Arrays.copyOf(tmp, n);
    }

    /** Record units of a class. */
    public static long units(int sizeClass) {
        return CLASS_UNITS[sizeClass];
    }

    /** Smallest class holding {@code units}, or -1 when it is larger than {@link #MAX_UNITS}. */
    public static int classOf(long units) {
        if (units <= 2) {
            return 0;
        }
        if (units <= EXACT_LIMIT) {
            return (int) (units - 2);
        }
        if (units > MAX_UNITS) {
            return -1;
        }
        int lo = EXACT_LIMIT - 1;
        int hi = CLASS_UNITS.length - 1;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (CLASS_UNITS[mid] >= units) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo;
    }
}
