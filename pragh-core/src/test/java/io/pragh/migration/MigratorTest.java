package io.pragh.migration;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.LimitExceededException;
import io.pragh.address.Address;
import io.pragh.cluster.EmbeddedCluster;
import io.pragh.cluster.Machine;
import io.pragh.fabric.FabricStats;
import io.pragh.keys.KeyLayout;
import io.pragh.store.MachineStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class MigratorTest {
    private static byte[] value(long key, int version) {
        byte[] b = new byte[24];
        org.agrona.concurrent.UnsafeBuffer u = new org.agrona.concurrent.UnsafeBuffer(b);
        u.putLong(0, key);
        u.putLong(8, version);
        return b;
    }

    private static long host(EmbeddedCluster c, long key) {
        MachineStore home = c.homeOf(key).store();
        return Address.host(home.keys().address(home.keys().find(key)), home.id());
    }

    @Test
    void oneRoundMigratesAWholeBatchWithOnlyOneSidedOperations() {
        try (EmbeddedCluster c = EmbeddedCluster.builder().machines(4).workersPerMachine(1).keysPerMachine(1000)
                .valueBytesPerMachine(4 << 20).cacheBytes(1 << 16).remoteLatencyNs(0).build()) {
            int target = 3;
            long[] keys = new long[16];
            int n = 0;
            for (long v = 1; n < keys.length; v++) {
                long k = KeyLayout.key(v, 0, KeyLayout.OUT);
                if (c.home(k) != target) {
                    keys[n++] = k;
                    c.machine(0).put(k, value(k, 1));
                }
            }
            MachineStore store = c.machine(target).store();
            Migrator m = new Migrator(store, 16);
            FabricStats.Snapshot before = store.stats().snapshot();
            Migrator.Outcome[] out = new Migrator.Outcome[keys.length];
            m.migrateAll(keys, keys.length, out);
            FabricStats.Snapshot d = store.stats().snapshot().minus(before);
            for (int i = 0; i < keys.length; i++) {
                assertEquals(Migrator.Outcome.MIGRATED, out[i]);
                assertEquals(target, host(c, keys[i]));
                for (int r = 0; r < 4; r++) {
                    assertArrayEquals(value(keys[i], 1), c.machine(r).get(keys[i]));
                }
            }
            assertEquals(1, m.rounds(), "no conflicts: one pipeline round for all 16 keys");
            assertEquals(0, d.messages(), "unilateral: no message to any source or home");
            assertEquals(16 * 2, d.remoteReads(), "one bucket lookup and one value read per key");
            assertEquals(16, d.remoteWrites(), "one invalidation per key");
            assertEquals(16 * 2, d.remoteAtomics(), "one address CAS and one reclaim-ring CAS per key");
        }
    }

    @Test
    void aCachedAddressSkipsTheLookup() {
        try (EmbeddedCluster c = EmbeddedCluster.builder().machines(2).workersPerMachine(1).keysPerMachine(100)
                .valueBytesPerMachine(1 << 20).cacheBytes(1 << 16).remoteLatencyNs(0).build()) {
            long key = KeyLayout.key(1, 0, KeyLayout.OUT);
            Machine target = c.machine(1 - c.home(key));
            c.machine(0).put(key, value(key, 1));
            target.get(key);
            FabricStats.Snapshot before = target.stats().snapshot();
            assertEquals(Migrator.Outcome.MIGRATED, target.migrate(key));
            assertEquals(1, target.stats().snapshot().minus(before).remoteReads(), "only the value was read");
        }
    }

    @Test
    void aValueMovedOnByAnotherMachineCanBeMigratedBackDespiteAStaleCachedAddress() {
        try (EmbeddedCluster c = EmbeddedCluster.builder().machines(3).workersPerMachine(1).keysPerMachine(100)
                .valueBytesPerMachine(1 << 20).cacheBytes(1 << 16).remoteLatencyNs(0).build()) {
            long key = KeyLayout.key(1, 0, KeyLayout.OUT);
            int home = c.home(key);
            Machine first = c.machine((home + 1) % 3);
            Machine second = c.machine((home + 2) % 3);
            c.machine(home).put(key, value(key, 1));
            assertEquals(Migrator.Outcome.MIGRATED, first.migrate(key));
            assertEquals(Migrator.Outcome.MIGRATED, second.migrate(key));
            // first's cache still names its own, now invalidated, copy.
            assertEquals(Migrator.Outcome.MIGRATED, first.migrate(key), "the value is on another machine");
            assertEquals(first.id(), Address.host(c.machine(home).store().keys().address(
                c.machine(home).store().keys().find(key)), home), "the home's address word names the migrator");
            assertArrayEquals(value(key, 1), second.get(key));
        }
    }

    /**
     * The lookup of the second key fails (its home is cut off) after the first key's READ was queued: the round fails
     * retryably, and the migrator must still serve the next round. Before, the queued READ was never posted, the
     * batch could not be cleared, and every later MIGRATE of the machine failed.
     */
    @Test
    void aRoundThatFailsPartWayLeavesTheMigratorUsable() {
        try (EmbeddedCluster c = EmbeddedCluster.builder().machines(3).workersPerMachine(1).keysPerMachine(100)
                .valueBytesPerMachine(1 << 20).cacheBytes(1 << 16).remoteLatencyNs(0).build()) {
            int target = 0;
            long reachable = keyHomedAt(c, 1, 1);
            long cutOff = keyHomedAt(c, 2, 1);
            c.machine(1).put(reachable, value(reachable, 1));
            c.machine(2).put(cutOff, value(cutOff, 1));
            MachineStore store = c.machine(target).store();
            long liveBefore = store.values().liveBytes();
            Migrator m = new Migrator(store, 2);
            ((io.pragh.fabric.inprocess.InProcessFabric) c.fabric()).setReachable(2, false);
            io.pragh.fabric.FabricException e = assertThrows(io.pragh.fabric.FabricException.class,
                () -> m.migrateAll(new long[] {reachable, cutOff}, 2, new Migrator.Outcome[2]));
            assertTrue(e.retryable(), "a cut-off home is worth a retry: " + e.getMessage());
            assertEquals(liveBefore, store.values().liveBytes(), "the failed round freed what it allocated");
            ((io.pragh.fabric.inprocess.InProcessFabric) c.fabric()).setReachable(2, true);
            assertEquals(Migrator.Outcome.MIGRATED, m.migrate(reachable), "the next round runs");
            assertEquals(Migrator.Outcome.MIGRATED, m.migrate(cutOff));
            assertArrayEquals(value(reachable, 1), c.machine(2).get(reachable));
            assertArrayEquals(value(cutOff, 1), c.machine(1).get(cutOff));
        }
    }

    private static long keyHomedAt(EmbeddedCluster c, int machine, long fromVid) {
        for (long v = fromVid; ; v++) {
            long k = KeyLayout.key(v, 0, KeyLayout.OUT);
            if (c.home(k) == machine) {
                return k;
            }
        }
    }

    @Test
    void updatesRacingWithMigrationsAreNeverLost() {
        try (EmbeddedCluster c = EmbeddedCluster.builder().machines(4).workersPerMachine(1).keysPerMachine(1000)
                .valueBytesPerMachine(8 << 20).cacheBytes(1 << 16).remoteLatencyNs(0).build()) {
            long[] keys = new long[8];
            for (int i = 0; i < keys.length; i++) {
                keys[i] = KeyLayout.key(i + 1, 0, KeyLayout.OUT);
            }
            for (int round = 0; round < 30; round++) {
                List<CompletableFuture<?>> all = new ArrayList<>();
                for (int i = 0; i < keys.length; i++) {
                    all.add(c.machine((round + i) % 4).migrateAsync(keys[i]));
                    all.add(c.machine(i % 4).updateAsync(keys[i], io.pragh.store.Mutators.APPEND,
                        io.pragh.graph.KHopTraversal.encode(round)));
                }
                CompletableFuture.allOf(all.toArray(new CompletableFuture[0])).join();
            }
            for (long key : keys) {
                long[] got = c.graph().neighbours(2, KeyLayout.vid(key), 0);
                assertEquals(30, got.length, "every acknowledged append survived 30 rounds of migration");
            }
        }
    }

    @Test
    void aValueOver32MiBCannotMigrateAndStaysReadable() {
        try (EmbeddedCluster c = EmbeddedCluster.builder().machines(2).workersPerMachine(1).keysPerMachine(100)
                .valueBytesPerMachine(80L << 20).cacheBytes(1 << 16).remoteLatencyNs(0).build()) {
            long key = KeyLayout.key(1, 0, KeyLayout.VERTEX);
            Machine home = c.homeOf(key);
            Machine other = c.machine(1 - home.id());
            byte[] big = new byte[33 << 20];
            big[big.length - 1] = 7;
            home.put(key, big);
            LimitExceededException e = assertThrows(LimitExceededException.class, () -> other.migrate(key));
            assertTrue(e.getMessage().contains("32 MiB"), e.getMessage());
            assertEquals(home.id(), host(c, key));
            assertEquals(7, other.get(key)[big.length - 1]);
        }
    }
}
