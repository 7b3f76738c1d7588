package io.pragh.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.migration.Migrator;
import io.pragh.reclaim.Leases;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

class LeakScannerTest {
    private static final Leases SHORT = new Leases(20, 40);

    private static byte[] value(long key, long seq) {
        UnsafeBuffer b = new UnsafeBuffer(new byte[16]);
        b.putLong(0, key);
        b.putLong(8, seq);
        return b.byteArray();
    }

    private static void awaitTrue(java.util.function.BooleanSupplier c, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!c.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, what);
            Thread.sleep(5);
        }
    }

    @Test
    void anInterruptedMigrationsCopyIsReclaimedOnceItsGracePeriodPassedAndLiveValuesAreLeftAlone() throws Exception {
        try (TestStores c = new TestStores(3, SHORT)) {
            long leakedKey = c.keyHomedOn(0, 1);
            long movedKey = c.keyHomedOn(0, 2);
            long localKey = c.keyHomedOn(2, 1);
            c.put(0, leakedKey, value(leakedKey, 1));
            c.put(0, movedKey, value(movedKey, 1));
            c.put(0, localKey, value(localKey, 1));
            c.migrate(movedKey, 2);
            MachineStore target = c.stores[2];
            long liveBefore = target.values().liveBytes();
            c.plantInterruptedCopy(2, leakedKey, value(leakedKey, 1), 7);
            assertTrue(target.values().liveBytes() > liveBefore);

            LeakScanner scan = target.leakScanner();
            long t0 = System.nanoTime();
            long grace = TimeUnit.MILLISECONDS.toNanos(scan.graceMillis());
            assertEquals(0, scan.scanOnce(t0), "nothing is reclaimed at first sight");
            assertEquals(1, scan.suspected(), "only the unswitched copy is suspected");
            assertEquals(0, scan.scanOnce(t0 + grace / 2), "not within the grace period");
            assertEquals(1, scan.scanOnce(t0 + grace + 1), "reclaimed once the grace period passed");
            assertEquals(0, scan.suspected());
            assertEquals(1, scan.reclaimed());
            assertTrue(scan.reclaimedBytes() >= 16 + 24, "counts the record's bytes: " + scan.reclaimedBytes());
            awaitTrue(() -> target.values().liveBytes() == liveBefore, "the reclaim lease passes and it is freed");

            for (int r = 0; r < 3; r++) {
                assertArrayEquals(value(leakedKey, 1), c.stores[r].newSession().get(leakedKey).toBytes());
                assertArrayEquals(value(movedKey, 1), c.stores[r].newSession().get(movedKey).toBytes());
                assertArrayEquals(value(localKey, 1), c.stores[r].newSession().get(localKey).toBytes());
            }
            assertEquals(0, scan.scanOnce(t0 + 3 * grace), "nothing else is ever suspected");
            assertEquals(0, scan.suspected());
        }
    }

    @Test
    void aRecordLoadedForAKeyThisMachineIsAboutToHomeIsNoLeak() {
        try (TestStores c = new TestStores(3, SHORT)) {
            long key = c.keyHomedOn(0, 1);
            c.put(0, key, value(key, 1));
            // A shard baseline's copy at its target before the shard's owner flips: the table still names machine 0.
            MachineStore target = c.stores[2];
            byte[] copy = value(key, 1);
            target.load(key, 1, new UnsafeBuffer(copy), 0, copy.length);
            LeakScanner scan = target.leakScanner();
            long t0 = System.nanoTime();
            long grace = TimeUnit.MILLISECONDS.toNanos(scan.graceMillis());
            assertEquals(0, scan.scanOnce(t0));
            assertEquals(0, scan.suspected(), "the key entry the load made here names it");
            assertEquals(0, scan.scanOnce(t0 + 3 * grace));
            assertEquals(0, scan.reclaimed());
            long address = target.keys().address(target.keys().find(key));
            assertTrue(io.pragh.values.ValueRecord.isLiveAt(target.regions().readHeader(2,
                io.pragh.address.Address.byteOffset(address)), address), "the copy is still live for the flip");
        }
    }

    @Test
    void aSuspectThatGetsNamedBeforeItsGracePeriodEndsIsKept() {
        try (TestStores c = new TestStores(3, SHORT)) {
            long key = c.keyHomedOn(0, 1);
            c.put(0, key, value(key, 1));
            // The record is written and suspected, then (as a slow but in-lease migration would) published.
            long planted = c.plantInterruptedCopy(2, key, value(key, 1), 3);
            LeakScanner scan = c.stores[2].leakScanner();
            long t0 = System.nanoTime();
            scan.scanOnce(t0);
            assertEquals(1, scan.suspected());
            MachineStore home = c.stores[0];
            long slot = home.keys().find(key);
            long old = home.keys().address(slot);
            assertTrue(home.regions().casAddress(0, slot, old, io.pragh.address.Address.at(2, 0, planted)));
            assertEquals(0, scan.scanOnce(t0 + TimeUnit.SECONDS.toNanos(10)), "a named record is never reclaimed");
            assertEquals(0, scan.suspected());
            assertArrayEquals(value(key, 1), c.stores[1].newSession().get(key).toBytes());
        }
    }

    /**
     * Scans run every 5 ms on every machine (short leases: a 80 ms grace period) while values migrate between all
     * three machines and are read; half of them are rewritten all the time, the other half (cold) never, so their
     * records outlive many grace periods. A scan that freed a live record, or one waiting in a reclaim ring,
     * would make a GET fail its checks until it gives up, return foreign bytes, or lose an acknowledged PUT; the
     * copies planted at the start show that the scans ran and did reclaim.
     */
    @Test
    void scansRunningBesideMigrationsAndUpdatesReclaimOnlyLeakedCopies() throws Exception {
        try (TestStores c = new TestStores(3, SHORT, 5)) {
            int n = 24;
            long[] keys = new long[n];
            for (int i = 0; i < n; i++) {
                keys[i] = c.keyHomedOn(i % 3, 1 + i / 3);
                c.put(i % 3, keys[i], value(keys[i], 0));
            }
            int planted = 6;
            for (int i = 0; i < planted; i++) {
                c.plantInterruptedCopy((i + 1) % 3, keys[i], value(keys[i], 0), 1);
            }
            AtomicBoolean stop = new AtomicBoolean();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            AtomicLongArray acked = new AtomicLongArray(n);
            List<Thread> threads = new ArrayList<>();
            threads.add(new Thread(() -> {
                Migrator[] m = {new Migrator(c.stores[0], 4), new Migrator(c.stores[1], 4),
                    new Migrator(c.stores[2], 4)};
                while (!stop.get()) {
                    m[ThreadLocalRandom.current().nextInt(3)].migrate(keys[ThreadLocalRandom.current().nextInt(n)]);
                    // Paced, so that cold keys stay put longer than a grace period between their migrations.
                    java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
                }
            }));
            for (int w = 0; w < 2; w++) {
                int first = w;
                threads.add(new Thread(() -> {
                    long seq = 0;
                    while (!stop.get()) {
                        seq++;
                        for (int i = first; i < n / 2; i += 2) {
                            c.put((int) (seq % 3), keys[i], value(keys[i], seq));
                            acked.set(i, seq);
                        }
                    }
                }));
            }
            for (int r = 0; r < 3; r++) {
                Session s = c.stores[r].newSession();
                threads.add(new Thread(() -> {
                    while (!stop.get()) {
                        int i = ThreadLocalRandom.current().nextInt(n);
                        long floor = acked.get(i);
                        ValueView v = s.get(keys[i]);
                        assertNotNull(v, "key " + i + " lost its value");
                        assertEquals(keys[i], v.getLong(0), "foreign bytes for key " + i);
                        assertTrue(v.getLong(1) >= floor, "key " + i + " read " + v.getLong(1) + " after " + floor
                            + " was acknowledged");
                    }
                }));
            }
            for (Thread t : threads) {
                t.setUncaughtExceptionHandler((th, e) -> failure.compareAndSet(null, e));
                t.start();
            }
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1_500);
            while (System.nanoTime() < deadline && failure.get() == null) {
                Thread.sleep(20);
            }
            stop.set(true);
            for (Thread t : threads) {
                t.join(10_000);
            }
            if (failure.get() != null) {
                throw new AssertionError("a worker failed while scans ran", failure.get());
            }
            long reclaimed = 0;
            long scans = 0;
            for (MachineStore s : c.stores) {
                reclaimed += s.leakScanner().reclaimed();
                scans += s.leakScanner().scans();
            }
            assertTrue(scans >= 30, "the scans ran: " + scans);
            assertEquals(planted, reclaimed, "exactly the planted copies were reclaimed");
            for (int i = 0; i < n; i++) {
                for (int r = 0; r < 3; r++) {
                    assertArrayEquals(value(keys[i], acked.get(i)), c.stores[r].newSession().get(keys[i]).toBytes(),
                        "key " + i + " read on machine " + r);
                }
            }
        }
    }
}
