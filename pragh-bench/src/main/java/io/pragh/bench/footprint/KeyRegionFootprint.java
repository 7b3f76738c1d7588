package io.pragh.bench.footprint;

import io.pragh.LimitExceededException;
import io.pragh.keys.KeyLayout;
import io.pragh.keys.KeyRegion;
import io.pragh.store.StoreConfig;
import java.io.PrintStream;

/**
 * What the key region costs per key: its bucket bytes (main and overflow buckets, from the region's own geometry) and
 * the bytes actually allocated for it (a region smaller than one chunk is rounded up to a power of two), divided by
 * the keys it was configured for, and by the keys it actually held when it filled up. Power-of-two bucket counts
 * make the configured figures swing with the key count, so several counts are shown.
 *
 * <pre>{@code
 * ./pragh bench keys            # the default table
 * ./pragh bench keys 1000000    # one key count
 * }</pre>
 */
public final class KeyRegionFootprint {
    /** One line of the table. */
    public record Row(long configuredKeys, long bucketBytes, long allocatedBytes, long keysAtFull) {
        /** Bucket bytes per configured key: what the table's geometry costs. */
        public double bucketBytesPerKey() {
            return (double) bucketBytes / configuredKeys;
        }

        /** Allocated bytes per configured key: what the machine pays (the region rounds up to its chunk). */
        public double allocatedBytesPerKey() {
            return (double) allocatedBytes / configuredKeys;
        }

        /** Allocated bytes per key when the region is full (every overflow bucket used). */
        public double allocatedBytesPerKeyAtFull() {
            return (double) allocatedBytes / keysAtFull;
        }
    }

    private KeyRegionFootprint() {
    }

    /** Builds a region for {@code keys} and fills it with distinct keys until it refuses one. */
    public static Row measure(long keys) {
        try (KeyRegion region = new KeyRegion(keys, StoreConfig.DEFAULT_CHUNK_BYTES)) {
            long buckets = region.slotCapacity() / KeyRegion.KEY_SLOTS;
            long held = 0;
            try {
                for (long vid = 0; ; vid++) {
                    region.findOrInsert(KeyLayout.key(vid, 0, KeyLayout.OUT));
                    held++;
                }
            } catch (LimitExceededException full) {
                // The region is full: `held` keys fit.
            }
            return new Row(keys, buckets * KeyRegion.BUCKET_BYTES, region.region().capacity(), held);
        }
    }

    public static void print(PrintStream out, long... keyCounts) {
        out.printf("%12s %13s %13s %11s %11s %13s %11s%n", "configured", "bucket bytes", "allocated", "bkt B/key",
            "alloc B/key", "keys at full", "B/key full");
        for (long k : keyCounts) {
            Row r = measure(k);
            out.printf("%12d %13d %13d %11.1f %11.1f %13d %11.1f%n", r.configuredKeys(), r.bucketBytes(),
                r.allocatedBytes(), r.bucketBytesPerKey(), r.allocatedBytesPerKey(), r.keysAtFull(),
                r.allocatedBytesPerKeyAtFull());
        }
        out.printf("(a slot is %d bytes: 8-byte key + 8-byte address word; %d key slots per %d-byte bucket)%n",
            KeyRegion.SLOT_BYTES, KeyRegion.KEY_SLOTS, KeyRegion.BUCKET_BYTES);
    }

    public static void main(String[] args) {
        if (args.length == 0) {
            print(System.out, 100_000, 700_000, StoreConfig.DEFAULT_EXPECTED_KEYS, 1_500_000, 4_000_000);
            return;
        }
        long[] counts = new long[args.length];
        for (int i = 0; i < args.length; i++) {
            try {
                counts[i] = Long.parseLong(args[i]);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("key count '" + args[i] + "' is not a whole number");
            }
        }
        print(System.out, counts);
    }
}
