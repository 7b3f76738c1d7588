package io.pragh.store;

import io.pragh.address.Address;
import io.pragh.cache.LocationCache;
import io.pragh.fabric.Endpoint;
import io.pragh.fabric.MachineMemory;
import io.pragh.fabric.Region;
import io.pragh.keys.KeyRegion;
import io.pragh.memory.ChunkedRegion;
import io.pragh.reclaim.Leases;
import io.pragh.reclaim.ReclaimRings;
import io.pragh.values.ValueRecord;
import io.pragh.values.ValueRegion;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import org.agrona.DirectBuffer;
import org.agrona.collections.LongHashSet;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The memory one machine owns: its key, value and reclaim regions and its location cache, and the word-level
 * operations on them that every protocol shares: the CAS of a key's address word, the CAS and read of a record's
 * header (here by CPU, on a peer one-sidedly), the generation-checked invalidation, the clearing of a pending bit, and
 * writing a complete record. Allocated by {@link MachineStore}, which frees it once nothing runs inside.
 *
 * <pre>{@code
 * StoreRegions regions = store.regions();
 * boolean won = regions.casAddress(home, slot, expected, desired);
 * regions.settled(desired, length);      // the record it published may be read now
 * }</pre>
 */
public final class StoreRegions {
    private static final long BACK_PRESSURE_MARGIN_MILLIS = 2_000;

    private final int id;
    private final KeyRegion keys;
    private final ValueRegion values;
    private final ChunkedRegion reclaimRegion;
    private final LocationCache cache;
    /** Offsets of records migrations are copying into (see {@link #trackCopy}); guarded by itself. */
    private final LongHashSet copiesInFlight = new LongHashSet();
    private Endpoint endpoint;

    StoreRegions(int id, int machineCount, StoreConfig config) {
        this.id = id;
        KeyRegion k = null;
        ValueRegion v = null;
        ChunkedRegion r = null;
        try {
            k = new KeyRegion(config.expectedKeys(), config.chunkBytes(), config.hugePages());
            v = new ValueRegion(config.valueBytes(), config.chunkBytes(), config.hugePages());
            r = ChunkedRegion.allocate("reclaim", ReclaimRings.regionBytes(machineCount, config.reclaimRingSlots()),
                config.chunkBytes());
            this.cache = new LocationCache(config.cacheBytes(), config.leases().cacheMillis(), config.hugePages());
        } catch (RuntimeException | Error e) {
            closeQuietly(k);
            closeQuietly(v);
            closeQuietly(r);
            throw e;
        }
        this.keys = k;
        this.values = v;
        this.reclaimRegion = r;
    }

    /**
     * How long a writer waits for a full value region to get memory back: the reclaim lease (garbage made just
     * before the region filled is freed by then) plus a margin for the GC thread's poll and a loaded machine.
     */
    static long backPressureNanos(Leases leases) {
        return TimeUnit.MILLISECONDS.toNanos(leases.reclaimMillis() + BACK_PRESSURE_MARGIN_MILLIS);
    }

    /** The endpoint peers' records are reached through; set once, when the machine attaches to its fabric. */
    void attach(Endpoint endpoint) {
        this.endpoint = endpoint;
    }

    MachineMemory memory() {
        return new MachineMemory(keys.region(), values.region(), reclaimRegion);
    }

    KeyRegion keys() {
        return keys;
    }

    ValueRegion values() {
        return values;
    }

    ChunkedRegion reclaimRegion() {
        return reclaimRegion;
    }

    LocationCache cache() {
        return cache;
    }

    /**
     * CAS of a key's address word at its home: a CPU CAS when this is the home and CPU atomics are coherent with the
     * fabric's, else a one-sided CAS (a loopback one on a NIC whose atomics are not coherent with the CPU's).
     */
    public boolean casAddress(int home, long slot, long expected, long desired) {
        if (home == id && endpoint.cpuAtomicsCoherent()) {
            return keys.compareAndSetAddress(slot, expected, desired);
        }
        return endpoint.compareAndSwap(home, Region.KEYS, slot, expected, desired) == expected;
    }

    /** Whether this machine may CAS its own address words with the CPU (see {@link #casAddress}). */
    public boolean localCasAllowed() {
        return endpoint == null || endpoint.cpuAtomicsCoherent();
    }

    /**
     * CAS of the header word of a value record on {@code host} (this machine or a peer): a CPU CAS here, a one-sided
     * CAS on a peer. Returns the word it found. A migration CASes its source's header one-sidedly (its invalidation)
     * while the source's host may CAS the same header with the CPU (an update's lock, an append's publishing CAS, a
     * DELETE's pending flag): on a NIC whose atomics are not coherent with the CPU's both could take effect, and an
     * append acknowledged on a source its migration believes invalidated would be lost. So, as for address words
     * ({@link #casAddress}), such a machine CASes its own headers through the fabric too (a loopback CAS).
     */
    public long casHeader(int host, long byteOffset, long expected, long desired) {
        if (host == id && localCasAllowed()) {
            return values.region().compareAndExchangeLong(byteOffset, expected, desired);
        }
        return endpoint.compareAndSwap(host, Region.VALUES, byteOffset, expected, desired);
    }

    /** The header word of a value record on {@code host}, read locally or one-sidedly. */
    public long readHeader(int host, long byteOffset) {
        if (host == id) {
            return values.region().getLongVolatile(byteOffset);
        }
        UnsafeBuffer word = new UnsafeBuffer(new byte[8]);
        endpoint.read(host, Region.VALUES, byteOffset, word, 0, 8);
        return word.getLongVolatile(0);
    }

    /**
     * Invalidates the record {@code address} names on {@code host} (as seen from anywhere) by CAS on its header, as
     * long as it is still that allocation and live, pending bit or not: the generation-checked form of the paper's
     * "zero the size". Returns whether this call invalidated it; false when it was invalid already (someone else
     * invalidated it, and handed it to its GC) or the slot holds another allocation now.
     */
    public boolean invalidate(int host, long address) {
        long offset = Address.byteOffset(address);
        return invalidateFrom(host, offset, address, readHeader(host, offset));
    }

    /** The invalidating CAS from {@code header}, read last, for as long as the header is live at {@code address}. */
    private boolean invalidateFrom(int host, long offset, long address, long header) {
        while (ValueRecord.isLiveAt(header, address)) {
            long witness = casHeader(host, offset, header, ValueRecord.invalidated(header));
            if (witness == header) {
                return true;
            }
            header = witness;
        }
        return false;
    }

    /**
     * {@link #invalidate} of a read replica of {@code key} that {@code host} held: only while the allocation still
     * holds {@code key}'s copy. A holder that restarted has new memory, its slots carved at a random first generation,
     * so a record it reloads from its log takes the very allocation (offset, class, generation) of a replica of its
     * previous life about once in 16,383 per slot, while the replica's host still names it in its registry until the
     * replica's lease runs out; the header alone could not tell them apart, and the host's next update of the key
     * invalidated the restarted machine's own record. A reloaded record is of a key homed there, and a replica's host invalidates only after it
     * won the home's word of the replica's key (a home that restarted names its own record), so the key word tells
     * them apart: one READ of the header and the key, then the CAS of the header (which changes whenever the slot is
     * handed to another allocation).
     */
    public boolean invalidateCopy(int host, long address, long key) {
        long offset = Address.byteOffset(address);
        UnsafeBuffer words = new UnsafeBuffer(new byte[ValueRecord.VERSION_OFFSET]);
        if (host == id) {
            words.putLong(0, values.region().getLongVolatile(offset));
            words.putLong(ValueRecord.KEY_OFFSET, values.region().getLong(offset + ValueRecord.KEY_OFFSET));
        } else {
            endpoint.read(host, Region.VALUES, offset, words, 0, ValueRecord.VERSION_OFFSET);
        }
        return words.getLong(ValueRecord.KEY_OFFSET) == key
            && invalidateFrom(host, offset, address, words.getLongVolatile(0));
    }

    /**
     * Clears the pending bit of a record this machine wrote and has just published (or whose predecessor it has just
     * invalidated), by CAS so that doing it twice is harmless: whoever sees it clear sees everything before it.
     */
    public void settled(long address, int length) {
        settled(address, length, 0);
    }

    /** {@link #settled(long, int)}, leaving {@code flags} set in the settled header (a put-back's, {@link PutBackFence}). */
    void settled(long address, int length, long flags) {
        long header = ValueRecord.headerWord(length, address);
        // A CPU CAS whatever the NIC: the only one-sided CAS that can meet it is a home's settling of the same bit
        // (a durable update's), which writes the same word, so either order is fine; and a load settles its records
        // before the machine serves, when no loopback CAS may be possible yet.
        values.region().compareAndExchangeLong(Address.byteOffset(address),
            header | ValueRecord.INVALIDATION_PENDING, header | flags);
    }

    /** Writes a complete record (header, key, version, the mutator's output) at a freshly allocated address. */
    void writeRecord(long key, long version, long address, int length, long headerFlags, ValueMutator mutator,
                     DirectBuffer cur, int curOff, int curLen, DirectBuffer arg, int argOff, int argLen) {
        long offset = Address.byteOffset(address);
        ChunkedRegion region = values.region();
        UnsafeBuffer chunk = region.chunkFor(offset);
        int index = region.indexInChunk(offset);
        chunk.putLong(index + ValueRecord.KEY_OFFSET, key);
        chunk.putLong(index + ValueRecord.VERSION_OFFSET, ValueRecord.versionWord(version, length));
        if (length > 0) {
            mutator.write(cur, curOff, curLen, arg, argOff, argLen, chunk, index + ValueRecord.HEADER_BYTES);
        }
        chunk.putLong(index, ValueRecord.headerWord(length, address) | headerFlags);
        // The record must be complete before any peer can find it through the address a CAS then publishes,
        // including peers that read it one-sidedly through a NIC or an I/O thread rather than this CPU.
        VarHandle.releaseFence();
    }

    /**
     * Marks a record a migration allocated here and is about to fill with a one-sided READ of the source: the READ
     * overwrites its header with the source's (live, perhaps not pending), so until the migration has written its own
     * header, pending, the leak scan must be told to leave the record alone ({@link #copyInFlight}).
     */
    public void trackCopy(long offsetUnits) {
        synchronized (copiesInFlight) {
            copiesInFlight.add(offsetUnits);
        }
    }

    /** Ends {@link #trackCopy}: the record is pending now, or was released. */
    public void untrackCopy(long offsetUnits) {
        synchronized (copiesInFlight) {
            copiesInFlight.remove(offsetUnits);
        }
    }

    /** Whether a migration is copying into the record at {@code offsetUnits} (see {@link #trackCopy}). */
    public boolean copyInFlight(long offsetUnits) {
        synchronized (copiesInFlight) {
            return copiesInFlight.contains(offsetUnits);
        }
    }

    /** Frees the regions: only once nothing can touch them any more ({@link MachineStore#close}). */
    void free() {
        cache.close();
        keys.close();
        values.close();
        reclaimRegion.close();
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c != null) {
            try {
                c.close();
            } catch (Exception ignored) {
                // Already failing; the first error is the one worth reporting.
            }
        }
    }
}
