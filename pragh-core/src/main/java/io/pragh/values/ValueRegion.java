package io.pragh.values;

import io.pragh.LimitExceededException;
import io.pragh.address.Address;
import io.pragh.memory.ChunkedRegion;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The value region of one machine and its allocator. Records are carved from chunks by a bump pointer and recycled
 * through one free list per size class; a record never crosses a chunk, so a NIC registration per chunk covers it.
 * The free list is intrusive: a freed record's key word links to the next free record (its header word is already
 * zero, so a stale reader still fails its check). Frees only happen after the reclaim lease, so no reader can
 * still hold a freed record's address.
 *
 * <p>Allocation takes a per-class lock: allocation happens on PUT and MIGRATE, never on GET.
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

    private final ChunkedRegion region;
    private final SizeClasses classes;
    private final long[] freeHeads;
    private final Object[] classLocks;
    private final Object bumpLock = new Object();
    private long bump = FIRST_OFFSET;
    private final AtomicLong liveBytes = new AtomicLong();

    public ValueRegion(long capacity, int maxChunkBytes) {
        if (capacity > Address.MAX_REGION_BYTES) {
            throw new LimitExceededException("value region of " + capacity + " bytes exceeds the "
                + Address.MAX_REGION_BYTES + "-byte (128 GiB) limit of a 34-bit offset in 8-byte units");
        }
        this.region = ChunkedRegion.allocate("values", capacity, maxChunkBytes);
        this.classes = new SizeClasses(Math.min(Address.MAX_LOCAL_UNITS, region.chunkBytes() >>> 3));
        this.freeHeads = new long[classes.count()];
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
     * Allocates a record of at least {@code units} 8-byte units.
     *
     * @return its offset in 8-byte units
     * @throws LimitExceededException when the record is larger than a chunk or the region is full
     */
    public long allocate(long units) {
        int sizeClass = classes.classOf(units);
        if (sizeClass < 0) {
            throw new LimitExceededException("value record of " + (units << 3) + " bytes is larger than a value"
                + " region chunk (" + region.chunkBytes() + " bytes)");
        }
        long classBytes = classes.units(sizeClass) << 3;
        synchronized (classLocks[sizeClass]) {
            long head = freeHeads[sizeClass];
            if (head != 0) {
                freeHeads[sizeClass] = region.getLong(head + ValueRecord.KEY_OFFSET);
                liveBytes.addAndGet(classBytes);
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
                throw new LimitExceededException("value region is full: " + region.capacity() + " bytes, "
                    + liveBytes.get() + " live; cannot allocate " + classBytes + " more");
            }
            bump = start + classBytes;
            liveBytes.addAndGet(classBytes);
            return start >>> 3;
        }
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
    }

    @Override
    public void close() {
        region.close();
    }
}
