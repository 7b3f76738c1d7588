package io.pragh.values;

import io.pragh.LimitExceededException;
import io.pragh.address.Address;
import io.pragh.address.SizeClasses;
import io.pragh.memory.ChunkedRegion;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The value region of one machine and its allocator. Records are carved from chunks by a bump pointer and recycled
 * through one free list per size class; a record never crosses a chunk, so a NIC registration per chunk covers it.
 * A slot, once carved, keeps its offset and size class for good, and its header keeps the slot's generation
 * whatever state it is in (see {@link ValueRecord}): {@link #allocate} hands out the slot's current generation in the
 * address it returns, and {@link #free} advances it, so an address of a freed record never names the slot again. The
 * free list is intrusive: a free record's key word links to the next free record of its class.
 *
 * <p>Who frees what, and how each free checks that the record is still the one it means:
 * <ul>
 *   <li>{@link #free}: the GC thread, for a record that was invalidated (so possibly published, and read), once its
 *       reclaim lease has passed. Only when the slot's header still has the address's generation and is invalidated:
 *       a record posted twice (by a lost ring reply, or by two parties that each invalidated it) is freed once, and
 *       a post that arrives after the slot was handed out again frees nothing.</li>
 *   <li>{@link #release}: the operation that allocated a record and never published it (its CAS lost, or was never
 *       made). The generation stays: no address word and no reader ever had this allocation's address.</li>
 *   <li>{@link #invalidate}: whoever replaced or found leaked a live record, by CAS on its header, only while it is
 *       still live with the address's generation.</li>
 * </ul>
 * The generation advances only when a published record is freed, so it wraps only after a slot was published and
 * freed {@link Address#MAX_GENERATION} times, each after a reclaim lease.
 *
 * <p>Why a slot never changes class, not even once every slot of its chunk is free: a one-sided CAS of a record's
 * header may land arbitrarily late (its issuer told it failed, its frame still on the way), and it must land on a
 * header of its own class, where the generation refuses it, never inside the payload of a record carved later over
 * the same bytes. docs/design.md ("Fragmentation, a known limit, and why a free chunk is not re-carved") lists every
 * holder of an address and its bound.
 *
 * <p>Allocation takes a per-class lock: allocation happens on PUT and MIGRATE, never on GET.
 *
 * <p>Superseded records are freed once their reclaim lease has passed, so the memory they hold grows with the write
 * rate times that lease. When they fill the region, a writer waits for the reclaimer ({@link #applyBackPressure})
 * instead of failing: the write rate is held to the rate at which garbage can be freed. Only a region full of live
 * records is a hard limit.
 *
 * <p>Every record ever carved from a chunk keeps its start for good, so one bit per 8-byte unit marking record starts
 * is enough to {@linkplain #forEachRecord walk} every record the region hosts: what the background leak scan needs.
 *
 * <pre>{@code
 * try (ValueRegion values = new ValueRegion(256L << 20, 1 << 30)) {
 *     long address = values.allocate(ValueRecord.unitsFor(100));   // Address.local(class, generation, offset)
 *     values.release(address);                                     // never published: back to its class
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
    /** Largest size class a chunk holds. */
    private final int maxClass;
    /**
     * Generation of every slot carved from the bump pointer: random per region, so that addresses of a machine that
     * restarted (its region new) are unlikely to match the new region's slots.
     */
    private final int firstGeneration = ThreadLocalRandom.current().nextInt(1, Address.MAX_GENERATION + 1);
    private final long[] freeHeads;
    private final Object[] classLocks;
    private final Object bumpLock = new Object();
    private long bump = FIRST_OFFSET;
    /** Chunk tails the bump pointer skipped because a record does not cross a chunk. Under {@link #bumpLock}. */
    private long skippedBytes;
    private final AtomicLong liveBytes = new AtomicLong();
    /** Bit per 8-byte unit: set where a record starts. Written under {@link #bumpLock}, read after taking it. */
    private final long[] starts;
    private final AtomicLong refusedFrees = new AtomicLong();
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
         * @param header      its header word (always {@linkplain ValueRecord#isLive live}: others are skipped)
         */
        void visit(long offsetUnits, long header, long key, long version);
    }

    public ValueRegion(long capacity, int maxChunkBytes) {
        this(capacity, maxChunkBytes, false);
    }

    /** As {@link #ValueRegion(long, int)}, on transparent huge pages when {@code hugePages} (see {@code HugePages}). */
    public ValueRegion(long capacity, int maxChunkBytes, boolean hugePages) {
        if (capacity > Address.MAX_REGION_BYTES) {
            throw new LimitExceededException("value region of " + capacity + " bytes exceeds the "
                + Address.MAX_REGION_BYTES + "-byte (128 GiB) limit of a 34-bit offset in 8-byte units");
        }
        this.region = ChunkedRegion.allocate("values", capacity, maxChunkBytes, hugePages);
        int largest = SizeClasses.classOf(region.chunkBytes() >>> 3);
        this.maxClass = SizeClasses.units(largest) > region.chunkBytes() >>> 3 ? largest - 1 : largest;
        this.freeHeads = new long[SizeClasses.COUNT];
        this.starts = new long[(int) ((region.capacity() >>> 3) + 63 >>> 6)];
        this.classLocks = new Object[SizeClasses.COUNT];
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
     * a writer slows down to the rate at which garbage can be freed rather than failing. The slot's header then holds
     * its generation and class but is not live: the caller writes the record, header last.
     *
     * @return the record's local address word: its size class, generation and offset
     * @throws LimitExceededException when the record is larger than a chunk or the region is full of live records
     * @throws RegionFullException    (retryable) when the region stayed full for the whole wait
     */
    public long allocate(long units) {
        int sizeClass = SizeClasses.classOf(units);
        if (sizeClass < 0 || sizeClass > maxClass) {
            throw new LimitExceededException("value record of " + (units << 3) + " bytes is larger than a value"
                + " region chunk (" + region.chunkBytes() + " bytes)");
        }
        long address = tryAllocate(sizeClass);
        return address != Address.NONE ? address : awaitReclaim(sizeClass);
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

    /**
     * The class's free list, then the bump pointer, then the free list of the smallest larger class that has a free
     * record. The last matters once the bump pointer has reached the end: slots keep their class for good, so a
     * region whose memory was carved into the classes of earlier, smaller records (lists that grew, values that
     * migrated away) would otherwise refuse a record with most of its memory free. A record in a larger slot is
     * correct as it is (its address names the slot's class, readers take the length from the header, and an append
     * grows into the extra room); the room it wastes is returned when the record is freed.
     *
     * @return the record's address, or NONE when no free list and not the bump pointer has room
     */
    private long tryAllocate(int sizeClass) {
        long address = popFree(sizeClass);
        if (address != Address.NONE) {
            return address;
        }
        address = bumpAllocate(sizeClass);
        for (int larger = sizeClass + 1; address == Address.NONE && larger <= maxClass; larger++) {
            if (freeHeads[larger] != 0) { // a plain, racy look first: most classes are empty, and popFree re-checks
                address = popFree(larger);
            }
        }
        return address;
    }

    /** A record from the class's free list, or NONE when it is empty. */
    private long popFree(int sizeClass) {
        synchronized (classLocks[sizeClass]) {
            long head = freeHeads[sizeClass];
            if (head == 0) {
                return Address.NONE;
            }
            freeHeads[sizeClass] = region.getLong(head + ValueRecord.KEY_OFFSET);
            int generation = ValueRecord.generationOf(region.getLong(head));
            // Release: no longer free, so a late free or release of an older allocation here is refused.
            region.putLongVolatile(head, ValueRecord.allocatedHeader(generation, sizeClass));
            liveBytes.addAndGet(SizeClasses.units(sizeClass) << 3);
            return Address.local(sizeClass, generation, head >>> 3);
        }
    }

    /** A new slot of the class carved by the bump pointer, or NONE when the region has no room left for one. */
    private long bumpAllocate(int sizeClass) {
        long classBytes = SizeClasses.units(sizeClass) << 3;
        synchronized (bumpLock) {
            long start = bump;
            long chunkEnd = ((start >>> region.chunkShift()) + 1) << region.chunkShift();
            if (start + classBytes > chunkEnd) {
                start = chunkEnd;
            }
            if (start + classBytes > region.capacity()) {
                return Address.NONE;
            }
            skippedBytes += start - bump;
            bump = start + classBytes;
            liveBytes.addAndGet(classBytes);
            long unit = start >>> 3;
            region.putLongVolatile(start, ValueRecord.allocatedHeader(firstGeneration, sizeClass));
            starts[(int) (unit >>> 6)] |= 1L << unit;
            return Address.local(sizeClass, firstGeneration, unit);
        }
    }

    /**
     * Back-pressure: waits for {@link #free} to return a record of the class, woken by each free. Gives up at once
     * without a backlog, after {@link #EMPTY_BACKLOG_GRACE_NANOS} when the backlog stays empty (the region is full
     * of live records: waiting cannot help), and after the patience otherwise.
     */
    private long awaitReclaim(int sizeClass) {
        long classBytes = SizeClasses.units(sizeClass) << 3;
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
                    long address = tryAllocate(sizeClass);
                    if (address != Address.NONE) {
                        return address;
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

    /**
     * The refusal of a region whose bump pointer is at its end and whose free lists have no slot of the class or a
     * larger one. Either live records fill it, or free slots do but all of smaller classes (a slot keeps the class it
     * was first carved for: no reader's stale address may land inside a record, see the class comment): the message
     * says which, so that an operator sizes the region rather than looking for a leak.
     */
    private LimitExceededException fullOfLiveRecords(long classBytes) {
        long carved;
        synchronized (bumpLock) {
            carved = bump - FIRST_OFFSET - skippedBytes;
        }
        long live = liveBytes.get();
        long free = carved - live;
        if (free >= classBytes) {
            return new LimitExceededException("value region is full: " + region.capacity() + " bytes, " + live
                + " live; cannot allocate " + classBytes + " more: " + free + " bytes are free, but only in slots"
                + " of smaller size classes (a slot keeps the class it was first carved for; give the region more"
                + " room than its live records and their superseded copies need at the write rate)");
        }
        return new LimitExceededException("value region is full: " + region.capacity() + " bytes, "
            + live + " live; cannot allocate " + classBytes + " more");
    }

    /**
     * The GC's free: returns an invalidated record to its size class and advances the slot's generation, but only if
     * the slot still holds the allocation {@code address} names and it was invalidated (not live, not already free).
     * Anything else is a post that arrived twice or late, and frees nothing ({@link #refusedFrees} counts them).
     * Call only once no reader can still be copying the record: after its reclaim lease.
     *
     * @return whether the record was freed
     */
    public boolean free(long address) {
        int sizeClass = Address.sizeClass(address);
        long offset = Address.byteOffset(address);
        region.checkRange(offset, (int) Math.min(Integer.MAX_VALUE, Address.byteSize(address)));
        synchronized (classLocks[sizeClass]) {
            long header = region.getLongVolatile(offset);
            if (ValueRecord.isLive(header) || !ValueRecord.isSameAllocation(header, address)) {
                refusedFrees.incrementAndGet();
                return false;
            }
            push(offset, sizeClass, Address.nextGeneration(Address.generation(address)));
        }
        freed(sizeClass);
        return true;
    }

    /**
     * The owner's free of a record it allocated and never published (no address word ever named it, so no reader
     * can hold its address): back to its size class with the same generation.
     *
     * @throws IllegalStateException when the slot does not hold that allocation (a bug: nobody else frees it)
     */
    public void release(long address) {
        release(address, true);
    }

    /**
     * {@link #release} of a record whose header a one-sided copy overwrote (a migration READs the source record,
     * header included, into its new allocation): {@code address} alone says which allocation this is.
     */
    public void releaseCopy(long address) {
        release(address, false);
    }

    private void release(long address, boolean checkHeader) {
        int sizeClass = Address.sizeClass(address);
        long offset = Address.byteOffset(address);
        region.checkRange(offset, (int) Math.min(Integer.MAX_VALUE, Address.byteSize(address)));
        synchronized (classLocks[sizeClass]) {
            long header = region.getLongVolatile(offset);
            if (checkHeader && !ValueRecord.isSameAllocation(header, address)) {
                throw new IllegalStateException("release of " + Address.toString(address) + ", but the slot's header"
                    + " says it is not that allocation, or is free: " + Long.toHexString(header));
            }
            push(offset, sizeClass, Address.generation(address));
        }
        freed(sizeClass);
    }

    /** Under the class lock. */
    private void push(long offset, int sizeClass, int generation) {
        // Release: a reader that sees the free header no longer sees the record's key and payload as valid.
        region.putLongVolatile(offset, ValueRecord.freeHeader(generation, sizeClass));
        region.putLong(offset + ValueRecord.KEY_OFFSET, freeHeads[sizeClass]);
        freeHeads[sizeClass] = offset;
    }

    private void freed(int sizeClass) {
        liveBytes.addAndGet(-(SizeClasses.units(sizeClass) << 3));
        if (waiters.get() > 0) {
            synchronized (freedSignal) {
                freedSignal.notifyAll();
            }
        }
    }

    /**
     * Invalidates the live record {@code address} names (clears its live and pending bits, keeping generation and
     * class) by CAS on its header, whatever its pending bit says, as long as the slot still holds that allocation live.
     *
     * @return whether this call invalidated it (false: it was invalidated already, or is another allocation now)
     */
    public boolean invalidate(long address) {
        long offset = Address.byteOffset(address);
        long header = region.getLongVolatile(offset);
        while (ValueRecord.isLiveAt(header, address)) {
            long witness = region.compareAndExchangeLong(offset, header, ValueRecord.invalidated(header));
            if (witness == header) {
                return true;
            }
            header = witness;
        }
        return false;
    }

    /** Whether the slot still holds the allocation {@code address} names, invalidated (not live, not free). */
    public boolean invalidated(long address) {
        long header = region.getLongVolatile(Address.byteOffset(address));
        return !ValueRecord.isLive(header) && ValueRecord.isSameAllocation(header, address);
    }

    /** Frees refused because the record was live, already free, or another allocation (see {@link #free}). */
    public long refusedFrees() {
        return refusedFrees.get();
    }

    /**
     * Visits every live record (allocated and not invalidated), with its header, key and version, in
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
                if (ValueRecord.isLive(header)) {
                    visitor.visit(unit, header, region.getLong(offset + ValueRecord.KEY_OFFSET),
                        ValueRecord.versionOf(header, region.getLong(offset + ValueRecord.VERSION_OFFSET)));
                    visited++;
                }
            }
        }
        return visited;
    }

    @Override
    public void close() {
        region.close();
    }
}
