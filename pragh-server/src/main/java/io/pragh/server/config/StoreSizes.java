package io.pragh.server.config;

import io.pragh.address.Address;
import io.pragh.store.StoreConfig;
import java.time.Duration;

/**
 * Region and cache sizes, the same on every machine (peers compute offsets in each other's key regions from them).
 * Named as the core's store configuration names them.
 *
 * <pre>{@code
 * long valueRegion = config.store().valueBytes();
 * }</pre>
 *
 * @param expectedKeys     keys per machine the key region is sized for
 * @param valueBytes       value region bytes per machine
 * @param chunkBytes       chunk size of every region (power of two): the unit of NIC registration
 * @param cacheBytes       location cache budget per machine; 0 disables the cache
 * @param reclaimRingSlots slots of each per-peer reclaim ring
 * @param maxValueBytes    largest value a PUT accepts
 * @param leakScan         interval of the background leak scan (value records no address word names any more, as an
 *                         interrupted migration leaves them); zero turns it off
 * @param hugePages        whether the key and value regions and the location cache ask the kernel for transparent
 *                         huge pages (fewer TLB misses on random lookups; memory resident 2 MiB at a time)
 */
public record StoreSizes(long expectedKeys, long valueBytes, int chunkBytes, long cacheBytes, int reclaimRingSlots,
                         int maxValueBytes, Duration leakScan, boolean hugePages) {
    /** The core store's defaults, so that a file that leaves a size out gets what an embedded cluster gets. */
    public static final StoreSizes DEFAULT = of(StoreConfig.defaults());

    private static StoreSizes of(StoreConfig c) {
        return new StoreSizes(c.expectedKeys(), c.valueBytes(), c.chunkBytes(), c.cacheBytes(), c.reclaimRingSlots(),
            c.maxValueBytes(), Duration.ofMillis(c.leakScanMillis()), c.hugePages());
    }

    /** The core store configuration these sizes and {@code leases} describe. */
    public StoreConfig toStoreConfig(LeaseConfig leases) {
        return new StoreConfig(expectedKeys, valueBytes, chunkBytes, cacheBytes, leases.toLeases(), reclaimRingSlots,
            maxValueBytes, leakScan.toMillis(), hugePages);
    }

    static StoreSizes read(ConfigNode n) {
        n.allow("expectedKeys", "valueBytes", "chunkBytes", "cacheBytes", "reclaimRingSlots",
            "maxValueBytes", "leakScan", "hugePages");
        long keys = n.longInteger("expectedKeys", DEFAULT.expectedKeys, 1, 1L << 40);
        long values = n.bytes("valueBytes", DEFAULT.valueBytes, 4096, Address.MAX_REGION_BYTES);
        long chunk = n.bytes("chunkBytes", DEFAULT.chunkBytes, 4096, 1 << 30);
        if (Long.bitCount(chunk) != 1) {
            throw n.error("chunkBytes", "must be a power of two (a NIC registers regions chunk by chunk), got "
                + Units.formatBytes(chunk));
        }
        long cache = n.bytes("cacheBytes", DEFAULT.cacheBytes, 0, 1L << 40);
        int slots = n.integer("reclaimRingSlots", DEFAULT.reclaimRingSlots, 16, 1 << 24);
        long maxValue = n.bytes("maxValueBytes", DEFAULT.maxValueBytes, 0, Integer.MAX_VALUE);
        Duration leakScan = n.duration("leakScan", DEFAULT.leakScan, Duration.ZERO, Duration.ofHours(24));
        boolean huge = n.bool("hugePages", DEFAULT.hugePages);
        return new StoreSizes(keys, values, (int) chunk, cache, slots, (int) maxValue, leakScan, huge);
    }
}
