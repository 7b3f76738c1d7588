package io.pragh.values;

/**
 * Size classes of the value allocator, in 8-byte units: exact up to 32 units (256 B, the common adjacency list of
 * a low-degree vertex), then growing by an eighth, so no allocation wastes more than about 12%.
 */
public final class SizeClasses {
    private final long[] classUnits;
    private final int exactLimit;

    public SizeClasses(long maxUnits) {
        exactLimit = 32;
        long[] tmp = new long[256];
        int n = 0;
        for (long u = 2; u <= Math.min(exactLimit, maxUnits); u++) {
            tmp[n++] = u;
        }
        long u = exactLimit;
        while (u < maxUnits) {
            u = Math.min(maxUnits, u + Math.max(1, u >>> 3));
            if (n == tmp.length) {
                tmp = java.util.Arrays.copyOf(tmp, n * 2);
            }
            tmp[n++] = u;
        }
        classUnits = java.util.Arrays.copyOf(tmp, n);
    }

    public int count() {
        return classUnits.length;
    }

    public long units(int sizeClass) {
        return classUnits[sizeClass];
    }

    /** Smallest class holding {@code units}, or -1 when it is larger than the largest class. */
    public int classOf(long units) {
        if (units <= 2) {
            return 0;
        }
        if (units <= exactLimit) {
            return (int) (units - 2);
        }
        int lo = exactLimit - 1;
        int hi = classUnits.length - 1;
        if (classUnits[hi] < units) {
            return -1;
        }
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (classUnits[mid] >= units) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo;
    }
}
