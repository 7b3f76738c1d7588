package io.pragh.consistency;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.address.Address;
import io.pragh.cache.LocationCache;
import io.pragh.embedded.EmbeddedCluster;
import io.pragh.fabric.Region;
import io.pragh.fabric.fault.FaultFabric;
import io.pragh.fabric.fault.HoldRule;
import io.pragh.keys.Hashing;
import io.pragh.keys.KeyLayout;
import io.pragh.memory.ChunkedRegion;
import io.pragh.migration.Migrator;
import io.pragh.reclaim.Leases;
import io.pragh.values.ValueRecord;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A PUT of a migrated value caches the address it installed on the value's host. The cache entry's stamp starts the
 * address's leases, so it must be no later than the moment the new record could first be replaced and invalidated:
 * when the PUT clears the record's invalidation-pending bit. Here the PUT is stalled between clearing the bit and
 * acknowledging, by a migration of another key of the same invalidation-fence stripe whose invalidation is held;
 * the stamp must still be from before the bit was cleared, not from when the PUT went on.
 */
class PutCacheStampTest {
    private static final int HOME = 0;
    private static final int HOST = 1;
    private static final int OTHER = 2;
    /** The stripes of {@link io.pragh.reclaim.InvalidationFence}. */
    private static final int FENCE_STRIPES = 4096;

    @Test
    void aPutStampsItsCacheEntryBeforeItClearsThePendingBitHoweverLongItStallsAfter() throws Exception {
        FaultFabric fabric = Scenarios.fabric(3, 1);
        try (EmbeddedCluster c = Scenarios.cluster(fabric, 3, 5_000, 10_000, 0).build()) {
            long key = Scenarios.keyHomedAt(c, HOME, 1);
            long sameStripe = sameFenceStripeHomedAt(c, OTHER, key);
            c.machine(HOME).put(key, new byte[] {1});
            assertEquals(Migrator.Outcome.MIGRATED, c.machine(HOST).migrate(key));
            c.machine(OTHER).put(sameStripe, new byte[] {7});

            // The migration enters the fence of the stripe, CASes, and is held at its invalidation (a CAS of the
            // source's header).
            HoldRule invalidation = fabric.when().cas().batched().from(HOST).to(OTHER).region(Region.VALUES)
                .times(1).hold();
            CompletableFuture<Migrator.Outcome> migration = c.machine(HOST).migrateAsync(sameStripe);
            assertTrue(invalidation.awaitHeld(1, 20, TimeUnit.SECONDS),
                "the migration never reached its invalidation");
            CompletableFuture<Void> put = CompletableFuture.runAsync(() -> c.machine(OTHER).put(key, new byte[] {2}));

            long slot = c.machine(HOME).store().keys().find(key);
            long[] installed = new long[1];
            Scenarios.awaitTrue(() -> {
                long address = c.machine(HOME).store().keys().address(slot);
                long header = c.machine(HOST).store().values().region().getLongVolatile(Address.byteOffset(address));
                installed[0] = address;
                long payload = Address.byteOffset(address) + ValueRecord.HEADER_BYTES;
                ChunkedRegion values = c.machine(HOST).store().values().region();
                return Address.host(address, HOME) == HOST && ValueRecord.payloadLengthOf(header) == 1
                    && values.chunkFor(payload).getByte(values.indexInChunk(payload)) == 2
                    && !ValueRecord.isInvalidationPending(header);
            }, "the PUT installed its record and cleared its pending bit");
            long clearedBy = Leases.nowMillis();
            assertTrue(!put.isDone(), "the PUT went on past the fence while the migration was held");
            Thread.sleep(50); // lets the clock move on while the PUT stalls: a stamp taken later would show it

            invalidation.release();
            put.get(20, TimeUnit.SECONDS);
            assertEquals(Migrator.Outcome.MIGRATED, migration.get(20, TimeUnit.SECONDS));
            LocationCache.Hit hit = new LocationCache.Hit();
            assertTrue(c.machine(HOST).store().cache().lookup(key, Leases.nowMillis(), hit), "the PUT cached it");
            assertEquals(installed[0], hit.address);
            assertTrue(hit.stampMillis <= clearedBy, "the cache entry is stamped " + (hit.stampMillis - clearedBy)
                + " ms after the pending bit was seen cleared: its lease outlives the record's reclaim lease");
            assertArrayEquals(new byte[] {2}, c.machine(HOME).get(key));
        }
    }

    private static long sameFenceStripeHomedAt(EmbeddedCluster c, int home, long key) {
        long stripe = Hashing.bucketHash(key) & (FENCE_STRIPES - 1);
        for (long vid = 2; ; vid++) {
            long k = KeyLayout.key(vid, 0, KeyLayout.VERTEX);
            if (c.home(k) == home && (Hashing.bucketHash(k) & (FENCE_STRIPES - 1)) == stripe) {
                return k;
            }
        }
    }
}
