package io.pragh.values;

import io.pragh.LimitExceededException;
import io.pragh.address.Address;
import io.pragh.memory.ChunkedRegion;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.agrona.collections.LongHashSet;

/**
 * The value region of one machine and its allocator. Records are carved from chunks by a bump pointer and recycled
 * through one free list per size class; a record never crosses a chunk, so a NIC registration per chunk covers it.
 * The free list is intrusive: a freed record's key word links to the next free record (its header word is already
 * zero, so a stale reader still fails its check). Frees only happen after the reclaim lease, so no reader can
 * still hold a freed record's address.
 *
 * <p>Allocation takes a per-class lock: allocation happens on PUT and MIGRATE, never on GET.
 *
 * <p>Superseded records are freed only once their reclaim lease has passed, so the memory they hold grows with the
 * write rate. When they fill the region, a writer waits for the reclaimer ({@link #applyBackPressure}) instead of
 * failing: the write rate is held to the rate at which garbage can be freed. Only a region full of live records is a
 * hard limit.
 *
 * <p>Every record ever carved from a chunk keeps its start for good (a freed record returns to its own class and is
 * handed out again at the same offset), so one bit per 8-byte unit marking record starts is enough to
 * {@linkplain #forEachRecord walk} every record the region hosts: what the background leak scan needs. A record can
 * also be {@linkplain #watch watched}: the allocator then notes when it is handed out again, which tells the scan
 * that a record it saw unreferenced earlier is not a new allocation that only looks the same.
 *
 * <pre>{@code
 * try (ValueRegion values = new ValueRegion(256L << 20, 1 << 30)) {
 *     long offsetUnits = values.allocate(ValueRecord.unitsFor(100));
 * }
 * }</pre>
 */
public final class ValueRegion implements AutoCloseable {
    /** Offset 0 is never handed out, so that no valid address word can be 0. */
    private static final long FIRST_OFFSET = 64;
    /**
     * How long a full region with an empty backlog still waits: records posted to a reclaim ring are counted only
     * once the GC thread has taken them, a few milliseconds later (longer on a loaded machine).
     */
    private static final long EMPTY_BACKLOG_GRACE_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** A waiting writer rechecks at least this often (the backlog, the patience), notified or not. */
    private static final long WAIT_SLICE_MILLIS = 50;

    private final ChunkedRegion region;
    private final SizeClasses classes;
    private final long[] freeHeads;
    private final Object[] classLocks;
    private final Object bumpLock = new Object();
    private long bump = FIRST_OFFSET;
    private final AtomicLong liveBytes = new AtomicLong();
    /** Bit per 8-byte unit: set where a record starts. Written under {@link #bumpLock}, read after taking it. */
    private final long[] starts;
    /** Records watched for reuse; {@link #watchedCount} keeps the allocator's check to one volatile read. */
    private final LongHashSet watched = new LongHashSet();
    private volatile int watchedCount;
    /** Set once when the store starts its reclaimer; null: a full region fails at once. */
    private volatile ReclaimBacklog backlog;
    private volatile long patienceNanos;
    /** Writers waiting in {@link #awaitReclaim}; {@link #free} notifies only when there are any. */
    private final AtomicInteger waiters = new AtomicInteger();
    private final AtomicLong backPressureWaits = new AtomicLong();
    private final Object freedSignal = new Object();

    /** What a full region may wait for: the bytes of superseded records that the reclaimer will free. */
    @FunctionalInterface
    public interface ReclaimBacklog {
        long awaitingReclaimBytes();
    }

    /** Receives the records of {@link #forEachRecord}. */
    @FunctionalInterface
    public interface RecordVisitor {
        /**
         * @param offsetUnits the record's offset in 8-byte units
         * @param header      its header word (never 0: invalidated and free records are skipped)
         */
        void visit(long offsetUnits, long header, long key, long version);
    }

    public ValueRegion(long capacity, int maxChunkBytes) {
        if (capacity > Address.MAX_REGION_BYTES) {
            throw new LimitExceededException("value region of " + capacity + " bytes exceeds the "
                + Address.MAX_REGION_BYTES + "-byte (128 GiB) limit of a 34-bit offset in 8-byte units");
        }
        this.region = ChunkedRegion.allocate("values", capacity, maxChunkBytes);
        this.classes = new SizeClasses(Math.min(Address.MAX_LOCAL_UNITS, region.chunkBytes() >>> 3));
        this.freeHeads = new long[classes.count()];
        this.starts = new long[(int) ((region.capacity() >>> 3) + 63 >>> 6)];
        this.classLocks = new Object[classes.count()];
        for (int i = 0; i < classLocks.length; i++) {
            classLocks[i] = new Object();
        }
    }

    public ChunkedRegion region() {
        return region;
    }

    /** Bytes held by live (allocated, not yet freed) records, counting their size-class rounding. */
    public long liveBytes() {
        return liveBytes.get();
    }

    /**
     * Allocates a record of at least {@code units} 8-byte units. When the region is full but superseded records wait
     * in the reclaimer (see {@link #applyBackPressure}), waits for them to be freed, up to the back-pressure patience:
     * a writer slows down to the rate at which garbage can be freed rather than failing.
     *
     * @return its offset in 8-byte units
     * @throws LimitExceededException when the record is larger than a chunk or the region is full of live records
     * @throws RegionFullException    (retryable) when the region stayed full for the whole wait
     */
    public long allocate(long units) {
        int sizeClass = classes.classOf(units);
        if (sizeClass < 0) {
            throw new LimitExceededException("value record of " + (units << 3) + " bytes is larger than a value"
                + " region chunk (" + region.chunkBytes() + " bytes)");
        }
        long unit = tryAllocate(sizeClass);
        return unit >= 0 ? unit : awaitReclaim(sizeClass);
    }

    /**
     * Makes a full region wait for the reclaimer instead of failing at once: {@code backlog} tells how many bytes of
     * superseded records are still to be freed, and a writer waits up to {@code patienceNanos} (at least the reclaim
     * lease, so that garbage made just before the region filled can be freed meanwhile).
     */
    public void applyBackPressure(ReclaimBacklog backlog, long patienceNanos) {
        this.patienceNanos = patienceNanos;
        this.backlog = backlog;
    }

    /** Allocations that found the region full and waited for the reclaimer (whether they then got memory or not). */
    public long backPressureWaits() {
        return backPressureWaits.get();
    }

    /** @return the record's offset in 8-byte units, or -1 when neither the free list nor the bump pointer has room */
    private long tryAllocate(int sizeClass) {
        long classBytes = classes.units(sizeClass) << 3;
        synchronized (classLocks[sizeClass]) {
            long head = freeHeads[sizeClass];
            if (head != 0) {
                freeHeads[sizeClass] = region.getLong(head + ValueRecord.KEY_OFFSET);
                liveBytes.addAndGet(classBytes);
                if (watchedCount > 0) {
                    reused(head >>> 3);
                }
                return head >>> 3;
            }
        }
        synchronized (bumpLock) {
            long start = bump;
            long chunkEnd = ((start >>> region.chunkShift()) + 1) << region.chunkShift();
            if (start + classBytes > chunkEnd) {
                start = chunkEnd;
            }
            if (start + classBytes > region.capacity()) {
                return -1;
            }
            bump = start + classBytes;
            liveBytes.addAndGet(classBytes);
            long unit = start >>> 3;
            starts[(int) (unit >>> 6)] |= 1L << unit;
            return unit;
        }
    }

    /**
     * Back-pressure: waits for {@link #free} to return a record of the class, woken by each free. Gives up at once
     * without a backlog, after {@link #EMPTY_BACKLOG_GRACE_NANOS} when the backlog stays empty (the region is full
     * of live records: waiting cannot help), and after the patience otherwise.
     */
    private long awaitReclaim(int sizeClass) {
        long classBytes = classes.units(sizeClass) << 3;
        ReclaimBacklog b = backlog;
        if (b == null || patienceNanos <= 0) {
            throw fullOfLiveRecords(classBytes);
        }
        long start = System.nanoTime();
        backPressureWaits.incrementAndGet();
        waiters.incrementAndGet();
        try {
            synchronized (freedSignal) {
                while (true) {
                    // Tried under the signal's monitor: a free that lands after this try notifies after our wait.
                    long unit = tryAllocate(sizeClass);
                    if (unit >= 0) {
                        return unit;
                    }
                    long waited = System.nanoTime() - start;
                    long awaiting = b.awaitingReclaimBytes();
                    if (awaiting == 0 && waited >= EMPTY_BACKLOG_GRACE_NANOS) {
                        throw fullOfLiveRecords(classBytes);
                    }
                    if (waited >= patienceNanos) {
                        throw new RegionFullException("value", region.capacity(), liveBytes.get(), awaiting,
                            classBytes, TimeUnit.NANOSECONDS.toMillis(waited));
                    }
                    long leftMillis = TimeUnit.NANOSECONDS.toMillis(patienceNanos - waited);
                    freedSignal.wait(Math.max(1, Math.min(WAIT_SLICE_MILLIS, leftMillis)));
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RegionFullException("value", region.capacity(), liveBytes.get(), b.awaitingReclaimBytes(),
                classBytes, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
        } finally {
            waiters.decrementAndGet();
        }
    }

    private LimitExceededException fullOfLiveRecords(long classBytes) {
        return new LimitExceededException("value region is full: " + region.capacity() + " bytes, "
            + liveBytes.get() + " live; cannot allocate " + classBytes + " more");
    }

    /** Returns a record to its size class. Only after the reclaim lease, or for a record never published. */
    public void free(long offsetUnits, long units) {
        int sizeClass = classes.classOf(units);
        long offset = offsetUnits << 3;
        region.checkRange(offset, (int) Math.min(Integer.MAX_VALUE, units << 3));
        region.putLongVolatile(offset, 0);
        synchronized (classLocks[sizeClass]) {
            region.putLong(offset + ValueRecord.KEY_OFFSET, freeHeads[sizeClass]);
            freeHeads[sizeClass] = offset;
        }
        liveBytes.addAndGet(-(classes.units(sizeClass) << 3));
        if (waiters.get() > 0) {
            synchronized (freedSignal) {
                freedSignal.notifyAll();
            }
        }
    }

    /**
     * Visits every record that is allocated and not invalidated (header word not 0), with its key and version, in
     * offset order. Runs beside allocation, updates and frees: a record may change or go while it is visited, so a
     * visitor that acts on one checks its header again (see {@code io.pragh.store.LeakScanner}). Returns the records
     * visited.
     *
     * <pre>{@code
     * values.forEachRecord((offsetUnits, header, key, version) -> count[0]++);
     * }</pre>
     */
    public long forEachRecord(RecordVisitor visitor) {
        long end;
        synchronized (bumpLock) {
            end = bump >>> 3; // taking the lock makes every start bit below the bump visible
        }
        long visited = 0;
        for (int w = (int) ((FIRST_OFFSET >>> 3) >>> 6); w < starts.length && ((long) w << 6) < end; w++) {
            long bits = starts[w];
            while (bits != 0) {
                long unit = ((long) w << 6) + Long.numberOfTrailingZeros(bits);
                bits &= bits - 1;
                if (unit >= end) {
                    break;
                }
                long offset = unit << 3;
                // Acquire: a header seen set comes with the key and version written before it.
                long header = region.getLongVolatile(offset);
                if (header != 0) {
                    visitor.visit(unit, header, region.getLong(offset + ValueRecord.KEY_OFFSET),
                        region.getLong(offset + ValueRecord.VERSION_OFFSET));
                    visited++;
                }
            }
        }
        return visited;
    }

    /** Record units of the size class a record of {@code units} was allocated in. */
    public long classUnits(long units) {
        int c = classes.classOf(units);
        return c < 0 ? units : classes.units(c);
    }

    /** Starts noting whether the record at {@code offsetUnits} is handed out again (see {@link #watched}). */
    public void watch(long offsetUnits) {
        synchronized (watched) {
            if (watched.add(offsetUnits)) {
                watchedCount = watched.size();
            }
        }
    }

    /**
     * Whether the record is watched and has not been handed out again since {@link #watch}: true means the record at
     * that offset is still the very allocation that was there when the watch began.
     */
    public boolean watched(long offsetUnits) {
        synchronized (watched) {
            return watched.contains(offsetUnits);
        }
    }

    /** Ends a watch. */
    public void unwatch(long offsetUnits) {
        reused(offsetUnits);
    }

    private void reused(long offsetUnits) {
        synchronized (watched) {
            if (watched.remove(offsetUnits)) {
                watchedCount = watched.size();
            }
        }
    }

    @Override
    public void close() {
        region.close();
    }
}
