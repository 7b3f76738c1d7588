package io.pragh.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.address.Address;
import io.pragh.cache.LocationCache;
import io.pragh.keys.KeyLayout;
import io.pragh.keys.Placement;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class MonitorTest {
    private static final int SELF = 0;
    private final Placement placement = Placement.hashed(4);
    private final LocationCache cache = new LocationCache(64 << 10, 60_000);

    @AfterEach
    void close() {
        cache.close();
    }

    private long keyHomedAt(int home, long from) {
        for (long vid = from; ; vid++) {
            long key = KeyLayout.key(vid, 0, KeyLayout.OUT);
            if (placement.home(key) == home) {
                return key;
            }
        }
    }

    private static Optional<KeyRate> find(MonitorReport r, long key) {
        return r.keys().stream().filter(k -> k.key() == key).findFirst();
    }

    /** A remote key cached with its value on {@code host}, then hit {@code hits} times. */
    private void cacheAndHit(long key, int host, int hits) {
        cacheAndHitAt(key, host, hits, 0, 0);
    }

    /** As {@link #cacheAndHit}, cached at {@code atMillis}, the i-th hit at {@code atMillis + i * stepMillis}. */
    private void cacheAndHitAt(long key, int host, int hits, long atMillis, long stepMillis) {
        long address = Address.at(host, placement.home(key), Address.local(2, 1, 100));
        cache.insert(key, address, 128, atMillis);
        LocationCache.Hit hit = new LocationCache.Hit();
        for (int i = 0; i < hits; i++) {
            assertTrue(cache.lookup(key, atMillis + i * stepMillis, hit));
        }
    }

    @Test
    void remoteAccessRatesComeFromTheLocationCacheAndDecayEveryInterval() {
        Monitor m = new Monitor(SELF, placement, cache, MonitorConfig.defaults());
        m.start(0);
        long remote = keyHomedAt(2, 1);
        long migratedHere = keyHomedAt(3, 1);
        cacheAndHit(remote, 2, 499);
        cacheAndHit(migratedHere, SELF, 99);
        MonitorReport first = m.endInterval(1_000);
        assertFalse(first.instant());
        KeyRate r = find(first, remote).orElseThrow();
        assertEquals(500, r.rate(), 1e-9, "insert counts 1, each hit 1, over one second");
        assertEquals(2, r.host());
        assertFalse(r.tracked());
        KeyRate h = find(first, migratedHere).orElseThrow();
        assertEquals(SELF, h.host(), "a value migrated here is still watched through the cache");
        MonitorReport second = m.endInterval(2_000);
        assertEquals(250, find(second, remote).orElseThrow().rate(), 1e-9, "halved, no new accesses");
    }

    @Test
    void aKeyRewrittenBetweenItsReadsIsStillReportedWithEveryRead() {
        // A hot adjacency list takes edge inserts: each PUT writes a new record at the value's host, so this reader's
        // cached address is stale at its next read, which drops it and reads the bucket again. Counted from the
        // refill only, a key read 3 times an interval and written between the reads was never reported (1 < 2).
        Monitor m = new Monitor(SELF, placement, cache, MonitorConfig.defaults());
        m.start(0);
        long key = keyHomedAt(2, 1);
        LocationCache.Hit hit = new LocationCache.Hit();
        long address = 0;
        for (int read = 0; read < 3; read++) {
            if (address != 0) {
                assertTrue(cache.lookup(key, 0, hit), "read " + read + " uses its cached address");
                cache.invalidate(key, address); // ... finds the record replaced by the PUT
            }
            address = Address.at(2, 2, Address.local(2, 1, 100 + read));
            cache.insert(key, address, 128, 0); // the bucket read's refill (the first read's fill)
        }
        KeyRate r = find(m.endInterval(1_000), key).orElseThrow();
        assertEquals(3, r.rate(), 1e-9, "three reads in one second, the writes between them notwithstanding");
    }

    @Test
    void keysBelowTheReportRateAreLeftOut() {
        Monitor m = new Monitor(SELF, placement, cache, MonitorConfig.defaults().withRates(100, 10));
        m.start(0);
        long cold = keyHomedAt(1, 1);
        cacheAndHit(cold, 1, 8);
        assertTrue(find(m.endInterval(1_000), cold).isEmpty(), "9 accesses/s is below 10/s");
    }

    @Test
    void byDefaultAKeyReadTwiceIsReportedWhateverItsRateAndAKeyReadOnceIsNot() {
        Monitor m = new Monitor(SELF, placement, cache, MonitorConfig.defaults());
        m.start(0);
        long once = keyHomedAt(1, 1);
        long twice = keyHomedAt(1, KeyLayout.vid(once) + 1);
        cacheAndHit(once, 1, 0);
        cacheAndHit(twice, 1, 1);
        // 1 and 2 accesses/s, far below the paper's 10/s: only the count of accesses decides, not a rate tuned to
        // one throughput.
        MonitorReport report = m.endInterval(1_000);
        assertTrue(find(report, once).isEmpty(), "one access says nothing about who reads a key most");
        assertEquals(2, find(report, twice).orElseThrow().rate(), 1e-9);
    }

    @Test
    void aKeyHoldingAShareOfRemoteReadsIsReportedAtAnyRateAndKeysBelowTheShareAreNot() {
        Monitor m = new Monitor(SELF, placement, cache, MonitorConfig.defaults().withMinShare(0.25));
        m.start(0);
        long hot = keyHomedAt(1, 1);
        cacheAndHit(hot, 1, 9);
        long from = KeyLayout.vid(hot) + 1;
        long[] cold = new long[10];
        for (int i = 0; i < cold.length; i++) {
            cold[i] = keyHomedAt(2, from);
            from = KeyLayout.vid(cold[i]) + 1;
            cacheAndHit(cold[i], 2, 2);
        }
        // 40 remote accesses in 50 s: the hot key's 10 are a quarter of them at 0.2/s, far below the paper's 10/s;
        // each cold key's 3 pass minAccesses (2) but are 7.5% of the machine's remote reads.
        MonitorReport report = m.endInterval(50_000);
        assertEquals(10, m.reportThreshold(), "a quarter of 40 remote accesses");
        assertEquals(0.2, find(report, hot).orElseThrow().rate(), 1e-9);
        for (long k : cold) {
            assertTrue(find(report, k).isEmpty(), "3 of 40 remote accesses is below a 25% share");
        }
    }

    @Test
    void theDefaultShareLeavesMinAccessesInChargeAtLowRatesAndAReportRateReplacesTheShare() {
        Monitor relative = new Monitor(SELF, placement, cache, MonitorConfig.defaults());
        relative.start(0);
        long key = keyHomedAt(1, 1);
        cacheAndHit(key, 1, 2);
        relative.endInterval(1_000);
        assertEquals(MonitorConfig.DEFAULT_MIN_ACCESSES, relative.reportThreshold(),
            "2^-21 of 3 remote accesses is far below 2 accesses");
        Monitor absolute = new Monitor(SELF, placement, cache, MonitorConfig.defaults().withMinShare(0.9)
            .withRates(100, 0.5));
        absolute.start(0);
        cacheAndHit(key, 1, 2);
        MonitorReport report = absolute.endInterval(2_000);
        assertEquals(MonitorConfig.DEFAULT_MIN_ACCESSES, absolute.reportThreshold(), "the share is not applied");
        assertTrue(find(report, key).isPresent(), "decayed and new accesses over 2 s pass 0.5/s");
    }

    @Test
    void aKeyPassingTheInstantRateIsReportedOnceAnInterval() {
        Monitor m = new Monitor(SELF, placement, cache, MonitorConfig.defaults().withRates(100, 10));
        m.start(0);
        long hot = keyHomedAt(1, 1);
        cacheAndHit(hot, 1, 30);
        assertNull(m.poll(500), "31 accesses in 0.5 s is 62/s, below 100/s");
        cacheAndHit(hot, 1, 40);
        MonitorReport instant = m.poll(500);
        assertNotNull(instant);
        assertTrue(instant.instant());
        assertEquals(142, find(instant, hot).orElseThrow().rate(), 1e-9);
        assertNull(m.poll(600), "already reported in this interval");
        m.endInterval(1_000);
        cacheAndHit(hot, 1, 200);
        assertNotNull(m.poll(1_500), "a new interval reports it again");
    }

    @Test
    void aKeyFirstReadLateInTheIntervalIsReportedInstantlyOnItsRateSinceItBecameBusy() {
        Monitor m = new Monitor(SELF, placement, cache, MonitorConfig.defaults().withRates(100, 10));
        m.start(0);
        long late = keyHomedAt(1, 1);
        cacheAndHitAt(late, 1, 39, 1_500, 1); // 1,000/s from 1.5 s into the interval
        MonitorReport instant = m.poll(1_700);
        assertNotNull(instant, "40 accesses are 23.5/s over the interval's 1.7 s, but 165/s since the key got busy");
        KeyRate k = find(instant, late).orElseThrow();
        assertEquals(32 / 0.194, k.rate(), 1e-9,
            "reported at the rate it passed on (32 reads since its 8th at 1,506 ms), which the coordinator weighs"
                + " against other machines' instant rates");
        assertEquals(1, k.host());
    }

    @Test
    void aBusyKeyBelowTheInstantRateStaysACandidateUntilItPassesOrTheIntervalEnds() {
        Monitor m = new Monitor(SELF, placement, cache, MonitorConfig.defaults().withRates(100, 10));
        m.start(0);
        long key = keyHomedAt(1, 1);
        cacheAndHitAt(key, 1, 9, 1_000, 0);
        assertNull(m.poll(1_500), "10 accesses, 2 since it got busy 0.5 s ago: 4/s");
        LocationCache.Hit hit = new LocationCache.Hit();
        for (int i = 0; i < 60; i++) {
            assertTrue(cache.lookup(key, 1_600, hit)); // crosses 16 and 32 and 64 too; the first mark counts
        }
        assertNotNull(m.poll(1_600), "62 accesses in 0.6 s since it got busy pass 100/s");
        m.endInterval(2_000);
        assertNull(m.poll(2_100), "the new interval's candidates start empty");
    }

    /**
     * With no absolute report rate the instant rate is ten times the rate of the periodic threshold: 2 accesses over a
     * 2 s interval give 10/s, so a key read 12 times in 1.2 s is reported at once, which the paper's 100/s would leave
     * for the interval's end.
     */
    @Test
    void theRelativeInstantRateIsTenTimesThePeriodicThresholdsRate() {
        Monitor m = new Monitor(SELF, placement, cache, MonitorConfig.defaults().withIntervalMillis(2_000));
        assertEquals(10, m.instantRate(), 1e-9, "before any interval: 2 accesses over the configured 2 s, times ten");
        m.start(0);
        long key = keyHomedAt(1, 1);
        cacheAndHitAt(key, 1, 11, 1_000, 10);
        MonitorReport instant = m.poll(1_200);
        assertNotNull(instant, "12 accesses in 1.2 s: 10/s");
        assertTrue(find(instant, key).isPresent());
        assertEquals(10, instant.instantRate(), 1e-9, "the report says the instant rate it was made with");
        MonitorReport periodic = m.endInterval(2_000);
        assertEquals(10, periodic.instantRate(), 1e-9, "2 accesses over 2 s again");
    }

    /** The relative instant rate follows the interval's remote reads (through the share), up to the absolute rate. */
    @Test
    void theRelativeInstantRateFollowsTheIntervalsRemoteReadsUpToTheAbsoluteRate() {
        Monitor m = new Monitor(SELF, placement, cache, MonitorConfig.defaults().withMinShare(0.25));
        m.start(0);
        cacheAndHit(keyHomedAt(1, 1), 1, 39);
        m.endInterval(2_000);
        assertEquals(10, m.reportThreshold(), "a quarter of 40 remote accesses");
        assertEquals(50, m.instantRate(), 1e-9, "ten times 10 accesses over 2 s");
        cacheAndHit(keyHomedAt(2, 1), 2, 399);
        m.endInterval(4_000);
        assertEquals(100, m.instantRate(), 1e-9, "ten times 105 accesses over 2 s is 525/s: capped at 100/s");
        Monitor paper = new Monitor(SELF, placement, cache, MonitorConfig.defaults().withRates(100, 10));
        assertEquals(100, paper.instantRate(), 1e-9, "a report rate (--min-rate) keeps the paper's absolute rates");
        Monitor off = new Monitor(SELF, placement, cache, MonitorConfig.defaults().withInstantFactor(0));
        assertEquals(100, off.instantRate(), 1e-9, "no factor: the absolute instant rate");
    }

    /** The paper's absolute instant rate leaves the same 10/s key for the interval's end. */
    @Test
    void anAbsoluteInstantRateLeavesAKeyReadTenTimesASecondForTheIntervalsEnd() {
        Monitor m = new Monitor(SELF, placement, cache, MonitorConfig.defaults().withRates(100, 1));
        m.start(0);
        long key = keyHomedAt(1, 1);
        cacheAndHitAt(key, 1, 11, 1_000, 10);
        assertNull(m.poll(1_200));
        assertEquals(100, m.endInterval(2_000).instantRate(), 1e-9);
    }

    /**
     * A key read at 60/s carries half its count into the next interval: 0.1 s in, that count over 0.1 s would say 340/s;
     * measured over the previous interval too it says 31/s, and the key is not reported at 100/s.
     */
    @Test
    void aCountCarriedFromThePreviousIntervalIsNotAnInstantRateEarlyInTheNext() {
        Monitor m = new Monitor(SELF, placement, cache, MonitorConfig.defaults().withRates(100, 10));
        m.start(0);
        long key = keyHomedAt(1, 1);
        cacheAndHitAt(key, 1, 60, 0, 16); // 61 accesses in the first second
        m.endInterval(1_000);
        cacheAndHitAt(key, 1, 4, 1_000, 20); // 30 carried, 34 at 1,060 ms
        assertNull(m.poll(1_100), "34 accesses over the previous interval and this one's 0.1 s: 31/s, below 100/s");
        cacheAndHitAt(key, 1, 120, 1_100, 0);
        assertNotNull(m.poll(1_200), "154 accesses over 1.2 s pass 100/s");
    }

    /**
     * Marks a key made in the ring before an interval ended carry counts from before the halving: the next interval
     * measures the key's rate since its first mark in that interval, so a key read at 1,000/s again passes 100/s.
     */
    @Test
    void aMarkFromBeforeTheIntervalsEndDoesNotStandForTheKeyInTheNext() {
        Monitor m = new Monitor(SELF, placement, cache, MonitorConfig.defaults().withRates(100, 10));
        m.start(0);
        long key = keyHomedAt(1, 1);
        cacheAndHitAt(key, 1, 40, 0, 1); // marks at 8, 16 and 32 in the first 31 ms, never polled
        m.endInterval(1_000);
        cacheAndHitAt(key, 1, 60, 1_500, 1); // 20 carried; 32 at 1,511 ms, 80 at 1,559 ms
        MonitorReport r = m.poll(1_600);
        assertNotNull(r, "48 accesses in 0.1 s since its mark at 32 pass 100/s (80 over 1.6 s would not)");
        assertEquals(48 / 0.1, find(r, key).orElseThrow().rate(), 1e-9);
    }

    /** Cache sets per slice of an interval end in the tests below: the 256 sets of the test's cache in 16 slices. */
    private static final int SLICE = 16;

    /** A key homed at {@code home} whose cache set is in {@code [fromSet, toSet)}. */
    private long keyInSets(int home, int fromSet, int toSet) {
        for (long vid = 1; ; vid++) {
            long key = KeyLayout.key(vid, 0, KeyLayout.OUT);
            int set = cache.setIndex(key);
            if (placement.home(key) == home && set >= fromSet && set < toSet) {
                return key;
            }
        }
    }

    private void hit(long key, int hits, long atMillis) {
        LocationCache.Hit hit = new LocationCache.Hit();
        for (int i = 0; i < hits; i++) {
            assertTrue(cache.lookup(key, atMillis, hit));
        }
    }

    private long accesses(long key, long nowMillis) {
        LocationCache.Hit hit = new LocationCache.Hit();
        assertTrue(cache.peek(key, nowMillis, hit));
        return hit.accesses;
    }

    private static MonitorReport finishEnd(Monitor m, long nowMillis) {
        MonitorReport report;
        int slices = 0;
        while ((report = m.continueEnd(nowMillis)) == null) {
            assertTrue(++slices < 1_000, "an interval end that never reports");
        }
        assertFalse(m.ending());
        return report;
    }

    /** A monitor started at 0 whose interval ends pass {@link #SLICE} sets a slice. */
    private Monitor slicedMonitor(MonitorConfig config) {
        Monitor m = new Monitor(SELF, placement, cache, config, SLICE);
        m.start(0);
        return m;
    }

    /**
     * Two keys with their values on {@code host}, one in the first slice's sets and one in the second half's, each
     * cached and hit {@code hits} times; then {@code m}'s end begins at 1,000 ms and makes its first slice only.
     * Returns the passed key and the one whose slice is ahead.
     */
    private record Keys(long passed, long ahead) {
    }

    private Keys endBegunAfterOneSlice(Monitor m, int host, int hits) {
        long passed = keyInSets(host, 0, SLICE);
        long ahead = keyInSets(host, 8 * SLICE, 16 * SLICE);
        cacheAndHit(passed, host, hits);
        cacheAndHit(ahead, host, hits);
        m.beginEnd(1_000);
        assertTrue(m.ending());
        assertNull(m.continueEnd(1_000), "one slice of sixteen");
        return new Keys(passed, ahead);
    }

    /**
     * An end in slices: a read made after its key's set was passed belongs to the new interval (not halved now, so not
     * halved twice), one made before belongs to the ending interval (reported, then halved once): every read is
     * counted exactly once in the decayed sums, and the next interval's report shows it.
     */
    @Test
    void readsCountedDuringAnIntervalEndAreNeitherLostNorHalvedTwice() {
        Monitor m = slicedMonitor(MonitorConfig.defaults());
        Keys k = endBegunAfterOneSlice(m, 2, 99);
        hit(k.passed(), 20, 1_001);
        hit(k.ahead(), 20, 1_001);
        assertEquals(50 + 20, accesses(k.passed(), 1_001), "halved, then counting the new interval's reads");
        assertEquals(100 + 20, accesses(k.ahead(), 1_001), "its slice is ahead: still the ending interval's count");
        MonitorReport end = finishEnd(m, 1_002);
        assertEquals(100, find(end, k.passed()).orElseThrow().rate(), 1e-9, "the ending interval's 100 reads over 1 s");
        assertEquals(120, find(end, k.ahead()).orElseThrow().rate(), 1e-9,
            "reads made before its set's slice belong to the ending interval");
        assertEquals(70, accesses(k.passed(), 1_002), "the reads made after its slice are not halved with the rest");
        assertEquals(60, accesses(k.ahead(), 1_002), "halved once");
        MonitorReport next = m.endInterval(2_000);
        assertEquals(70, find(next, k.passed()).orElseThrow().rate(), 1e-9, "50 carried and 20 of its own, over 1 s");
        assertEquals(60, find(next, k.ahead()).orElseThrow().rate(), 1e-9);
        assertEquals(35, accesses(k.passed(), 2_000));
        assertEquals(30, accesses(k.ahead(), 2_000));
    }

    /** Polls run between the slices of an end, and report keys read fast since it began, passed or not yet. */
    @Test
    void instantReportsContinueWhileAnIntervalEnds() {
        Monitor m = slicedMonitor(MonitorConfig.defaults().withRates(100, 10));
        Keys k = endBegunAfterOneSlice(m, 1, 1);
        cacheAndHitAt(k.passed(), 1, 60, 1_000, 1); // 1 carried, 61 at 1,059 ms: marked at 8 (1,006 ms)
        cacheAndHitAt(k.ahead(), 1, 60, 1_000, 1); // 62 at 1,059 ms: marked at 8 (1,005 ms), before its slice
        MonitorReport hot = m.poll(1_100);
        assertNotNull(hot, "a poll in the middle of an interval end");
        assertTrue(m.ending());
        assertEquals((61 - 8) / 0.1, find(hot, k.passed()).orElseThrow().rate(), 1e-9, "53 reads since its mark");
        assertEquals((31 - 4) / 0.1, find(hot, k.ahead()).orElseThrow().rate(), 1e-9,
            "its count and its mark as its slice will halve them: 27 reads since its mark, in the new interval's terms");
        finishEnd(m, 1_100);
        assertNull(m.poll(1_150), "reported once in the new interval");
    }

    /**
     * A key read 255 times in the ending interval and once since: 0.1 s into the next one it carries 128 accesses,
     * 116/s over the previous interval's second and this one's 0.1 s, below 200/s. Polled while its set's slice is
     * still ahead, its unhalved 256 said 233/s and reported it, although nobody read it faster.
     */
    @Test
    void aPollDuringAnEndTellsTheEndingIntervalsCountsFromTheNewIntervals() {
        Monitor m = slicedMonitor(MonitorConfig.defaults().withRates(200, 10));
        Keys k = endBegunAfterOneSlice(m, 1, 254);
        hit(k.passed(), 1, 1_000); // 127 + 1: marked at 128 after its halving
        hit(k.ahead(), 1, 1_000); // 255 + 1: marked at 256 before its halving
        assertNull(m.poll(1_100), "128 accesses over 1.1 s: 116/s either side of the cursor");
        assertEquals(256, accesses(k.ahead(), 1_100), "the count itself waits for its slice");
        finishEnd(m, 1_100);
        assertNull(m.poll(1_100), "halved now: the same 116/s");
    }

    /**
     * A key that became busy during an end, before its set's slice, and was drained after the slice: its mark is
     * halved as its count was, so 16 reads in 0.15 s since the mark are 107/s, past 100/s. Left unhalved, the mark
     * (8) against the halved count (4 + 16) said 12 reads: 80/s.
     */
    @Test
    void aMarkMadeBeforeItsSliceCountsFromBeforeTheHalving() {
        Monitor m = slicedMonitor(MonitorConfig.defaults().withRates(100, 10));
        long key = keyInSets(1, 8 * SLICE, 16 * SLICE);
        cacheAndHit(key, 1, 1);
        m.beginEnd(1_000);
        hit(key, 6, 1_001); // 8 at 1,001 ms: marked before its slice
        finishEnd(m, 1_050); // halved to 4
        hit(key, 16, 1_100); // 20: marked again at 16, after the first mark
        MonitorReport r = m.poll(1_150);
        assertNotNull(r);
        assertEquals(16 / 0.149, find(r, key).orElseThrow().rate(), 1e-9);
    }

    @Test
    void anEndIsMadeOnceAtATime() {
        Monitor m = slicedMonitor(MonitorConfig.defaults());
        assertThrows(IllegalStateException.class, () -> m.continueEnd(100), "no end under way");
        m.beginEnd(1_000);
        IllegalStateException twice = assertThrows(IllegalStateException.class, () -> m.beginEnd(1_001));
        assertTrue(twice.getMessage().contains("under way"), twice.getMessage());
        finishEnd(m, 1_001);
        assertThrows(IllegalArgumentException.class,
            () -> new Monitor(SELF, placement, cache, MonitorConfig.defaults(), 0));
    }

    @Test
    void aFewAccessesJustAfterTheIntervalStartedAreNotAnInstantRate() {
        Monitor m = new Monitor(SELF, placement, cache, MonitorConfig.defaults().withRates(100, 10));
        m.start(0);
        long key = keyHomedAt(1, 1);
        cacheAndHit(key, 1, 2);
        assertNull(m.poll(2), "3 accesses 2 ms into the interval are not 1500/s");
    }

    @Test
    void localAccessesAreCountedOnlyForTrackedKeys() {
        Monitor m = new Monitor(SELF, placement, cache, MonitorConfig.defaults());
        m.start(0);
        long local = keyHomedAt(SELF, 1);
        for (int i = 0; i < 50; i++) {
            m.onAccess(local, SELF, SELF);
        }
        assertTrue(find(m.endInterval(1_000), local).isEmpty(), "untracked local accesses are not counted");
        m.track(local);
        assertTrue(m.isTracked(local));
        KeyRate idle = find(m.endInterval(2_000), local).orElseThrow();
        assertEquals(0, idle.rate(), 1e-9);
        assertTrue(idle.tracked(), "a tracked key is reported even with no access: its rate is a measurement");
        for (int i = 0; i < 50; i++) {
            m.onAccess(local, SELF, 3);
        }
        KeyRate busy = find(m.endInterval(3_000), local).orElseThrow();
        assertEquals(50, busy.rate(), 1e-9);
        assertEquals(3, busy.host(), "the host the value was last seen on");
        m.untrack(local);
        m.onAccess(local, SELF, SELF);
        assertTrue(find(m.endInterval(4_000), local).isEmpty());
    }

    /**
     * Only a key's home tracks it: the coordinator asks nothing else, and the GET path relies on it (a remote key's
     * access skips the tracked-key probe), so a request to track a remote key is refused by name rather than counted
     * nowhere.
     */
    @Test
    void trackingAKeyHomedElsewhereIsRefusedNamingItsHome() {
        Monitor m = new Monitor(SELF, placement, cache, MonitorConfig.defaults());
        m.start(0);
        long remote = keyHomedAt(2, 1);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> m.track(remote));
        assertTrue(e.getMessage().contains("key " + remote + " is homed on machine 2"), e.getMessage());
        assertFalse(m.isTracked(remote));
        for (int i = 0; i < 50; i++) {
            m.onAccess(remote, 2, SELF);
        }
        assertTrue(find(m.endInterval(1_000), remote).isEmpty(),
            "a remote key's accesses are the location cache's to count, not the table's");
    }

    @Test
    void aTouchOfATrackedKeyIsNoAccess() {
        Monitor m = new Monitor(SELF, placement, cache, MonitorConfig.defaults());
        m.start(0);
        long local = keyHomedAt(SELF, 1);
        m.track(local);
        for (int i = 0; i < 50; i++) {
            m.touch(local);
        }
        assertEquals(0, find(m.endInterval(1_000), local).orElseThrow().rate(), 1e-9,
            "a batch GET's touch only reads memory early; the access is counted when the value is delivered");
        assertTrue(m.isTracked(local));
    }

    @Test
    void withoutALocationCacheRemoteAccessesAreCountedInTheTable() {
        Monitor m = new Monitor(SELF, placement, cache, MonitorConfig.defaults().withRemoteCountedInTable(true));
        m.start(0);
        long remote = keyHomedAt(1, 1);
        long local = keyHomedAt(SELF, 1);
        for (int i = 0; i < 20; i++) {
            m.onAccess(remote, 1, 1);
            m.onAccess(local, SELF, SELF);
        }
        MonitorReport r = m.endInterval(1_000);
        assertEquals(20, find(r, remote).orElseThrow().rate(), 1e-9);
        assertTrue(find(r, local).isEmpty(), "local keys still need tracking");
    }

    @Test
    void aMachineWithoutALocationCacheCountsRemoteAccessesInItsTableByItself() {
        try (LocationCache disabled = new LocationCache(0, 60_000)) {
            Monitor m = new Monitor(SELF, placement, disabled, MonitorConfig.defaults());
            m.start(0);
            long remote = keyHomedAt(2, 1);
            for (int i = 0; i < 15; i++) {
                m.onAccess(remote, 2, 2);
            }
            assertEquals(15, find(m.endInterval(1_000), remote).orElseThrow().rate(), 1e-9);
        }
    }

    @Test
    void reportsNeedAStartedInterval() {
        Monitor m = new Monitor(SELF, placement, cache, MonitorConfig.defaults());
        assertThrows(IllegalStateException.class, () -> m.endInterval(1_000));
    }

    @Test
    void inconsistentRatesAreRefusedByName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> MonitorConfig.defaults().withRates(10, 100));
        assertTrue(e.getMessage().contains("reportRate"), e.getMessage());
        IllegalArgumentException share = assertThrows(IllegalArgumentException.class,
            () -> MonitorConfig.defaults().withMinShare(1.5));
        assertTrue(share.getMessage().contains("minShare"), share.getMessage());
    }
}
