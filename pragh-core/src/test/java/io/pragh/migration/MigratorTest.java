package io.pragh.migration;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.address.Address;
import io.pragh.embedded.EmbeddedCluster;
import io.pragh.embedded.Machine;
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
            assertEquals(0, d.remoteWrites(), "the invalidation is a CAS of the source's header, not a WRITE");
            assertEquals(16 * 3, d.remoteAtomics(),
                "one address CAS, one generation-checked invalidation CAS and one reclaim-ring CAS per key");
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
        try (EmbeddedCluster c = small(3)) {
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
        try (EmbeddedCluster c = small(3)) {
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

    /**
     * Machine 0 migrates a value from machine 1 (its home is machine 2); machine 1 stops answering right after the
     * value was read, so the round wins its CAS but cannot invalidate the source. The key must not stay blocked: once
     * machine 1 answers again, its old record is invalidated and updates of the key go ahead. Before, the pending bit
     * stayed set and every later update of the key failed.
     */
    @Test
    void aSourceThatStopsAnsweringAfterTheCasIsInvalidatedOnceItAnswersAgain() {
        try (EmbeddedCluster c = small(3)) {
            long key = keyHomedAt(c, 2, 1);
            Migrator m = new Migrator(c.machine(0).store(), 1);
            long sourceAddress = sourceCutAfterTheCas(c, m, key);
            ((io.pragh.fabric.inprocess.InProcessFabric) c.fabric()).setReachable(1, true);
            waitUntilSettled(m);
            long header = c.machine(1).store().values().region().getLongVolatile(Address.byteOffset(sourceAddress));
            assertFalse(io.pragh.values.ValueRecord.isLive(header),
                "the source record is invalidated: no reader can take it for the value");
            c.machine(2).put(key, value(key, 2));
            for (int r = 0; r < 3; r++) {
                assertArrayEquals(value(key, 2), c.machine(r).get(key), "machine " + r + " reads the update");
            }
            assertEquals(0, host(c, key), "the value stayed where it migrated");
        }
    }

    /**
     * The same, but machine 1 never answers again: once the reclaim lease has passed since the CAS, no reader accepts
     * the old record's address any more, and the key is free again while machine 1 is still cut off.
     */
    @Test
    void aSourceThatNeverAnswersAgainNoLongerBlocksItsKeyOnceTheReclaimLeasePassed() {
        try (EmbeddedCluster c = EmbeddedCluster.builder().machines(3).workersPerMachine(1).keysPerMachine(100)
                .valueBytesPerMachine(1 << 20).cacheBytes(1 << 16).remoteLatencyNs(0).leases(100, 200).build()) {
            long key = keyHomedAt(c, 2, 1);
            Migrator m = new Migrator(c.machine(0).store(), 1);
            sourceCutAfterTheCas(c, m, key);
            long cut = System.nanoTime();
            assertEquals(1, m.settleUnfinished(), "within the lease, an unreachable source keeps the key waiting");
            waitUntilSettled(m);
            assertTrue(System.nanoTime() - cut >= 150_000_000L, "not settled before the 200 ms lease was nearly over");
            c.machine(2).put(key, value(key, 3));
            assertArrayEquals(value(key, 3), c.machine(0).get(key));
            assertArrayEquals(value(key, 3), c.machine(2).get(key));
        }
    }

    /**
     * A round of two keys whose homes are machines 1 and 2 (the second's value on machine 1); machine 2 stops
     * answering right after its bucket was read, so its CAS fails while machine 1's takes effect. The record machine 1
     * now names must not be freed with the failed round (before, it was, and the key's value was lost to whatever
     * reused the memory); the record of the failed CAS is kept until machine 2 answers again, and since its word still
     * names the old address then, the CAS is made again and the migration completes.
     */
    @Test
    void aRoundWhoseCasFailsOnOneHomeKeepsWhatTheOtherHomeNowNames() {
        try (EmbeddedCluster c = EmbeddedCluster.builder().machines(3).workersPerMachine(1).keysPerMachine(100)
                .valueBytesPerMachine(1 << 20).cacheBytes(1 << 16).remoteLatencyNs(0).leases(20, 40).build()) {
            long moved = keyHomedAt(c, 1, 1);
            long doubtful = keyHomedAt(c, 2, 1);
            c.machine(1).put(moved, value(moved, 1));
            c.machine(2).put(doubtful, value(doubtful, 1));
            // Its value on machine 1, so that the round needs machine 2 only for the bucket read and the CAS.
            assertEquals(Migrator.Outcome.MIGRATED, c.machine(1).migrate(doubtful));
            MachineStore target = c.machine(0).store();
            long liveBefore = target.values().liveBytes();
            Migrator m = new Migrator(target, 2);
            ((io.pragh.fabric.inprocess.InProcessFabric) c.fabric()).cutAfter(2, 1);
            io.pragh.fabric.FabricException e = assertThrows(io.pragh.fabric.FabricException.class,
                () -> m.migrateAll(new long[] {moved, doubtful}, 2, new Migrator.Outcome[2]));
            assertTrue(e.retryable(), e.getMessage());
            assertEquals(0, host(c, moved), "machine 1's CAS took effect");
            long recordBytes = target.values().liveBytes() - liveBefore;
            assertEquals(2, m.unfinishedMigrations(), "one migration won, one in doubt");
            assertTrue(recordBytes > 0, "both new records are kept while the round's outcome is settled");
            ((io.pragh.fabric.inprocess.InProcessFabric) c.fabric()).setReachable(2, true);
            waitUntilSettled(m);
            assertEquals(0, host(c, doubtful), "the CAS made again took effect: the migration completed");
            assertEquals(recordBytes, target.values().liveBytes() - liveBefore, "both records are published");
            for (int r = 0; r < 3; r++) {
                assertArrayEquals(value(moved, 1), c.machine(r).get(moved), "machine " + r + " reads the moved key");
                assertArrayEquals(value(doubtful, 1), c.machine(r).get(doubtful),
                    "machine " + r + " reads the key whose CAS was in doubt");
            }
            c.machine(1).put(moved, value(moved, 2));
            assertArrayEquals(value(moved, 2), c.machine(2).get(moved));
            assertEquals(Migrator.Outcome.ALREADY_LOCAL, m.migrate(doubtful), "the migrator runs on");
            assertEquals(Migrator.Outcome.MIGRATED, new Migrator(c.machine(1).store(), 1).migrate(doubtful),
                "and the key moves on");
            assertEquals(Migrator.Outcome.MIGRATED, m.migrate(doubtful));
        }
    }

    /**
     * Puts the key's value on machine 1, then runs machine 0's migration of it with machine 1 cut after the READ;
     * returns the address of machine 1's record.
     */
    private static long sourceCutAfterTheCas(EmbeddedCluster c, Migrator m, long key) {
        c.machine(2).put(key, value(key, 1));
        assertEquals(Migrator.Outcome.MIGRATED, c.machine(1).migrate(key));
        MachineStore home = c.machine(2).store();
        long sourceAddress = home.keys().address(home.keys().find(key));
        // Stage 1 reads the home's bucket (machine 2) and the value (machine 1), stage 2 CASes the home's word; the
        // invalidation WRITE and the ring CAS of stage 3 are the next operations on machine 1, and they fail.
        ((io.pragh.fabric.inprocess.InProcessFabric) c.fabric()).cutAfter(1, 1);
        io.pragh.fabric.FabricException e = assertThrows(io.pragh.fabric.FabricException.class, () -> m.migrate(key));
        assertTrue(e.retryable(), e.getMessage());
        assertEquals(0, host(c, key), "the CAS was won: the home names machine 0's copy");
        assertEquals(1, m.unfinishedMigrations(), "the source record is not known invalid");
        return sourceAddress;
    }

    private static void waitUntilSettled(Migrator m) {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (m.settleUnfinished() > 0) {
            assertTrue(System.nanoTime() < deadline, "the unfinished migrations settle");
            Thread.onSpinWait();
        }
    }

    private static EmbeddedCluster small(int machines) {
        return EmbeddedCluster.builder().machines(machines).workersPerMachine(1).keysPerMachine(100)
            .valueBytesPerMachine(1 << 20).cacheBytes(1 << 16).remoteLatencyNs(0).build();
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

    /** The paper's 32 MiB limit on a migrated value is gone: local and migrated addresses have the same size field. */
    @Test
    void aValueOver32MiBMigratesAndStaysReadable() {
        try (EmbeddedCluster c = EmbeddedCluster.builder().machines(2).workersPerMachine(1).keysPerMachine(100)
                .valueBytesPerMachine(80L << 20).cacheBytes(1 << 16).remoteLatencyNs(0).build()) {
            long key = KeyLayout.key(1, 0, KeyLayout.VERTEX);
            Machine home = c.homeOf(key);
            Machine other = c.machine(1 - home.id());
            byte[] big = new byte[33 << 20];
            big[big.length - 1] = 7;
            home.put(key, big);
            assertEquals(Migrator.Outcome.MIGRATED, other.migrate(key));
            assertEquals(other.id(), host(c, key));
            assertEquals(7, other.get(key)[big.length - 1]);
            assertEquals(7, home.get(key)[big.length - 1]);
        }
    }
}
