package io.pragh.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.address.Address;
import io.pragh.cache.LocationCache;
import io.pragh.keys.KeyLayout;
import io.pragh.keys.Placement;
import io.pragh.monitor.Monitor;
import io.pragh.monitor.MonitorConfig;
import io.pragh.monitor.MonitorReport;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Real monitors at the relative instant rate (10/s over 2 s intervals) feeding the coordinator, on a clock the test
 * sets: a key read alike by two machines is not handed to either, a key one machine reads is, within the interval.
 */
class InstantDecisionsTest {
    private static final int MACHINES = 4;
    private final Placement placement = Placement.hashed(MACHINES);
    private final List<LocationCache> caches = new ArrayList<>();
    private final Monitor[] monitors = new Monitor[MACHINES];

    @AfterEach
    void close() {
        caches.forEach(LocationCache::close);
    }

    private void startMonitors() {
        for (int m = 0; m < MACHINES; m++) {
            LocationCache cache = new LocationCache(64 << 10, 60_000);
            caches.add(cache);
            monitors[m] = new Monitor(m, placement, cache, MonitorConfig.defaults().withIntervalMillis(2_000));
            monitors[m].start(0);
        }
    }

    private long keyHomedAt(int home, long from) {
        for (long vid = from; ; vid++) {
            long key = KeyLayout.key(vid, 0, KeyLayout.OUT);
            if (placement.home(key) == home) {
                return key;
            }
        }
    }

    /** Machine {@code reader} caches {@code key} (value at its home) at {@code atMillis} and reads it once a ms. */
    private void read(int reader, long key, int reads, long atMillis) {
        LocationCache cache = caches.get(reader);
        cache.insert(key, Address.at(placement.home(key), placement.home(key), Address.local(2, 1, 100)), 128,
            atMillis);
        LocationCache.Hit hit = new LocationCache.Hit();
        for (int i = 0; i < reads; i++) {
            assertTrue(cache.lookup(key, atMillis + i, hit));
        }
    }

    private List<MonitorReport> poll(long now) {
        List<MonitorReport> reports = new ArrayList<>();
        for (Monitor m : monitors) {
            MonitorReport r = m.poll(now);
            if (r != null) {
                reports.add(r);
            }
        }
        return reports;
    }

    @Test
    void aKeyTwoMachinesReadAlikeStaysAndAKeyOneMachineReadsMovesWithinTheInterval() {
        startMonitors();
        Coordinator c = new Coordinator(MACHINES, placement, CoordinatorConfig.defaults());
        long shared = keyHomedAt(0, 1);
        long own = keyHomedAt(0, shared + 1);
        read(1, shared, 30, 1_000);
        read(2, shared, 28, 1_002);
        read(3, own, 30, 1_000);
        List<MonitorReport> reports = poll(1_200);
        assertEquals(3, reports.size(), "machines 1, 2 and 3 report the keys they read about 30 times in 0.03 s");
        assertEquals(10, reports.get(0).instantRate(), 1e-9);
        Decisions d = c.onInstantReports(reports);
        assertEquals(1, d.approvals().size(), "machine 2 reported the shared key in the same poll as machine 1, so"
            + " neither gets it: " + d.approvals());
        Decisions.Approval a = d.approvals().get(0);
        assertEquals(own, a.key(), "the key machine 3 alone reads moves at once");
        assertEquals(3, a.target());
        Coordinator oneByOne = new Coordinator(MACHINES, placement, CoordinatorConfig.defaults());
        MonitorReport first = reports.stream().filter(r -> r.machine() == 1).findFirst().orElseThrow();
        assertEquals(List.of(shared), oneByOne.onInstantReport(first).approvals().stream()
            .map(Decisions.Approval::key).toList(),
            "decided before machine 2's report of the same poll, machine 1 would have taken it");
    }
}
