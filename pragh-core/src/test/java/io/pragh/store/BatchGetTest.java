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
