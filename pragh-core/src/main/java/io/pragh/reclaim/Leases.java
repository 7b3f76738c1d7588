package io.pragh.reclaim;

/**
 * The two leases of paper section 4.1-4.2 and the clock they are measured on.
 *
 * <ul>
 *   <li>The <b>cache lease</b> ({@link #cacheMillis}): a cached address is not used once that long has passed since
 *       it was read from the key region.</li>
 *   <li>The <b>reclaim lease</b> ({@link #reclaimMillis}): an invalidated record's memory is not reused before that
 *       long has passed since its machine's GC thread saw it; and a reader accepts a copy of a record only if the
 *       copy took less than that, from its start to its end ({@link #copyHolds}).</li>
 * </ul>
 * Why the reclaim lease is still needed, and why it no longer has to outlast the cache lease: an address names one
 * allocation by its generation (see {@code io.pragh.address.Address}), so a read or CAS through an address whose
 * record was freed and reused fails its check however old the address is. What the generation cannot catch is a
 * <em>torn</em> copy: a one-sided READ copies header and payload in no promised order, so a copy that read the header
 * before the record was invalidated could read payload bytes written after its memory was reused. A record is
 * invalidated before the GC sees it, and freed a reclaim lease later; a copy that took less than the lease and read
 * a valid header therefore ended before the free. So the lease bounds one copy, not the life of an address: memory
 * held by superseded records is the write rate times the reclaim lease (500 ms by default, was 10 s), not times
 * the cache lease.
 *
 * <p>The age of an address a reader may act on is bounded too ({@link #addressHolds}: the cache lease plus the
 * reclaim lease), for the one case where a superseded record could not be invalidated at all: a migration whose
 * source machine stopped answering after the CAS clears its new record's pending bit only once no reader can still
 * hold the source's address ({@code io.pragh.migration.UnfinishedMigrations}).
 *
 * <pre>{@code
 * Leases leases = new Leases(5_000, 500);
 * long start = Leases.nowMillis();
 * copyRecord();
 * boolean usable = leases.readHolds(obtainedAt, start);
 * }</pre>
 */
public record Leases(long cacheMillis, long reclaimMillis) {
    public static final long DEFAULT_CACHE_MILLIS = 5_000;
    public static final long DEFAULT_RECLAIM_MILLIS = 500;
    public static final Leases DEFAULT = new Leases(DEFAULT_CACHE_MILLIS, DEFAULT_RECLAIM_MILLIS);

    public Leases {
        if (cacheMillis <= 0) {
            throw new IllegalArgumentException("cache lease must be > 0 ms, got " + cacheMillis);
        }
        if (reclaimMillis <= 0) {
            throw new IllegalArgumentException("reclaim lease must be > 0 ms, got " + reclaimMillis
                + ": it bounds how long a reader may take to copy a record before its memory can be reused");
        }
    }

    /** Whether a copy of a record that started at {@code startedAtMillis} ended in time to be trusted (now). */
    public boolean copyHolds(long startedAtMillis) {
        return nowMillis() - startedAtMillis < reclaimMillis;
    }

    /** Whether an address read from a key region at {@code obtainedAtMillis} may still be acted on (now). */
    public boolean addressHolds(long obtainedAtMillis) {
        return nowMillis() - obtainedAtMillis < addressMillis();
    }

    /**
     * Both checks of a GET at once, on one reading of the clock: the copy that started at {@code copyStartedAtMillis}
     * took less than the reclaim lease, and the address it went through, read at {@code obtainedAtMillis}, is still
     * within {@link #addressMillis}.
     */
    public boolean readHolds(long obtainedAtMillis, long copyStartedAtMillis) {
        long now = nowMillis();
        return now - copyStartedAtMillis < reclaimMillis && now - obtainedAtMillis < cacheMillis + reclaimMillis;
    }

    /** The longest an address may be acted on after it was read from its key region: both leases. */
    public long addressMillis() {
        return cacheMillis + reclaimMillis;
    }

    /** Monotonic milliseconds; leases are durations, so only the rate of this clock matters across machines. */
    public static long nowMillis() {
        return System.nanoTime() / 1_000_000L;
    }
}
