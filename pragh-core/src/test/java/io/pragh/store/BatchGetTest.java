package io.pragh.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.pragh.embedded.EmbeddedCluster;
import io.pragh.fabric.FabricStats;
import io.pragh.keys.KeyLayout;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BatchGetTest {
    private static byte[] value(long v) {
        byte[] b = new byte[8 + (int) (v % 40)];
        new org.agrona.concurrent.UnsafeBuffer(b).putLong(0, v);
        return b;
    }

    @Test
    void aBatchReturnsWhatSingleGetsReturnForLocalRemoteCachedMigratedStaleAndAbsentKeys() {
        try (EmbeddedCluster c = EmbeddedCluster.builder().machines(4).workersPerMachine(1).keysPerMachine(2000)
                .valueBytesPerMachine(8 << 20).cacheBytes(1 << 18).remoteLatencyNs(0).build()) {
            int n = 600;
            long[] keys = new long[n];
            for (int i = 0; i < n; i++) {
                keys[i] = KeyLayout.key(i, 0, KeyLayout.OUT);
                if (i % 7 != 0) {
                    c.machine(i % 4).put(keys[i], value(i));
                }
            }
            Session reader = c.machine(1).session();
            for (int i = 0; i < n; i += 3) {
                reader.get(keys[i]);                       // warm the cache for a third of the keys
            }
            for (int i = 1; i < n; i += 5) {
                c.machine(1 + (i % 2)).migrate(keys[i]);   // some move here, some elsewhere: stale cache entries
            }
            for (int i = 3; i < n; i += 6) {
                if (i % 7 != 0) {
                    c.machine(3).put(keys[i], value(i + 1000)); // updated after being cached
                }
            }
            Map<Integer, byte[]> got = new HashMap<>();
            int[] visits = {0};
            reader.getAll(keys, 0, n, (index, key, v) -> {
                assertEquals(keys[index], key);
                visits[0]++;
                got.put(index, v == null ? null : v.toBytes());
            });
            assertEquals(n, visits[0], "every key visited once");
            for (int i = 0; i < n; i++) {
                if (i % 7 == 0) {
                    assertNull(got.get(i), "absent key " + i);
                } else {
                    assertArrayEquals(c.machine(0).get(keys[i]), got.get(i), "key " + i);
                }
            }
        }
    }

    /**
     * Every remote lookup of a key without a value is counted, single or batched (the diagnostic of what cached
     * absences would save), and none of a key that has one or of a key homed on the reader.
     */
    @Test
    void remoteLookupsOfKeysWithoutAValueAreCountedSingleAndBatched() {
        try (EmbeddedCluster c = EmbeddedCluster.builder().machines(2).workersPerMachine(1).keysPerMachine(1000)
                .valueBytesPerMachine(4 << 20).cacheBytes(1 << 16).remoteLatencyNs(0).build()) {
            long present = 0;
            long absent = 0;
            long local = 0;
            for (long v = 1; present == 0 || absent == 0 || local == 0; v++) {
                long k = KeyLayout.key(v, 0, KeyLayout.OUT);
                if (c.home(k) == 0) {
                    local = local == 0 ? k : local;
                } else if (present == 0) {
                    present = k;
                } else if (absent == 0) {
                    absent = k;
                }
            }
            c.machine(1).put(present, value(1));
            Session reader = c.machine(0).session();
            var cache = c.machine(0).store().cache();
            assertNull(reader.get(absent));
            assertNull(reader.get(absent));
            assertNull(reader.get(local));
            reader.get(present);
            assertEquals(2, cache.absentLookups(), "each GET of the absent remote key read its bucket");
            reader.getAll(new long[] {absent, present, local}, 0, 3, (index, key, v) -> { });
            assertEquals(3, cache.absentLookups(), "a batch counts its absent remote key too");
            c.machine(1).put(absent, value(2));
            // No absence is cached: once the insert is acknowledged, the reader that saw the key absent three times
            // sees it (a cache of absences would have to be waited out by the insert, see docs/results policy7).
            assertArrayEquals(value(2), reader.get(absent).toBytes());
            reader.getAll(new long[] {absent}, 0, 1, (index, key, v) -> assertArrayEquals(value(2), v.toBytes()));
            assertEquals(3, cache.absentLookups(), "with a value it is no longer absent");
        }
    }

    @Test
    void aBatchOfRemoteKeysReadsEachBucketAndValueOnce() {
        try (EmbeddedCluster c = EmbeddedCluster.builder().machines(2).workersPerMachine(1).keysPerMachine(2000)
                .valueBytesPerMachine(8 << 20).cacheBytes(1 << 18).remoteLatencyNs(0).build()) {
            long[] remote = new long[100];
            int n = 0;
            for (long v = 0; n < remote.length; v++) {
                long k = KeyLayout.key(v, 0, KeyLayout.OUT);
                if (c.home(k) == 1) {
                    remote[n++] = k;
                    c.machine(1).put(k, value(v));
                }
            }
            Session reader = c.machine(0).session();
            FabricStats.Snapshot before = c.machine(0).stats().snapshot();
            reader.getAll(remote, 0, remote.length, (i, k, v) -> { });
            FabricStats.Snapshot first = c.machine(0).stats().snapshot().minus(before);
            assertEquals(200, first.remoteReads(), "100 bucket reads and 100 value reads");
            before = c.machine(0).stats().snapshot();
            reader.getAll(remote, 0, remote.length, (i, k, v) -> { });
            assertEquals(100, c.machine(0).stats().snapshot().minus(before).remoteReads(), "cached: values only");
        }
    }
}
