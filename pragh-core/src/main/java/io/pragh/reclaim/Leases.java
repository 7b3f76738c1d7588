package io.pragh.reclaim;

/**
 * The two leases of paper section 4.1-4.2 and the clock they are measured on. A cached address is not used once
 * {@link #cacheMillis} passed since it was read from the key region; a reclaimed record is not reused before
 * {@link #reclaimMillis} passed since its machine's GC thread saw it in a reclaim ring. Because the record was
 * invalidated after the address was read, a reader that finishes within the reclaim lease of reading the address can
 * never see reused memory; GET checks exactly that after copying, so no operation needs a bounded duration.
 *
 * <pre>{@code
 * Leases leases = new Leases(5_000, 10_000);
 * }</pre>
 */
public record Leases(long cacheMillis, long reclaimMillis) {
    public static final long DEFAULT_CACHE_MILLIS = 5_000;
    public static final long DEFAULT_RECLAIM_MILLIS = 10_000;
    public static final Leases DEFAULT = new Leases(DEFAULT_CACHE_MILLIS, DEFAULT_RECLAIM_MILLIS);

    public Leases {
        if (cacheMillis <= 0) {
            throw new IllegalArgumentException("cache lease must be > 0 ms, got " + cacheMillis);
        }
        if (reclaimMillis < cacheMillis) {
            throw new IllegalArgumentException("reclaim lease (" + reclaimMillis + " ms) must be at least the cache"
                + " lease (" + cacheMillis + " ms): a cached address must never outlive the memory it points to");
        }
    }

    /** Whether an address read at {@code obtainedAtMillis} still names memory that cannot have been reused. */
    public boolean reclaimHolds(long obtainedAtMillis) {
        return nowMillis() - obtainedAtMillis < reclaimMillis;
    }

    /** Monotonic milliseconds; leases are durations, so only the rate of this clock matters across machines. */
    public static long nowMillis() {
        return System.nanoTime() / 1_000_000L;
    }
}
