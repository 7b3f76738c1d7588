package io.pragh.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.keys.Hashing;
import io.pragh.keys.KeyLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class LocationCacheTest {
    private static long key(long v) {
        return KeyLayout.key(v, 0, KeyLayout.OUT);
    }

    @Test
    void aCachedAddressIsFoundUntilItsLeaseRunsOut() {
        try (LocationCache cache = new LocationCache(1 << 16, 100)) {
            LocationCache.Hit hit = new LocationCache.Hit();
            cache.insert(key(1), 0x55, 128, 1000);
            assertTrue(cache.lookup(key(1), 1099, hit));
            assertEquals(0x55, hit.address);
            assertEquals(128, hit.slotOffset);
            assertEquals(1000, hit.stampMillis);
            assertFalse(cache.lookup(key(1), 1100, hit), "expired at exactly the lease");
            assertFalse(cache.lookup(key(2), 1000, hit));
            cache.insert(key(3), 0x77, 8, 1000);
            cache.invalidate(key(3), 0x77);
            assertFalse(cache.lookup(key(3), 1000, hit));
            assertEquals(3, cache.misses());
            assertEquals(1, cache.expiredMisses(), "the lease ran out");
            assertEquals(1, cache.droppedMisses(), "the address was dropped as stale");
        }
    }

    @Test
    void aDiagnosticIsToldWhyEachMissMissedAndWhatMadeEachEntryLeave() {
        // One set of six ways: every key shares it.
        try (LocationCache cache = new LocationCache(LocationCache.SET_BYTES, 100)) {
            List<String> told = new ArrayList<>();
            cache.observe(new LocationCache.Diagnostics() {
                @Override
                public void onMiss(long key, int cause, long address) {
                    told.add("miss " + key + " " + cause + " " + address);
                }

                @Override
                public void onEvict(long key, long evicted, int state) {
                    told.add("evict " + evicted + " for " + key + " " + state);
                }

                @Override
                public void onDrop(long key, long address) {
                    told.add("drop " + key + " " + address);
                }
            });
            LocationCache.Hit hit = new LocationCache.Hit();
            for (int k = 1; k <= LocationCache.WAYS; k++) {
                cache.insert(k, 0x100 + k, 8, 0);
            }
            cache.insert(7, 0x107, 8, 50); // every way live and read once: the first is evicted
            assertFalse(cache.lookup(1, 10, hit));
            cache.invalidate(2, 0x102);
            assertFalse(cache.lookup(2, 10, hit));
            cache.insert(8, 0x108, 8, 10); // the dropped way goes first
            assertFalse(cache.lookup(3, 100, hit));
            cache.insert(9, 0x109, 8, 100); // an expired way next
            cache.observe(null);
            assertFalse(cache.lookup(4, 100, hit));
            assertEquals(List.of(
                "evict 1 for 7 " + LocationCache.EVICTED_LIVE,
                "miss 1 " + LocationCache.MISS_NOT_CACHED + " 0",
                "drop 2 " + 0x102,
                "miss 2 " + LocationCache.MISS_DROPPED + " 0",
                "evict 2 for 8 " + LocationCache.EVICTED_DROPPED,
                "miss 3 " + LocationCache.MISS_LEASE_RUN_OUT + " " + 0x103,
                "evict 3 for 9 " + LocationCache.EVICTED_EXPIRED), told, "and nothing once observe(null)");
        }
    }

    @Test
    void aKeyEntersTheBusyRingAtTheMarkAndAtEveryPowerOfTwoAboveWithTheTimeAndCount() {
        try (LocationCache cache = new LocationCache(1 << 16, 60_000)) {
            LocationCache.Hit hit = new LocationCache.Hit();
            cache.insert(key(1), 0x55, 8, 0);
            cache.insert(key(2), 0x66, 8, 0);
            List<long[]> drained = new ArrayList<>();
            for (int i = 1; i < LocationCache.HOT_MARK - 1; i++) {
                assertTrue(cache.lookup(key(1), i, hit));
            }
            assertEquals(0, cache.drainHot((k, t, c) -> drained.add(new long[] {k, t, c})), "below the mark");
            assertTrue(cache.lookup(key(1), 70, hit)); // the insert counted one
            assertTrue(cache.lookup(key(2), 71, hit), "one access of another key marks nothing");
            assertEquals(1, cache.drainHot((k, t, c) -> drained.add(new long[] {k, t, c})));
            assertEquals(List.of(key(1), 70L, LocationCache.HOT_MARK), List.of(drained.get(0)[0], drained.get(0)[1],
                drained.get(0)[2]));
            assertEquals(0, cache.drainHot((k, t, c) -> drained.add(new long[] {k, t, c})), "drained once");
            cache.decayCounters(); // 8 -> 4: a count that starts above the mark still marks at the next power of two
            cache.decayCounters();
            for (int i = 0; i < 2 * LocationCache.HOT_MARK - 2; i++) {
                assertTrue(cache.lookup(key(1), 200, hit));
            }
            drained.clear();
            assertEquals(2, cache.drainHot((k, t, c) -> drained.add(new long[] {k, t, c})));
            assertEquals(LocationCache.HOT_MARK, drained.get(0)[2]);
            assertEquals(2 * LocationCache.HOT_MARK, drained.get(1)[2]);
            assertTrue(cache.peek(key(1), 200, hit));
            assertEquals(0x55, hit.address);
            assertEquals(2 * LocationCache.HOT_MARK, hit.accesses);
            assertTrue(cache.peek(key(1), 200, hit));
            assertEquals(2 * LocationCache.HOT_MARK, hit.accesses, "peek counts nothing");
            assertFalse(cache.peek(key(3), 200, hit), "never cached");
            assertFalse(cache.peek(key(1), 60_000, hit), "lease run out");
        }
    }

    @Test
    void oneEndOfIntervalPassVisitsLiveEntriesWithTheirCountsAndHalvesEveryCounter() {
        try (LocationCache cache = new LocationCache(1 << 16, 1_000)) {
            LocationCache.Hit hit = new LocationCache.Hit();
            cache.insert(key(1), 0x10, 8, 0);
            cache.insert(key(2), 0x20, 8, 500);
            for (int i = 0; i < 9; i++) {
                cache.lookup(key(1), 10, hit);
                cache.lookup(key(2), 510, hit);
            }
            List<Long> visited = new ArrayList<>();
            cache.forEachThenHalve(1_200, (k, address, slot, accesses) -> visited.add(accesses));
            assertEquals(List.of(10L), visited, "key 1's lease ran out: not visited, but halved too");
            assertTrue(cache.peek(key(2), 1_200, hit));
            assertEquals(5, hit.accesses);
            cache.insert(key(1), 0x11, 8, 1_200);
            assertTrue(cache.peek(key(1), 1_200, hit));
            assertEquals(5, hit.accesses, "the refilled entry kept its halved count");
        }
    }

    @Test
    void theHalvingPassSkipsSetsWhoseCountsReachedZeroUntilABumpMarksThemAgain() {
        try (LocationCache cache = new LocationCache(1 << 16, 10_000)) {
            LocationCache.Hit hit = new LocationCache.Hit();
            assertEquals(0, cache.countedSets(), "an empty cache has nothing to pass");
            cache.insert(key(1), 0x10, 8, 0); // a new entry counts 1
            cache.lookup(key(1), 1, hit);     // 2
            assertEquals(1, cache.countedSets());
            List<Long> visited = new ArrayList<>();
            cache.forEachThenHalve(2, (k, address, slot, accesses) -> visited.add(accesses));
            cache.forEachThenHalve(3, (k, address, slot, accesses) -> visited.add(accesses));
            assertEquals(List.of(2L, 1L), visited, "visited with its count before each halving");
            assertEquals(0, cache.countedSets(), "the second halving left the set with no count");
            cache.forEachThenHalve(4, (k, address, slot, accesses) -> visited.add(accesses));
            assertEquals(List.of(2L, 1L), visited, "a live entry with no count is not visited by the pass");
            List<Long> all = new ArrayList<>();
            cache.forEach(4, (k, address, slot, accesses) -> all.add(accesses));
            assertEquals(List.of(0L), all, "forEach still visits every live entry");
            cache.lookup(key(1), 5, hit);
            assertEquals(1, cache.countedSets(), "the bump marked the set again");
            cache.forEachThenHalve(6, (k, address, slot, accesses) -> visited.add(accesses));
            assertEquals(List.of(2L, 1L, 1L), visited);
        }
    }

    /**
     * Only a bump to a power of two marks its set (the others skip the bitmap): a count that grew past 1 since its set
     * was last left at zero was marked at 1, and halving never unmarks a set that keeps a count, so every pass still
     * visits it with its whole count.
     */
    @Test
    void countsBumpedPastAPowerOfTwoAreVisitedByEveryPassUntilTheyReachZero() {
        try (LocationCache cache = new LocationCache(1 << 16, 10_000)) {
            LocationCache.Hit hit = new LocationCache.Hit();
            cache.insert(key(1), 0x10, 8, 0);  // 1
            for (int i = 0; i < 4; i++) {
                cache.lookup(key(1), 1, hit);  // 2, 3, 4, 5
            }
            List<Long> visited = new ArrayList<>();
            cache.forEachThenHalve(2, (k, address, slot, accesses) -> visited.add(accesses)); // 5 -> 2
            cache.lookup(key(1), 3, hit);      // 3: no power of two, the set is still marked
            cache.forEachThenHalve(4, (k, address, slot, accesses) -> visited.add(accesses)); // 3 -> 1
            cache.forEachThenHalve(5, (k, address, slot, accesses) -> visited.add(accesses)); // 1 -> 0
            assertEquals(List.of(5L, 3L, 1L), visited);
            assertEquals(0, cache.countedSets());
        }
    }

    @Test
    void slicesOfTheHalvingPassTogetherHalveEveryCountedSetOnce() {
        // 64 KiB: 256 sets, four bitmap words; slices that split words.
        try (LocationCache cache = new LocationCache(1 << 16, 10_000)) {
            LocationCache.Hit hit = new LocationCache.Hit();
            int keys = 500;
            for (int i = 1; i <= keys; i++) {
                cache.insert(key(i), 0x10 + i, 8, 0);
                for (int b = 0; b < 7; b++) {
                    cache.lookup(key(i), 1, hit); // 8 when its way was not taken since
                }
            }
            java.util.Map<Long, Long> before = new java.util.HashMap<>();
            cache.forEach(2, (k, address, slot, accesses) -> before.put(k, accesses));
            java.util.Map<Long, Long> visited = new java.util.HashMap<>();
            int[] cuts = {0, 1, 63, 64, 100, 128, 200, 255, 256};
            for (int c = 0; c + 1 < cuts.length; c++) {
                cache.forEachThenHalve(2, cuts[c], cuts[c + 1], (k, address, slot, accesses) -> {
                    if (visited.put(k, accesses) != null) {
                        throw new AssertionError("key " + k + " visited twice");
                    }
                });
            }
            assertEquals(before, visited, "every counted live entry visited once, with its count");
            java.util.Map<Long, Long> after = new java.util.HashMap<>();
            cache.forEach(2, (k, address, slot, accesses) -> after.put(k, accesses));
            before.replaceAll((k, n) -> n >>> 1);
            assertEquals(before, after, "every count halved once");
        }
    }

    @Test
    void theBusyRingKeepsTheNewestKeysWhenMoreBecomeBusyThanItHoldsBetweenDrains() {
        try (LocationCache cache = new LocationCache(1 << 22, 60_000)) {
            LocationCache.Hit hit = new LocationCache.Hit();
            int keys = LocationCache.HOT_RING + 10;
            for (int v = 1; v <= keys; v++) {
                cache.insert(key(v), 0x10, 8, 0);
                for (int i = 1; i < LocationCache.HOT_MARK; i++) {
                    cache.lookup(key(v), v, hit);
                }
            }
            List<Long> drained = new ArrayList<>();
            assertEquals(LocationCache.HOT_RING, cache.drainHot((k, t, c) -> drained.add(t)));
            assertEquals(11L, drained.get(0), "the oldest ten were written over");
        }
    }

    @Test
    void missesAreToldApartByWhyTheyMissed() {
        try (LocationCache cache = new LocationCache(1 << 16, 100)) {
            LocationCache.Hit hit = new LocationCache.Hit();
            assertFalse(cache.lookup(key(1), 0, hit), "never cached");
            cache.insert(key(1), 0x10, 8, 0);
            assertFalse(cache.lookup(key(1), 100, hit), "its lease ran out");
            cache.insert(key(2), 0x20, 8, 0);
            cache.invalidate(key(2), 0x20);
            assertFalse(cache.lookup(key(2), 1, hit), "dropped as stale");
            assertFalse(cache.lookup(key(2), 1, hit), "still dropped: only a refill brings it back");
            assertEquals(4, cache.misses());
            assertEquals(1, cache.expiredMisses());
            assertEquals(2, cache.droppedMisses());
            assertEquals(0, cache.hits());
        }
    }

    @Test
    void invalidationDropsOnlyTheStaleAddress() {
        try (LocationCache cache = new LocationCache(1 << 16, 1000)) {
            LocationCache.Hit hit = new LocationCache.Hit();
            cache.insert(key(1), 0x10, 8, 0);
            cache.invalidate(key(1), 0x99);
            assertTrue(cache.lookup(key(1), 1, hit), "a refreshed entry survives invalidation of an older address");
            cache.invalidate(key(1), 0x10);
            assertFalse(cache.lookup(key(1), 1, hit));
        }
    }

    @Test
    void aStaleAddressIsDroppedButTheKeysAccessCountIsKeptForItsRefill() {
        try (LocationCache cache = new LocationCache(1 << 16, 1000)) {
            LocationCache.Hit hit = new LocationCache.Hit();
            cache.insert(key(1), 0x10, 8, 0);
            for (int i = 0; i < 9; i++) {
                assertTrue(cache.lookup(key(1), 1, hit));
            }
            cache.invalidate(key(1), 0x10); // the value was rewritten elsewhere: a new record, a new address
            assertFalse(cache.lookup(key(1), 1, hit), "the stale address is never used again");
            List<Long> shown = new ArrayList<>();
            cache.forEach(1, (k, a, s, n) -> shown.add(a));
            assertEquals(List.of(), shown, "a way without an address is not shown to the monitor");
            assertEquals(-1, cache.accesses(key(1), 0x10));
            cache.insert(key(1), 0x20, 8, 2); // the GET that found it stale read the bucket again
            List<Long> counts = new ArrayList<>();
            cache.forEach(2, (k, a, s, n) -> counts.add(n));
            assertEquals(List.of(10L), counts, "the reader's count survives the value's rewrite");
            assertTrue(cache.lookup(key(1), 2, hit));
            assertEquals(0x20, hit.address);
        }
    }

    @Test
    void aDroppedWayIsReplacedBeforeAnyLiveOne() {
        try (LocationCache cache = new LocationCache(LocationCache.SET_BYTES, 1_000_000)) {
            LocationCache.Hit hit = new LocationCache.Hit();
            for (long v = 0; v < LocationCache.WAYS; v++) {
                cache.insert(key(v), v + 1, 0, 0);
                for (int i = 0; i < 5; i++) {
                    assertTrue(cache.lookup(key(v), 1, hit));
                }
            }
            cache.invalidate(key(3), 4); // the busiest-but-one is as busy as the rest, but has no address now
            cache.insert(key(100), 101, 0, 2);
            assertTrue(cache.lookup(key(100), 3, hit));
            for (long v = 0; v < LocationCache.WAYS; v++) {
                assertEquals(v != 3, cache.lookup(key(v), 3, hit), "entry " + v);
            }
        }
    }

    @Test
    void theBudgetBoundsTheMemoryAndTheReplacementKeepsTheBusiestEntries() {
        try (LocationCache cache = new LocationCache(LocationCache.SET_BYTES, 1_000_000)) {
            assertEquals(LocationCache.WAYS, cache.capacity(), "one set of 256 bytes");
            assertTrue(cache.bytes() <= LocationCache.SET_BYTES);
            LocationCache.Hit hit = new LocationCache.Hit();
            for (long v = 0; v < LocationCache.WAYS; v++) {
                cache.insert(key(v), v + 1, 0, 0);
            }
            for (int i = 0; i < 10; i++) {
                for (long v = 1; v < LocationCache.WAYS; v++) {
                    assertTrue(cache.lookup(key(v), 1, hit));
                }
            }
            cache.insert(key(100), 101, 0, 2);
            assertFalse(cache.lookup(key(0), 3, hit), "the least accessed entry was evicted");
            assertTrue(cache.lookup(key(100), 3, hit));
            for (long v = 1; v < LocationCache.WAYS; v++) {
                assertTrue(cache.lookup(key(v), 3, hit), "busy entry " + v + " kept");
            }
        }
    }

    @Test
    void theMonitorSeesAccessCountsAndDecayHalvesThem() {
        try (LocationCache cache = new LocationCache(1 << 16, 1_000_000)) {
            LocationCache.Hit hit = new LocationCache.Hit();
            cache.insert(key(7), 1, 0, 0);
            for (int i = 0; i < 9; i++) {
                cache.lookup(key(7), 1, hit);
            }
            List<Long> counts = new ArrayList<>();
            cache.forEach(1, (k, a, s, n) -> counts.add(n));
            assertEquals(List.of(10L), counts, "one for the fill, nine hits");
            cache.decayCounters();
            counts.clear();
            cache.forEach(1, (k, a, s, n) -> counts.add(n));
            assertEquals(List.of(5L), counts);
        }
    }

    @Test
    void aDisabledCacheStoresNothing() {
        try (LocationCache cache = new LocationCache(0, 1000)) {
            assertFalse(cache.enabled());
            cache.insert(key(1), 5, 0, 0);
            assertFalse(cache.lookup(key(1), 1, new LocationCache.Hit()));
            assertEquals(0, cache.capacity());
        }
    }

    @Test
    void readersNeverPairAKeyWithAnotherKeysAddress() throws Exception {
        // Keys that share one set, so writers keep replacing ways under the readers' feet.
        try (LocationCache cache = new LocationCache(LocationCache.SET_BYTES, 1_000_000_000L)) {
            long[] keys = new long[LocationCache.WAYS * 2];
            for (int i = 0; i < keys.length; i++) {
                keys[i] = key(i + 1);
            }
            AtomicReference<String> error = new AtomicReference<>();
            Thread writer = new Thread(() -> {
                for (int round = 0; round < 20_000; round++) {
                    long k = keys[round % keys.length];
                    cache.insert(k, Hashing.mix(k), Hashing.mix(k + 1), 0);
                }
            });
            Thread reader = new Thread(() -> {
                LocationCache.Hit hit = new LocationCache.Hit();
                for (int round = 0; round < 40_000; round++) {
                    long k = keys[round % keys.length];
                    if (cache.lookup(k, 1, hit)
                        && (hit.address != Hashing.mix(k) || hit.slotOffset != Hashing.mix(k + 1))) {
                        error.compareAndSet(null, "key " + k + " got address " + hit.address);
                    }
                }
            });
            writer.start();
            reader.start();
            writer.join();
            reader.join();
            assertEquals(null, error.get());
        }
    }

    @Test
    void lookupsAreCountedAsHitsAndMissesForTheMetrics() {
        try (LocationCache cache = new LocationCache(64 << 10, 1_000)) {
            LocationCache.Hit hit = new LocationCache.Hit();
            long key = KeyLayout.key(5, 0, KeyLayout.OUT);
            assertFalse(cache.lookup(key, 0, hit));
            cache.insert(key, 42, 8, 0);
            assertTrue(cache.lookup(key, 10, hit));
            assertTrue(cache.lookup(key, 20, hit));
            assertFalse(cache.lookup(key, 1_000, hit), "expired: a miss");
            assertEquals(2, cache.hits());
            assertEquals(2, cache.misses());
        }
        try (LocationCache disabled = new LocationCache(0, 1_000)) {
            assertFalse(disabled.lookup(1, 0, new LocationCache.Hit()));
            assertEquals(0, disabled.hits());
            assertEquals(1, disabled.misses(), "a disabled cache misses every lookup");
        }
    }

    @Test
    void aTouchReadsTheSetButIsNoLookup() {
        try (LocationCache cache = new LocationCache(64 << 10, 1_000_000);
             LocationCache disabled = new LocationCache(0, 1_000)) {
            LocationCache.Hit hit = new LocationCache.Hit();
            cache.insert(key(3), 42, 8, 0);
            for (int i = 0; i < 5; i++) {
                cache.touch(key(3));
                cache.touch(key(4));
            }
            assertEquals(0, cache.hits() + cache.misses(), "a touch counts no hit and no miss");
            List<Long> counts = new ArrayList<>();
            cache.forEach(1, (k, a, s, n) -> counts.add(n));
            assertEquals(List.of(1L), counts, "nor an access of the entry: the monitor must not see touches");
            assertTrue(cache.lookup(key(3), 1, hit));
            assertEquals(42, hit.address);
            assertEquals(0, disabled.touch(key(3)), "a disabled cache has no memory to touch");
            assertEquals(0, disabled.misses());
        }
    }
}
