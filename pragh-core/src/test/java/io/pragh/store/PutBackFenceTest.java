package io.pragh.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.address.Address;
import io.pragh.durability.Durability;
import io.pragh.durability.SyncPolicy;
import io.pragh.embedded.EmbeddedCluster;
import io.pragh.embedded.Machine;
import io.pragh.fabric.FabricException;
import io.pragh.fabric.inprocess.InProcessFabric;
import io.pragh.keys.KeyLayout;
import io.pragh.keys.Placement;
import io.pragh.migration.Migrator;
import io.pragh.reclaim.Leases;
import io.pragh.values.ValueRecord;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Values a home puts back from its log while another machine may still read an older record of them stay at home,
 * unchanged, until its {@link PutBackFence} lifts. Without it, a survivor that had not yet recovered from a home's
 * restart could read the record it hosted for the key before the crash (through a cached address or a replica) after
 * another machine migrated the reloaded value away and updated it there (docs/replicas.md, "Limits", until session 21).
 */
class PutBackFenceTest {
    /** Long enough that no hold in these tests runs out by itself unless the test means it to. */
    private static final Leases LONG = new Leases(600_000, 50);
    private static final long PATIENCE_MILLIS = 30_000;

    @TempDir
    Path dir;

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static void load(MachineStore home, long key, byte[] value) {
        home.load(key, 1, new UnsafeBuffer(value), 0, value.length);
    }

    private static long headerAtHome(TestStores c, long key) {
        long address = c.addressAtHome(key);
        assertEquals(0, Address.host(address, 0), "the value lives at its home, machine 0");
        return c.stores[0].values().region().getLongVolatile(Address.byteOffset(address));
    }

    private static void awaitLifted(PutBackFence fence, long records) throws InterruptedException {
        long deadline = System.currentTimeMillis() + PATIENCE_MILLIS;
        while (fence.lifted() < records) {
            assertTrue(System.currentTimeMillis() < deadline, "the lifter cleared " + fence.lifted() + " of " + records
                + " bits within " + PATIENCE_MILLIS + " ms");
            Thread.sleep(5);
        }
    }

    @Test
    void aReloadedValueDoesNotMigrateUntilEveryPeerRecoveredFromItsHomesRestart() throws Exception {
        try (TestStores c = new TestStores(2, LONG)) {
            MachineStore home = c.stores[0];
            long key = c.keyHomedOn(0, 1);
            home.putBacks().restarted(); // what Recovery does before it reloads a log that holds anything
            load(home, key, bytes("reloaded"));
            assertTrue((headerAtHome(c, key) & ValueRecord.PUT_BACK) != 0, "the reloaded record is marked");

            assertEquals(Migrator.Outcome.HELD, new Migrator(c.stores[1], 4).migrate(key),
                "a survivor's migration leaves a held value alone");
            assertEquals(0, Address.host(c.addressAtHome(key), 0), "the home's word still names its own record");

            home.putBacks().everyPeerRecovered();
            awaitLifted(home.putBacks(), 1);
            assertEquals(0, headerAtHome(c, key) & ValueRecord.PUT_BACK, "the lift clears the bit");
            c.migrate(key, 1);
            assertEquals(1, Address.host(c.addressAtHome(key), 0), "once lifted, the value moves");
        }
    }

    @Test
    void anUpdateOfAReloadedValueWaitsAtItsHomeUntilTheHoldLifts() throws Exception {
        try (TestStores c = new TestStores(2, LONG)) {
            MachineStore home = c.stores[0];
            long key = c.keyHomedOn(0, 1);
            home.putBacks().restarted();
            load(home, key, bytes("reloaded"));

            byte[] newer = bytes("newer");
            CompletableFuture<Void> put = c.stores[1].update(key, Mutators.SET, new UnsafeBuffer(newer), 0,
                newer.length);
            Thread.sleep(200);
            // Deferred at the home, and refused there retryably if the hold outlasted its patience: never applied.
            assertTrue(!put.isDone() || put.isCompletedExceptionally(), "the update did not take effect while held");
            assertArrayEquals(bytes("reloaded"), home.newSession().get(key).toBytes(), "the home still reads the reload");

            home.putBacks().everyPeerRecovered();
            try {
                put.join();
            } catch (CompletionException refused) {
                assertTrue(refused.getCause() instanceof FabricException f && f.retryable(),
                    "a refusal while held is retryable: " + refused.getCause());
                c.put(1, key, newer);
            }
            assertArrayEquals(newer, c.stores[1].newSession().get(key).toBytes(), "once lifted, the update lands");
        }
    }

    @Test
    void aRestartsHoldRunsOutByItselfOnceNoAddressFromBeforeTheRestartCanBeUsed() throws Exception {
        try (TestStores c = new TestStores(2, new Leases(200, 50))) {
            MachineStore home = c.stores[0];
            long key = c.keyHomedOn(0, 1);
            long before = Leases.nowMillis();
            home.putBacks().restarted();
            load(home, key, bytes("reloaded"));

            // Nobody says that every peer recovered (one never answered the restart): time alone lifts the hold.
            awaitLifted(home.putBacks(), 1);
            long waited = Leases.nowMillis() - before;
            long bound = home.replication().orphanWaitMillis();
            assertTrue(waited >= bound, "lifted after " + waited + " ms, before the " + bound + " ms that addresses"
                + " read before the restart may still be used");
            c.migrate(key, 1);
        }
    }

    @Test
    void aMachineThatStartsWithItsClusterHoldsNothingBackWhenItReloadsItsLog() throws Exception {
        Placement placement;
        long key;
        try (EmbeddedCluster first = durableCluster()) {
            placement = first.placement();
            key = keyHomedAt(first, 0);
            first.machine(0).put(key, bytes("logged"));
        }
        // The whole cluster starts again on its logs: machine 0 reloads the key, and no machine has a previous life
        // of it to read.
        try (EmbeddedCluster again = durableCluster()) {
            MachineStore home = again.machine(0).store();
            Session s = home.newSession();
            assertTrue(s.locate(key, false));
            long header = home.values().region().getLongVolatile(Address.byteOffset(s.address()));
            assertEquals(0, header & ValueRecord.PUT_BACK, "a first life's reload is not held");
            assertFalse(home.putBacks().holds());
            assertEquals(Migrator.Outcome.MIGRATED, new Migrator(again.machine(1).store(), 4).migrate(key));
        }
        // A machine restarting alone reloads the same log behind its cluster's back: Recovery holds it.
        InProcessFabric fabric = new InProcessFabric(2, 0);
        StoreConfig config = StoreConfig.defaults().withKeys(4_000).withValueBytes(4 << 20).withChunkBytes(1 << 20)
            .withCacheBytes(64 << 10).withReclaimRingSlots(1 << 12).withLeases(LONG);
        MachineStore home = new MachineStore(0, 2, config, placement, Mutators.withBuiltins());
        MachineStore peer = new MachineStore(1, 2, config, placement, Mutators.withBuiltins());
        try (Durability durability = Durability.open(dir.resolve("machine-0"), SyncPolicy.NONE, 0, home)) {
            home.attach(fabric);
            peer.attach(fabric);
            assertTrue(home.putBacks().holds(), "a restarted machine that reloaded its log holds the values");
            assertEquals(Migrator.Outcome.HELD, new Migrator(peer, 4).migrate(key));
            home.putBacks().everyPeerRecovered();
            awaitLifted(home.putBacks(), 1);
            assertEquals(Migrator.Outcome.MIGRATED, new Migrator(peer, 4).migrate(key));
        } finally {
            fabric.close();
            peer.close();
            home.close();
        }
    }

    @Test
    void aValuePutBackAfterItsHostWasLostIsHeldWhileThatHostsReplicaGrantsMayStillBeRead() throws Exception {
        long lease = 600_000;
        try (EmbeddedCluster c = EmbeddedCluster.builder().machines(3).workersPerMachine(1).pinThreads(false)
                .keysPerMachine(1_000).cacheBytes(64 << 10).remoteLatencyNs(0).leases(lease + 1_000, 50)
                .replicas(1 << 20, lease).operationTimeoutMillis(lease).build()) {
            Machine home = c.machine(0);
            long key = keyHomedAt(c, 0);
            byte[] value = bytes("value");
            home.put(key, value);
            assertEquals(Migrator.Outcome.MIGRATED, new Migrator(c.machine(2).store(), 4).migrate(key));
            Session s = home.store().newSession();
            assertTrue(s.locate(key, false));
            long lost = s.address();
            assertEquals(2, Address.host(lost, 0));

            // Machine 2 is lost (as PeerLoss finds it): its grants of replicas of the key may still be read.
            home.store().putBacks().restoring();
            assertTrue(home.store().restore(key, lost, 1, new UnsafeBuffer(value), 0, value.length).join());
            assertEquals(Migrator.Outcome.HELD, new Migrator(c.machine(1).store(), 4).migrate(key),
                "the put-back value stays at its home while replicas of the lost record may be read");
            assertTrue(home.store().putBacks().holds());
        }
    }

    private static EmbeddedCluster durableClusterIn(Path dir) {
        return EmbeddedCluster.builder().machines(2).workersPerMachine(1).pinThreads(false).keysPerMachine(1_000)
            .valueBytesPerMachine(4 << 20).cacheBytes(1 << 16).remoteLatencyNs(0).durability(dir, SyncPolicy.ALWAYS, 0)
            .build();
    }

    private EmbeddedCluster durableCluster() {
        return durableClusterIn(dir);
    }

    private static long keyHomedAt(EmbeddedCluster c, int home) {
        for (long v = 1; ; v++) {
            long key = KeyLayout.key(v, 0, KeyLayout.OUT);
            if (c.home(key) == home) {
                return key;
            }
        }
    }
}
