package io.pragh.consistency;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.address.Address;
import io.pragh.embedded.EmbeddedCluster;
import io.pragh.embedded.Machine;
import io.pragh.fabric.FabricException;
import io.pragh.fabric.Region;
import io.pragh.fabric.fault.FaultFabric;
import io.pragh.fabric.fault.FaultRule;
import io.pragh.fabric.inprocess.InProcessFabric;
import io.pragh.keys.KeyLayout;
import io.pragh.migration.Migrator;
import io.pragh.store.MachineStore;
import io.pragh.values.ValueRecord;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A migration whose source does not answer its invalidation settles its new record once every lease of the source's
 * address ran out ({@code UnfinishedMigrations}), leaving the source live although the home no longer names it. A
 * replica of that source held elsewhere must not outlive those leases: its host still grants renewals of it (the
 * record is live, unlocked, of the copied version), so before the holder bounded each replica by the lease of the
 * address it last read from the home ({@code Replicas.anchored}), it read the old value after a write at the value's
 * new host was acknowledged, for as long as it kept reading: {@code ReplicaHistoryTest}'s late landings failed so in
 * 2 of 4 runs (session 19). Four machines in one process: the key's home, the source's host, the holder, the target.
 */
class ReplicaOfAnOrphanedSourceTest {
    private static final int HOME = 0;
    private static final int HOST = 1;
    private static final int HOLDER = 2;
    private static final int TARGET = 3;
    private static final long PATIENCE_NANOS = TimeUnit.SECONDS.toNanos(20);

    @Test
    void aReplicaLapsesWithTheLeaseOfItsSourcesAddressOnceAMigrationLeftThatSourceLive() throws Exception {
        FaultFabric fabric = new FaultFabric(new InProcessFabric(4, 0), 19);
        // Cache lease 200 ms, reclaim lease 50 ms, replica lease 100 ms, no leak scan (it would find the orphan).
        try (EmbeddedCluster c = Scenarios.cluster(fabric, 4, 200, 50, 0).replicas(1 << 20, 100).build()) {
            long key = keyHomedAt(c, HOME);
            byte[] v0 = bytes("v0");
            c.machine(HOME).put(key, v0);
            assertEquals(Migrator.Outcome.MIGRATED, c.machine(HOST).migrate(key));
            long source = homeWord(c, key);
            Machine holder = c.machine(HOLDER);
            long grantedBy = System.nanoTime() + PATIENCE_NANOS;
            while (!localGet(holder, key, v0)) {
                assertTrue(System.nanoTime() < grantedBy, "no replica was granted to the holder");
                holder.store().replication().replicas().place(key, 1e9);
                Thread.sleep(2);
            }

            // The target's invalidation of the source never reaches it: the migration settles by the leases.
            FaultRule cut = fabric.when().cas().from(TARGET).to(HOST).region(Region.VALUES).refuse();
            try {
                c.machine(TARGET).migrate(key);
            } catch (FabricException sourceRefused) {
                // The CAS of the home's word won; the migration finishes in the background (its settle pass).
            }
            long moved = homeWord(c, key);
            assertEquals(TARGET, Address.host(moved, HOME), "the home names the target's record");
            long settledBy = System.nanoTime() + PATIENCE_NANOS;
            while (ValueRecord.isInvalidationPending(header(c.machine(TARGET).store(), moved))) {
                assertTrue(System.nanoTime() < settledBy, "the target's record never settled");
                assertArrayEquals(v0, holder.get(key)); // the holder keeps reading: its replica is renewed if it may
                Thread.sleep(1);
            }
            assertTrue(ValueRecord.isLiveAt(header(c.machine(HOST).store(), source), source),
                "the source was invalidated after all: no orphan, the test means nothing");

            byte[] v1 = bytes("v1");
            c.machine(TARGET).put(key, v1); // acknowledged when this returns
            assertArrayEquals(v1, holder.get(key), "a write acknowledged at the value's new host; the holder read its"
                + " replica of the orphaned source, renewed by that source's host past the lease of its address");
            cut.remove();
        }
    }

    private static long homeWord(EmbeddedCluster c, long key) {
        MachineStore home = c.machine(HOME).store();
        return home.keys().address(home.keys().find(key));
    }

    private static long header(MachineStore host, long address) {
        return host.values().region().getLongVolatile(Address.byteOffset(address));
    }

    /** Whether a GET of {@code key} at {@code m} returned {@code expected} with no remote access. */
    private static boolean localGet(Machine m, long key, byte[] expected) {
        long before = m.stats().snapshot().remoteOps();
        assertArrayEquals(expected, m.get(key));
        return m.stats().snapshot().remoteOps() == before;
    }

    private static long keyHomedAt(EmbeddedCluster c, int home) {
        for (long v = 1; ; v++) {
            long key = KeyLayout.key(v, 0, KeyLayout.OUT);
            if (c.home(key) == home) {
                return key;
            }
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
