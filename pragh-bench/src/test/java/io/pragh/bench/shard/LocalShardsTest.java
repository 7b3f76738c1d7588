package io.pragh.bench.shard;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.cache.LocationCache;
import io.pragh.embedded.EmbeddedCluster;
import io.pragh.keys.KeyLayout;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

class LocalShardsTest {
    private static final int MACHINES = 3;

    private static byte[] value(long vid) {
        return ("value-of-" + vid).getBytes(StandardCharsets.UTF_8);
    }

    private static EmbeddedCluster cluster(ShardPlacement placement, long cacheBytes) {
        return EmbeddedCluster.builder().machines(MACHINES).workersPerMachine(1).keysPerMachine(4000)
            .valueBytesPerMachine(4 << 20).cacheBytes(cacheBytes).remoteLatencyNs(0).placement(placement).build();
    }

    /** Keys of 300 vertices, each put through its home. */
    private static List<Long> load(EmbeddedCluster c) {
        List<Long> keys = new ArrayList<>();
        for (long v = 0; v < 300; v++) {
            long k = KeyLayout.key(v, 0, KeyLayout.VERTEX);
            keys.add(k);
            c.homeOf(k).put(k, value(v));
        }
        return keys;
    }

    @Test
    void exportPagesCoverTheShardOnceAndStayWithinTheirBudget() {
        ShardPlacement placement = new ShardPlacement(MACHINES, 2);
        try (EmbeddedCluster c = cluster(placement, 0)) {
            List<Long> keys = load(c);
            int shard = placement.shardOf(keys.get(0));
            LocalShards owner = new LocalShards(c.machine(placement.owner(shard)).store(), placement);
            Set<Long> expected = new HashSet<>();
            for (long k : keys) {
                if (placement.shardOf(k) == shard) {
                    expected.add(k);
                }
            }
            int budget = 100; // a few records of ~32 bytes each
            Set<Long> seen = new HashSet<>();
            int pages = 0;
            long cursor = ShardPage.START;
            do {
                ShardPage page = owner.export(shard, cursor, budget);
                pages++;
                assertTrue(page.body().length - ShardRecords.HEADER_BYTES <= budget || page.records() == 1,
                    "a page stays within its budget");
                ShardRecords.forEach(new UnsafeBuffer(page.body()), 0, (key, version, v, off, len) -> {
                    byte[] bytes = new byte[len];
                    v.getBytes(off, bytes);
                    assertArrayEquals(value(KeyLayout.vid(key)), bytes);
                    assertTrue(seen.add(key), "a key is exported once");
                });
                cursor = page.next();
            } while (cursor != ShardPage.END);
            assertEquals(expected, seen);
            assertTrue(pages > 2, "the shard took several pages: " + pages);
        }
    }

    @Test
    void onlyTheOwnerExportsAndOnlyAFormerOwnerUnloads() {
        ShardPlacement placement = new ShardPlacement(MACHINES, 2);
        try (EmbeddedCluster c = cluster(placement, 0)) {
            load(c);
            int other = (placement.owner(0) + 1) % MACHINES;
            LocalShards notOwner = new LocalShards(c.machine(other).store(), placement);
            LocalShards owner = new LocalShards(c.machine(placement.owner(0)).store(), placement);
            assertTrue(assertThrows(IllegalArgumentException.class, () -> notOwner.export(0, 0, 1000)).getMessage()
                .contains("does not own shard 0"));
            assertTrue(assertThrows(IllegalArgumentException.class, () -> owner.unload(0)).getMessage()
                .contains("still owns shard 0"));
            assertTrue(assertThrows(IllegalArgumentException.class, () -> owner.export(placement.shards(), 0, 1))
                .getMessage().contains("does not exist"));
        }
    }

    @Test
    void aMalformedOrClashingBatchIsRefusedWholeAndLoadsNothing() {
        ShardPlacement placement = new ShardPlacement(MACHINES, 2);
        try (EmbeddedCluster c = cluster(placement, 0)) {
            List<Long> keys = load(c);
            LocalShards m0 = new LocalShards(c.machine(0).store(), placement);
            long fresh1 = KeyLayout.key(10_001, 0, KeyLayout.VERTEX);
            long fresh2 = KeyLayout.key(10_002, 0, KeyLayout.VERTEX);
            byte[] good = batch(new long[] {fresh1, fresh2}, 5);
            byte[] cut = java.util.Arrays.copyOf(good, good.length - 1);
            assertTrue(assertThrows(IllegalArgumentException.class,
                () -> m0.importRecords(new UnsafeBuffer(cut), 0, cut.length)).getMessage().contains("cut short"));
            long held = keys.stream().filter(k -> placement.home(k) == 0).findFirst().orElseThrow();
            byte[] clash = batch(new long[] {fresh1, held}, 5);
            assertTrue(assertThrows(IllegalArgumentException.class,
                () -> m0.importRecords(new UnsafeBuffer(clash), 0, clash.length)).getMessage()
                .contains("already has a record"));
            byte[] twice = batch(new long[] {fresh1, fresh1}, 5);
            assertTrue(assertThrows(IllegalArgumentException.class,
                () -> m0.importRecords(new UnsafeBuffer(twice), 0, twice.length)).getMessage()
                .contains("appears twice"));
            assertEquals(-1, c.machine(0).store().keys().find(fresh1), "nothing of a refused batch was loaded");
            assertEquals(2, m0.importRecords(new UnsafeBuffer(good), 0, good.length));
            assertTrue(c.machine(0).store().keys().find(fresh2) >= 0);
        }
    }

    @Test
    void assigningAShardDropsCachedAddressesOfItsKeysOnly() {
        ShardPlacement placement = new ShardPlacement(MACHINES, 2);
        try (EmbeddedCluster c = cluster(placement, 1 << 20)) {
            List<Long> keys = load(c);
            int reader = 0;
            List<Long> remote = keys.stream().filter(k -> placement.home(k) != reader).toList();
            for (long k : remote) {
                c.machine(reader).get(k);
            }
            long moving = remote.get(0);
            int shard = placement.shardOf(moving);
            long staying = remote.stream().filter(k -> placement.shardOf(k) != shard).findFirst().orElseThrow();
            LocationCache cache = c.machine(reader).store().cache();
            LocationCache.Hit hit = new LocationCache.Hit();
            long now = io.pragh.reclaim.Leases.nowMillis();
            assertTrue(cache.lookup(moving, now, hit), "the remote read cached the address");
            new LocalShards(c.machine(reader).store(), placement).assign(new int[] {shard},
                new int[] {(placement.owner(shard) + 1) % MACHINES});
            assertFalse(cache.lookup(moving, now, hit), "the moved shard's address is dropped");
            assertTrue(cache.lookup(staying, now, hit), "other shards' addresses stay");
        }
    }

    @Test
    void countsMadeElsewhereAddUpToThePlan() {
        ShardPlacement placement = new ShardPlacement(MACHINES, 2);
        ShardAccessCounts counts = new ShardAccessCounts(placement);
        int shard = 4;
        int busiest = (placement.owner(shard) + 2) % MACHINES;
        counts.add(shard, placement.owner(shard), 10);
        counts.add(shard, busiest, 7);
        counts.add(shard, busiest, 7);
        assertEquals(14, counts.count(shard, busiest));
        assertEquals(busiest, counts.plan()[shard]);
        assertEquals(placement.owner(0), counts.plan()[0], "an unread shard stays");
        assertThrows(IllegalArgumentException.class, () -> counts.add(placement.shards(), 0, 1));
    }

    private static byte[] batch(long[] keys, long version) {
        int size = ShardRecords.HEADER_BYTES;
        for (long k : keys) {
            size += ShardRecords.RECORD_HEADER_BYTES + value(KeyLayout.vid(k)).length;
        }
        UnsafeBuffer b = new UnsafeBuffer(new byte[size]);
        b.putInt(0, keys.length);
        int at = ShardRecords.HEADER_BYTES;
        for (long k : keys) {
            byte[] v = value(KeyLayout.vid(k));
            b.putLong(at, k);
            b.putLong(at + 8, version);
            b.putInt(at + 16, v.length);
            b.putBytes(at + ShardRecords.RECORD_HEADER_BYTES, v);
            at += ShardRecords.RECORD_HEADER_BYTES + v.length;
        }
        return b.byteArray();
    }
}
