package io.pragh.memory;

import io.pragh.LimitExceededException;
import java.util.concurrent.atomic.AtomicLong;
import org.agrona.BitUtil;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.UnsafeAccess;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Off-heap memory of one region (keys, values or reclaim rings) made of equal power-of-two chunks, so a region may
 * exceed the 2 GiB a single buffer can index and a NIC can register it chunk by chunk. An access never crosses a
 * chunk boundary: allocators place records inside one chunk.
 *
 * <p>Memory comes from {@code Unsafe.allocateMemory}, outside the JVM's direct-memory limit, and reads as zero from
 * the start without being written: a region costs resident memory only for the pages its records and buckets
 * touch, so an empty machine is small whatever its configured capacity (see {@link #clearUntouched}). Benchmarks,
 * which must never time a first-touch page fault, {@linkplain #pretouch pre-touch} what they will use.
 *
 * <pre>{@code
 * try (ChunkedRegion r = ChunkedRegion.allocate("values", 1L << 32, 1 << 30)) {
 *     r.putLongVolatile(8, 42);
 * }
 * }</pre>
 */
public final class ChunkedRegion implements AutoCloseable {
    /** Chunk shift of a region smaller than one chunk: every offset it can hold maps to its only chunk. */
    public static final int SINGLE_CHUNK_SHIFT = 62;
    private static final AtomicLong LIVE_BYTES = new AtomicLong();
    private static final int ALIGNMENT = 64;
    private static final int PAGE_BYTES = 4096;

    private final String name;
    private final int chunkShift;
    private final long chunkMask;
    private final int chunkSize;
    private final long capacity;
    private final long[] rawAddresses;
    private final UnsafeBuffer[] chunks;
    /** Bytes reserved beyond each chunk to align it: 64 bytes, or a huge page's worth on huge pages. */
    private final int alignment;
    private final boolean hugePages;
    private boolean closed;

    private ChunkedRegion(String name, long capacity, int chunkBytes, boolean wantHugePages) {
        this.name = name;
        int count;
        if (capacity < chunkBytes) {
            // One chunk of exactly the (page-rounded) size asked for; every offset maps to chunk 0.
            this.chunkShift = SINGLE_CHUNK_SHIFT;
            this.chunkMask = (1L << SINGLE_CHUNK_SHIFT) - 1;
            this.chunkSize = (int) BitUtil.align(capacity, 4096);
            count = 1;
        } else {
            this.chunkShift = Integer.numberOfTrailingZeros(chunkBytes);
            this.chunkMask = chunkBytes - 1L;
            this.chunkSize = chunkBytes;
            count = (int) ((capacity + chunkMask) >>> chunkShift);
        }
        this.capacity = (long) count * chunkSize;
        int chunkBytesAllocated = chunkSize;
        // Huge pages only for chunks of whole huge pages: a smaller one would still get none.
        boolean huge = wantHugePages && chunkSize >= HugePages.BYTES && HugePages.available();
        this.alignment = huge ? HugePages.BYTES : ALIGNMENT;
        this.rawAddresses = new long[count];
        this.chunks = new UnsafeBuffer[count];
        try {
            for (int i = 0; i < count; i++) {
                // The extra alignment is address space only: its pages are never touched.
                long raw = UnsafeAccess.UNSAFE.allocateMemory(chunkBytesAllocated + alignment);
                rawAddresses[i] = raw;
                LIVE_BYTES.addAndGet(chunkBytesAllocated + alignment);
                long aligned = BitUtil.align(raw, alignment);
                // Before the first touch, clearUntouched's reads included: a page faulted in small stays small.
                huge = huge && HugePages.advise(aligned, chunkBytesAllocated);
                clearUntouched(aligned, chunkBytesAllocated);
                chunks[i] = new UnsafeBuffer(aligned, chunkBytesAllocated);
            }
            this.hugePages = huge;
        } catch (OutOfMemoryError e) {
            close();
            throw new LimitExceededException("cannot allocate " + capacity + " bytes of off-heap memory for region '"
                + name + "': " + e.getMessage());
        }
    }

    /**
     * Allocates a zeroed region of at least {@code capacity} bytes in chunks of {@code chunkBytes} (a power of two,
     * at most 1 GiB). A region smaller than one chunk is one chunk of its own size, rounded up to a 4 KiB page.
     */
    public static ChunkedRegion allocate(String name, long capacity, int chunkBytes) {
        return allocate(name, capacity, chunkBytes, false);
    }

    /**
     * As {@link #allocate(String, long, int)}, and with {@code hugePages} each chunk of at least 2 MiB is aligned to
     * and advised for transparent huge pages ({@link HugePages}) where the kernel offers them; {@link #hugePages()}
     * says whether every chunk got the advice.
     */
    public static ChunkedRegion allocate(String name, long capacity, int chunkBytes, boolean hugePages) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("region '" + name + "' needs a positive capacity, got " + capacity);
        }
        if (!BitUtil.isPowerOfTwo(chunkBytes) || chunkBytes < 64 || chunkBytes > (1 << 30)) {
            throw new IllegalArgumentException("chunk size of region '" + name + "' must be a power of two between 64"
                + " bytes and 1 GiB, got " + chunkBytes);
        }
        return new ChunkedRegion(name, capacity, chunkBytes, hugePages);
    }

    /**
     * Zeroes {@code [address, address + bytes)} without writing a page that already reads as zero. A large block from
     * malloc is a fresh anonymous mapping, whose untouched pages read as zero through the kernel's shared zero page
     * and are not resident: reading them keeps them so, where zeroing them (as {@code setMemory} does) would make
     * every page of a configured capacity resident before any data arrives. A block malloc recycled from freed memory
     * is resident already and gets its non-zero words cleared. Either way the region starts all zero, which the key
     * region's empty buckets and the value region's free space rely on.
     */
    static void clearUntouched(long address, long bytes) {
        long end = address + bytes;
        for (long page = address; page < end; page += PAGE_BYTES) {
            long pageEnd = Math.min(end, page + PAGE_BYTES);
            for (long word = page; word < pageEnd; word += 8) {
                if (UnsafeAccess.UNSAFE.getLong(word) != 0) {
                    UnsafeAccess.UNSAFE.setMemory(word, pageEnd - word, (byte) 0);
                    break;
                }
            }
        }
    }

    /**
     * Makes every page of this region resident now, without changing a byte, so that no later access pays a
     * first-touch page fault: for benchmarks, which must not time one. Safe while the region is in use (each page is
     * touched by an atomic add of zero to one of its words), but meant for before it is.
     */
    public void pretouch() {
        for (UnsafeBuffer chunk : chunks) {
            long base = chunk.addressOffset();
            for (long p = 0; p < chunk.capacity(); p += PAGE_BYTES) {
                UnsafeAccess.UNSAFE.getAndAddLong(null, base + p, 0);
            }
        }
    }

    /**
     * Off-heap bytes currently allocated by all regions in this JVM (reserved, not necessarily resident); lets tests
     * prove that close frees memory.
     */
    public static long liveBytes() {
        return LIVE_BYTES.get();
    }

    public String name() {
        return name;
    }

    /** Whether the kernel was asked to back every chunk with huge pages, and took the advice. */
    public boolean hugePages() {
        return hugePages;
    }

    public long capacity() {
        return capacity;
    }

    public int chunkCount() {
        return chunks.length;
    }

    public int chunkBytes() {
        return chunkSize;
    }

    public int chunkShift() {
        return chunkShift;
    }

    /** The chunk as a buffer; fabrics register it with a NIC, allocators carve records from it. */
    public UnsafeBuffer chunk(int index) {
        return chunks[index];
    }

    public UnsafeBuffer chunkFor(long offset) {
        return chunks[(int) (offset >>> chunkShift)];
    }

    public int indexInChunk(long offset) {
        return (int) (offset & chunkMask);
    }

    /**
     * Checks that {@code [offset, offset + length)} lies inside one chunk of this region; every entry point that takes
     * an offset from outside (a peer's frame, a one-sided op) calls this before touching memory.
     */
    public void checkRange(long offset, int length) {
        if (offset < 0 || length < 0 || offset + length > capacity) {
            throw new IndexOutOfBoundsException("access of " + length + " bytes at offset " + offset
                + " is outside region '" + name + "' of " + capacity + " bytes");
        }
        if (length > 0 && (offset >>> chunkShift) != ((offset + length - 1) >>> chunkShift)) {
            throw new IndexOutOfBoundsException("access of " + length + " bytes at offset " + offset
                + " crosses a chunk boundary of region '" + name + "' (chunks of " + chunkBytes() + " bytes)");
        }
    }

    public void checkAligned(long offset) {
        checkRange(offset, 8);
        if ((offset & 7) != 0) {
            throw new IllegalArgumentException("atomic access at offset " + offset + " of region '" + name
                + "' is not 8-byte aligned");
        }
    }

    /** Acquire-load of an 8-byte word: pairs with the release stores and CAS of writers. */
    public long getLongVolatile(long offset) {
        return chunkFor(offset).getLongVolatile(indexInChunk(offset));
    }

    public long getLong(long offset) {
        return chunkFor(offset).getLong(indexInChunk(offset));
    }

    public void putLongVolatile(long offset, long value) {
        chunkFor(offset).putLongVolatile(indexInChunk(offset), value);
    }

    /** Release-store: earlier plain writes (a record's body) become visible before this word. */
    public void putLongRelease(long offset, long value) {
        chunkFor(offset).putLongOrdered(indexInChunk(offset), value);
    }

    public void putLong(long offset, long value) {
        chunkFor(offset).putLong(indexInChunk(offset), value);
    }

    public boolean compareAndSetLong(long offset, long expected, long desired) {
        return chunkFor(offset).compareAndSetLong(indexInChunk(offset), expected, desired);
    }

    /** Full-fence CAS that returns the witnessed value, as an RDMA atomic does. */
    public long compareAndExchangeLong(long offset, long expected, long desired) {
        UnsafeBuffer chunk = chunkFor(offset);
        int index = indexInChunk(offset);
        while (true) {
            long seen = chunk.getLongVolatile(index);
            if (seen != expected) {
                return seen;
            }
            if (chunk.compareAndSetLong(index, expected, desired)) {
                return expected;
            }
        }
    }

    /**
     * Copies out of the region. Unsafe.copyMemory copies aligned 8-byte words atomically, which is what a reader
     * needs to see a header word either before or after an invalidation, never torn. An aligned copy reads its first
     * word first, with acquire semantics, and the rest after: a copy of a value record then holds every payload byte
     * below the length its header states, even while the record grows in place (see {@code ValueRecord}, "Appends in
     * place"). A plain copy may read its words in any order.
     */
    public void getBytes(long offset, MutableDirectBuffer dst, int dstIndex, int length) {
        UnsafeBuffer chunk = chunkFor(offset);
        int index = indexInChunk(offset);
        if (length < 8 || (offset & 7) != 0) {
            dst.putBytes(dstIndex, chunk, index, length);
            return;
        }
        long first = chunk.getLongVolatile(index);
        dst.putBytes(dstIndex + 8, chunk, index + 8, length - 8);
        dst.putLong(dstIndex, first);
    }

    /**
     * Copies a record that states its own length: its first word first, with acquire semantics (as
     * {@link #getBytes}), then only the bytes {@code extent} says that word covers, at most {@code maxLength}. The
     * bytes of {@code dst} past those are left as they were. A value record grown in place is then copied up to the
     * length its header publishes: bytes appended past it are neither copied nor visible, and its slack is not
     * copied at all (see {@code ValueRecord}, "Appends in place").
     *
     * @return the bytes copied
     */
    public int getRecord(long offset, MutableDirectBuffer dst, int dstIndex, int maxLength, RecordExtent extent) {
        if (maxLength < 8 || (offset & 7) != 0) {
            throw new IllegalArgumentException("a record read at offset " + offset + " of region '" + name
                + "' must be 8-byte aligned and at least 8 bytes long, got " + maxLength);
        }
        UnsafeBuffer chunk = chunkFor(offset);
        int index = indexInChunk(offset);
        long first = chunk.getLongVolatile(index);
        int length = Math.max(8, Math.min(maxLength, extent.bytes(first, maxLength)));
        dst.putBytes(dstIndex + 8, chunk, index + 8, length - 8);
        dst.putLong(dstIndex, first);
        return length;
    }

    public void putBytes(long offset, DirectBuffer src, int srcIndex, int length) {
        chunkFor(offset).putBytes(indexInChunk(offset), src, srcIndex, length);
    }

    public boolean isClosed() {
        return closed;
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (int i = 0; i < rawAddresses.length; i++) {
            if (rawAddresses[i] != 0) {
                UnsafeAccess.UNSAFE.freeMemory(rawAddresses[i]);
                LIVE_BYTES.addAndGet(-(chunkSize + alignment));
                rawAddresses[i] = 0;
                if (chunks[i] != null) {
                    chunks[i].wrap(0, 0);
                }
            }
        }
    }

    @Override
    public String toString() {
        return "ChunkedRegion[" + name + ", " + capacity + " B in " + chunks.length + " x " + chunkBytes() + " B]";
    }
}
