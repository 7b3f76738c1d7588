package io.pragh.store;

import io.pragh.cache.LocationCache;
import io.pragh.reclaim.Leases;

/**
 * Sizes and leases of one machine; every machine of a cluster uses the same, because peers compute bucket offsets
 * in each other's key regions from it.
 *
 * <pre>{@code
 * StoreConfig config = StoreConfig.defaults().withValueBytes(1L << 30).withKeys(4_000_000);
 * }</pre>
 *
 * @param expectedKeys     keys per machine the key region is sized for (about 70% bucket load)
 * @param valueBytes       value region bytes per machine
 * @param chunkBytes       chunk size of regions (a power of two, at most 1 GiB): the unit of NIC registration
 * @param cacheBytes       location cache budget per machine
 * @param leases           cache and reclaim leases
 * @param reclaimRingSlots slots of each per-peer reclaim ring
 * @param maxValueBytes    largest value a PUT accepts; larger ones are refused with a clear error
 * @param leakScanMillis   interval of the background {@link LeakScanner} (default
 *                         {@link LeakScanner#DEFAULT_INTERVAL_MILLIS}); 0 turns it off
 * @param hugePages        whether the key and value regions and the location cache ask for transparent huge pages
 *                         ({@link io.pragh.memory.HugePages}; default false): fewer TLB misses on random lookups,
 *                         memory resident 2 MiB at a time; a machine may differ from its peers in this
 */
public record StoreConfig(long expectedKeys, long valueBytes, int chunkBytes, long cacheBytes, Leases leases,
                          int reclaimRingSlots, int maxValueBytes, long leakScanMillis, boolean hugePages) {
    public static final long DEFAULT_EXPECTED_KEYS = 1 << 20;
    public static final long DEFAULT_VALUE_BYTES = 256L << 20;
    public static final int DEFAULT_CHUNK_BYTES = 1 << 30;
    public static final int DEFAULT_RING_SLOTS = 1 << 16;
    public static final int DEFAULT_MAX_VALUE_BYTES = 64 << 20;

    public StoreConfig {
        if (expectedKeys < 1) {
            throw new IllegalArgumentException("expectedKeys must be >= 1, got " + expectedKeys);
        }
        if (valueBytes < 4096) {
            throw new IllegalArgumentException("valueBytes must be >= 4096, got " + valueBytes);
        }
        if (Integer.bitCount(chunkBytes) != 1 || chunkBytes < 4096 || chunkBytes > (1 << 30)) {
            throw new IllegalArgumentException("chunkBytes must be a power of two in 4 KiB..1 GiB, got " + chunkBytes);
        }
        if (reclaimRingSlots < 16) {
            throw new IllegalArgumentException("reclaimRingSlots must be >= 16, got " + reclaimRingSlots);
        }
        if (maxValueBytes < 0) {
            throw new IllegalArgumentException("maxValueBytes must be >= 0, got " + maxValueBytes);
        }
        if (leases == null) {
            throw new IllegalArgumentException("leases must be set");
        }
        if (leakScanMillis < 0) {
            throw new IllegalArgumentException("leakScanMillis must be >= 0 (0: no leak scan), got " + leakScanMillis);
        }
    }

    /** A configuration on 4 KiB pages. */
    public StoreConfig(long expectedKeys, long valueBytes, int chunkBytes, long cacheBytes, Leases leases,
                       int reclaimRingSlots, int maxValueBytes, long leakScanMillis) {
        this(expectedKeys, valueBytes, chunkBytes, cacheBytes, leases, reclaimRingSlots, maxValueBytes, leakScanMillis,
            false);
    }

    /** A configuration with the default leak scan interval, on 4 KiB pages. */
    public StoreConfig(long expectedKeys, long valueBytes, int chunkBytes, long cacheBytes, Leases leases,
                       int reclaimRingSlots, int maxValueBytes) {
        this(expectedKeys, valueBytes, chunkBytes, cacheBytes, leases, reclaimRingSlots, maxValueBytes,
            LeakScanner.DEFAULT_INTERVAL_MILLIS);
    }

    public static StoreConfig defaults() {
        return new StoreConfig(DEFAULT_EXPECTED_KEYS, DEFAULT_VALUE_BYTES, DEFAULT_CHUNK_BYTES,
            LocationCache.DEFAULT_BYTES, Leases.DEFAULT, DEFAULT_RING_SLOTS, DEFAULT_MAX_VALUE_BYTES);
    }

    public StoreConfig withKeys(long keys) {
        return new StoreConfig(keys, valueBytes, chunkBytes, cacheBytes, leases, reclaimRingSlots,
            maxValueBytes, leakScanMillis, hugePages);
    }

    public StoreConfig withValueBytes(long bytes) {
        return new StoreConfig(expectedKeys, bytes, chunkBytes, cacheBytes, leases, reclaimRingSlots,
            maxValueBytes, leakScanMillis, hugePages);
    }

    public StoreConfig withChunkBytes(int bytes) {
        return new StoreConfig(expectedKeys, valueBytes, bytes, cacheBytes, leases, reclaimRingSlots,
            maxValueBytes, leakScanMillis, hugePages);
    }

    public StoreConfig withCacheBytes(long bytes) {
        return new StoreConfig(expectedKeys, valueBytes, chunkBytes, bytes, leases, reclaimRingSlots,
            maxValueBytes, leakScanMillis, hugePages);
    }

    public StoreConfig withLeases(Leases l) {
        return new StoreConfig(expectedKeys, valueBytes, chunkBytes, cacheBytes, l, reclaimRingSlots,
            maxValueBytes, leakScanMillis, hugePages);
    }

    public StoreConfig withReclaimRingSlots(int slots) {
        return new StoreConfig(expectedKeys, valueBytes, chunkBytes, cacheBytes, leases, slots,
            maxValueBytes, leakScanMillis, hugePages);
    }

    public StoreConfig withLeakScanMillis(long millis) {
        return new StoreConfig(expectedKeys, valueBytes, chunkBytes, cacheBytes, leases,
            reclaimRingSlots, maxValueBytes, millis, hugePages);
    }

    public StoreConfig withMaxValueBytes(int bytes) {
        return new StoreConfig(expectedKeys, valueBytes, chunkBytes, cacheBytes, leases, reclaimRingSlots,
            bytes, leakScanMillis, hugePages);
    }

    public StoreConfig withHugePages(boolean huge) {
        return new StoreConfig(expectedKeys, valueBytes, chunkBytes, cacheBytes, leases, reclaimRingSlots,
            maxValueBytes, leakScanMillis, huge);
    }
}
