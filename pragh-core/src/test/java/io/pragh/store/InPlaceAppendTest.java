package io.pragh.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.pragh.embedded.EmbeddedCluster;
import io.pragh.embedded.Machine;
import io.pragh.keys.KeyLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

class InPlaceAppendTest {
    private static byte[] id(long v) {
        byte[] b = new byte[8];
        new UnsafeBuffer(b).putLong(0, v);
        return b;
    }

    private static EmbeddedCluster cluster() {
        return EmbeddedCluster.builder().machines(3).workersPerMachine(1).keysPerMachine(1000)
            .valueBytesPerMachine(64 << 20).cacheBytes(1 << 16).leases(10, 50).remoteLatencyNs(0).build();
    }

    @Test
    void appendsGrowIntoSlackSoThatAListOfNEntriesSupersedesOnlyLogNRecords() {
        try (EmbeddedCluster c = cluster()) {
            long key = KeyLayout.key(7, 0, KeyLayout.OUT);
            Machine home = c.homeOf(key);
            long before = home.store().reclaimer().retiredRecords();
            int n = 4096;
            long lastVersion = Long.MIN_VALUE;
            for (int i = 1; i <= n; i++) {
                home.update(key, Mutators.APPEND, id(i));
                long version = home.session().get(key).version();
                assertTrue(version > lastVersion, "every append is a new version");
                lastVersion = version;
            }
            long superseded = home.store().reclaimer().retiredRecords() - before;
            // Doubling from 8 bytes to 32 KiB moves the list 12 times; a copy per append would retire 4095 records.
            assertTrue(superseded <= 16, "records superseded by " + n + " appends: " + superseded);
            for (int m = 0; m < c.machineCount(); m++) {
                ValueView v = c.machine(m).session().get(key);
                assertEquals(n, v.longCount(), "length read on machine " + m);
                for (int i = 0; i < n; i++) {
                    assertEquals(i + 1, v.getLong(i), "entry " + i + " read on machine " + m);
                }
            }
        }
    }

    @Test
    void aRemoveAfterAppendsInPlaceRewritesTheListAndTheVersionStillGrows() {
        try (EmbeddedCluster c = cluster()) {
            long key = KeyLayout.key(9, 0, KeyLayout.OUT);
            Machine m = c.machine(1);
            for (int i = 1; i <= 5; i++) {
                m.update(key, Mutators.APPEND, id(i));
            }
            long appended = m.session().get(key).version();
            m.update(key, Mutators.REMOVE_LONG, id(3));
            ValueView v = m.session().get(key);
            assertTrue(v.version() > appended, "a rewrite after appends in place is newer");
            assertEquals(4, v.longCount());
            m.update(key, Mutators.APPEND, id(6));
            v = c.machine(2).session().get(key);
            assertEquals(List.of(1L, 2L, 4L, 5L, 6L), longs(v));
            m.delete(key);
            assertNull(c.machine(0).get(key));
        }
    }

    /**
     * Appenders on every machine, readers by single and batched GETs, and the value migrating from machine to
     * machine meanwhile: every read is a whole list (each appender's ids in order, none torn or zero), never shorter
     * than an earlier read of the same reader, and the final list holds every acknowledged append exactly once.
     */
    @Test
    void appendsInPlaceRacingReadsAndMigrationsAreNeitherTornNorLost() throws Exception {
        try (EmbeddedCluster c = cluster()) {
            long key = KeyLayout.key(11, 0, KeyLayout.OUT);
            int writers = 3;
            int perWriter = 1500;
            AtomicBoolean done = new AtomicBoolean();
            AtomicReference<String> failure = new AtomicReference<>();
            List<CompletableFuture<?>> tasks = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                int writer = w;
                tasks.add(CompletableFuture.runAsync(() -> {
                    for (int i = 0; i < perWriter; i++) {
                        c.machine(writer).update(key, Mutators.APPEND, id(((long) (writer + 1) << 32) | i));
                    }
                }));
            }
            for (int r = 0; r < 2; r++) {
                int reader = r;
                tasks.add(CompletableFuture.runAsync(() -> {
                    Session s = c.machine(reader + 1).store().newSession();
                    long[] keys = {key, key};
                    int longest = 0;
                    while (!done.get() && failure.get() == null) {
                        ValueView v = s.get(key);
                        longest = check(v, longest, writers, failure);
                        // The batch's GETs overlap each other: each is checked against reads that ended before it.
                        int before = longest;
                        int[] seen = {longest};
                        s.getAll(keys, 0, 2, (i, k, value) ->
                            seen[0] = Math.max(seen[0], check(value, before, writers, failure)));
                        longest = seen[0];
                    }
                }));
            }
            CompletableFuture<?> migrations = CompletableFuture.runAsync(() -> {
                // Bounded: every migration supersedes a copy of the whole list, which waits out the reclaim lease.
                for (int i = 0; !done.get() && i < 2000; i++) {
                    c.machine(i % 3).migrate(key);
                }
            });
            CompletableFuture.allOf(tasks.subList(0, writers).toArray(new CompletableFuture[0])).get();
            done.set(true);
            CompletableFuture.allOf(tasks.toArray(new CompletableFuture[0])).get();
            migrations.get();
            if (failure.get() != null) {
                fail(failure.get());
            }
            ValueView v = c.machine(0).session().get(key);
            assertEquals(writers * perWriter, v.longCount(), "every acknowledged append, once");
            assertEquals(writers * perWriter, check(v, 0, writers, failure));
        }
    }

    /** Checks a list read: every writer's ids in order from 0, nothing else. Returns its length in entries. */
    private static int check(ValueView v, int longest, int writers, AtomicReference<String> failure) {
        int n = v == null ? 0 : v.longCount();
        if (n < longest) {
            failure.compareAndSet(null, "a read of " + n + " entries after one of " + longest);
        }
        int[] next = new int[writers + 1];
        for (int i = 0; i < n; i++) {
            long e = v.getLong(i);
            int writer = (int) (e >>> 32);
            if (writer < 1 || writer > writers || (int) e != next[writer]) {
                failure.compareAndSet(null, "entry " + i + " of " + n + " is " + Long.toHexString(e));
                return Math.max(n, longest);
            }
            next[writer]++;
        }
        return Math.max(n, longest);
    }

    private static List<Long> longs(ValueView v) {
        List<Long> out = new ArrayList<>();
        for (int i = 0; i < v.longCount(); i++) {
            out.add(v.getLong(i));
        }
        return out;
    }
}
