package io.pragh.fabric.tcp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.address.Address;
import io.pragh.fabric.FabricStats;
import io.pragh.keys.KeyLayout;
import io.pragh.keys.Placement;
import io.pragh.migration.Migrator;
import io.pragh.store.MachineStore;
import io.pragh.store.Mutators;
import io.pragh.store.StoreConfig;
import io.pragh.store.ValueView;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The core store's own protocol (check-and-forward updates, GET and batched GET by one-sided reads, unilateral
 * MIGRATE by batched one-sided operations) runs over the TCP fabric: three machines in this JVM, each with its own
 * TcpFabric on a loopback port, as three processes would have.
 */
// A hang bound only: beside a CPU hog a cluster test took 93 s, 1-5 s quietly (session 16).
@Timeout(300)
class StoreOverTcpFabricTest {
    private static final int MACHINES = 3;

    private static byte[] value(long key, int version) {
        byte[] b = new byte[40];
        UnsafeBuffer u = new UnsafeBuffer(b);
        u.putLong(0, key);
        u.putLong(8, version);
        u.putLong(32, ~key);
        return b;
    }

    private static void set(MachineStore from, long key, byte[] value) throws Exception {
        from.update(key, Mutators.SET, new UnsafeBuffer(value), 0, value.length).get(30, TimeUnit.SECONDS);
    }

    private static byte[] get(MachineStore at, long key) {
        ValueView v = at.session().get(key);
        return v == null ? null : v.toBytes();
    }

    private static int host(MachineStore[] stores, Placement placement, long key) {
        MachineStore home = stores[placement.home(key)];
        return Address.host(home.keys().address(home.keys().find(key)), home.id());
    }

    @Test
    void updatesReadsAndMigrationsBehaveOverTcp() throws Exception {
        StoreConfig config = StoreConfig.defaults().withKeys(1000).withValueBytes(4 << 20).withChunkBytes(1 << 20)
            .withCacheBytes(1 << 16).withReclaimRingSlots(64);
        Placement placement = Placement.hashed(MACHINES);
        MachineStore[] stores = new MachineStore[MACHINES];
        LoopbackCluster cluster = LoopbackCluster.start(MACHINES, LoopbackCluster.SECRET, TcpFabricOptions.defaults());
        try {
            for (int m = 0; m < MACHINES; m++) {
                stores[m] = new MachineStore(m, MACHINES, config, placement, Mutators.withBuiltins());
                stores[m].attach(cluster.fabrics[m]);
            }
            int target = 2;
            long[] keys = new long[24];
            for (int i = 0; i < keys.length; i++) {
                keys[i] = KeyLayout.key(i + 1, 0, KeyLayout.OUT);
                set(stores[0], keys[i], value(keys[i], 1));
            }
            for (MachineStore reader : stores) {
                for (long k : keys) {
                    assertArrayEquals(value(k, 1), get(reader, k), "machine " + reader.id() + " reads key " + k);
                }
            }

            long[] remote = new long[keys.length];
            int n = 0;
            for (long k : keys) {
                if (placement.home(k) != target) {
                    remote[n++] = k;
                }
            }
            assertTrue(n > 4, "the keys spread over the machines: " + n + " are homed away from machine " + target);
            Migrator migrator = new Migrator(stores[target], 16);
            Migrator.Outcome[] out = new Migrator.Outcome[n];
            FabricStats.Snapshot before = stores[target].stats().snapshot();
            migrator.migrateAll(remote, n, out);
            FabricStats.Snapshot moved = stores[target].stats().snapshot().minus(before);
            for (int i = 0; i < n; i++) {
                assertEquals(Migrator.Outcome.MIGRATED, out[i], "key " + remote[i]);
                assertEquals(target, host(stores, placement, remote[i]));
            }
            assertEquals(0, moved.messages(), "migration is unilateral: one-sided operations only");
            assertTrue(moved.remoteAtomics() >= n, "an address CAS per key crossed the fabric");

            for (long k : keys) {
                set(stores[1], k, value(k, 2)); // forwarded to the value's host where it migrated
            }
            for (MachineStore reader : stores) {
                for (long k : keys) {
                    assertArrayEquals(value(k, 2), get(reader, k), "machine " + reader.id() + " reads key " + k);
                }
            }
            long absent = KeyLayout.key(999, 0, KeyLayout.OUT);
            long[] withAbsent = Arrays.copyOf(keys, keys.length + 1);
            withAbsent[keys.length] = absent;
            for (MachineStore reader : stores) {
                Map<Long, byte[]> seen = new HashMap<>();
                reader.session().getAll(withAbsent, 0, withAbsent.length,
                    (i, k, v) -> seen.put(k, v == null ? null : v.toBytes()));
                assertEquals(withAbsent.length, seen.size(), "every key visited once");
                for (long k : keys) {
                    assertArrayEquals(value(k, 2), seen.get(k), "batched GET on machine " + reader.id());
                }
                assertNull(seen.get(absent));
            }
            for (int i = 0; i < n; i++) {
                assertEquals(target, host(stores, placement, remote[i]), "an update does not move the value back");
            }
        } finally {
            cluster.close();
            for (MachineStore s : stores) {
                if (s != null) {
                    s.close();
                }
            }
        }
    }
}
