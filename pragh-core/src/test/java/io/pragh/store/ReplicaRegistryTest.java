package io.pragh.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.address.Address;
import io.pragh.embedded.EmbeddedCluster;
import io.pragh.embedded.Machine;
import io.pragh.keys.KeyLayout;
import io.pragh.migration.Migrator;
import io.pragh.reclaim.Leases;
import io.pragh.values.ValueRecord;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The host's record of the replicas it granted: what an update must invalidate before it is acknowledged. */
class ReplicaRegistryTest {
    private static final long PATIENCE_NANOS = 10_000_000_000L;

    /**
     * A holder drops a replica and places another; the request for the first arrives late (messages can be delayed
     * by a loaded machine for longer than a replica lives) and is refused. The host must still invalidate the second
     * copy on the next write: before, the late request replaced the holder's entry, the write invalidated only the dead
     * copy, and the holder kept reading the old value from the live one for the rest of its lease (found by
     * ReplicaHistoryTest under a load average of 30).
     */
    @Test
    void aLateRequestForADroppedCopyDoesNotMakeTheHostForgetTheCopyStillRead() throws Exception {
        // The replica outlives the test: only an invalidation makes it unusable.
        try (EmbeddedCluster c = tenMinuteReplicas()) {
            long key = keyHomedAt(c, 0);
            Machine host = c.machine(0);
            Machine holder = c.machine(2);
            byte[] first = "first".getBytes(StandardCharsets.UTF_8);
            putAndReplicate(host, holder, key, first);

            // The late request: a copy of the holder's that no longer exists, of a record the host no longer has.
            long dead = holder.store().values().allocate(ValueRecord.unitsFor(first.length));
            holder.store().values().release(dead);
            long source = sourceOf(host, key);
            boolean granted = host.store().replication().registry().grant(holder.id(), key, source,
                Address.at(holder.id(), 0, dead), 0, first.length);
            assertFalse(granted, "a request for another version is refused");

            byte[] second = "second".getBytes(StandardCharsets.UTF_8);
            host.put(key, second);
            assertArrayEquals(second, holder.get(key), "the holder's live replica was invalidated before the PUT's ack");
        }
    }

    /**
     * A value whose replicas were all dropped is moved without its new record waiting for them. Before, the record
     * kept {@link ValueRecord#REPLICATED} for good once a replica was granted, so the migration's target, which
     * cannot ask the host, kept the new record pending (and every GET of the value waiting) for the replica lease
     * plus the reclaim lease: with this test's ten-minute lease, ten minutes (1.5 s in the traversal benchmark, where
     * it stalled the queries on hot values). The host now forgets a key once every copy ran out and clears the bit;
     * while a copy may still be read it keeps both.
     */
    @Test
    void aValueWhoseReplicasAllRanOutMovesWithoutWaitingForThem() throws Exception {
        // Only a wait for the replicas could take ten minutes.
        try (EmbeddedCluster c = tenMinuteReplicas()) {
            Machine host = c.machine(0);
            ReplicaRegistry registry = host.store().replication().registry();
            Machine holder = c.machine(2);
            long key = keyHomedAt(c, 0);
            byte[] value = "value".getBytes(StandardCharsets.UTF_8);
            putAndReplicate(host, holder, key, value);
            long source = sourceOf(host, key);
            assertTrue(ValueRecord.isReplicated(headerOf(host, source)), "a granted replica sets the bit");

            assertEquals(0, registry.forgetRunOut(Leases.nowMillis()), "a replica still in its lease is not forgotten");
            assertTrue(ValueRecord.isReplicated(headerOf(host, source)), "nor is the bit cleared while it may be read");
            assertEquals(1, registry.replicatedKeys());

            holder.store().replication().replicas().dropAll();
            // The copy's lease, counted from its last request, has run out by then: no clock is waited for.
            assertEquals(1, registry.forgetRunOut(Leases.nowMillis() + registry.waitMillis() + 1));
            assertEquals(0, registry.replicatedKeys());
            long header = headerOf(host, source);
            assertTrue(ValueRecord.isLiveAt(header, source), "the record itself is untouched");
            assertFalse(ValueRecord.isReplicated(header), "no copy can be read: the bit is cleared");

            Machine target = c.machine(1);
            ReplicaRegistry targets = target.store().replication().registry();
            assertEquals(Migrator.Outcome.MIGRATED, target.migrate(key));
            assertEquals(0, targets.migrationWaits(), "the new record did not wait for replicas nobody can read");
            assertArrayEquals(value, target.get(key));
            assertArrayEquals(value, holder.get(key));
        }
    }

    /**
     * A holder restarted: its new memory may hand a replica's allocation (offset, size class, generation; the first
     * generation is random per region, so about once in 16,383 restarts per slot) to a record it reloads of a key of
     * its own, while the replica's host still names the allocation in its registry. Emulated here by writing another
     * key into the replica's live allocation, as that reload would leave it. The host's next write of the replicated
     * key invalidated it by a CAS of the header alone, and the restarted machine's own acknowledged value became
     * unreadable; the invalidation now checks the allocation's key word first ({@code StoreRegions.invalidateCopy}).
     */
    @Test
    void aHostsWriteLeavesAloneARecordOfAnotherKeyThatTookItsReplicasAllocation() throws Exception {
        try (EmbeddedCluster c = tenMinuteReplicas()) {
            long key = keyHomedAt(c, 0);
            Machine host = c.machine(0);
            Machine holder = c.machine(2);
            putAndReplicate(host, holder, key, "first".getBytes(StandardCharsets.UTF_8));
            io.pragh.cache.LocationCache.Hit hit = new io.pragh.cache.LocationCache.Hit();
            assertTrue(holder.store().cache().peek(key, Leases.nowMillis(), hit));
            long offset = Address.byteOffset(hit.address);
            var region = holder.store().values().region();
            long own = keyHomedAt(c, 2);
            region.putLongVolatile(offset + ValueRecord.KEY_OFFSET, own);
            long header = region.getLongVolatile(offset);
            assertTrue(ValueRecord.isLiveAt(header, hit.address), "the test's premise: the allocation is live");

            byte[] second = "second".getBytes(StandardCharsets.UTF_8);
            host.put(key, second);
            assertEquals(header, region.getLongVolatile(offset), "the host's write invalidated a record of key " + own
                + " in the allocation its registry named as the replica of key " + key);
            assertArrayEquals(second, holder.get(key), "the holder's GET found its copy gone and read the new value");
        }
    }

    /** Three machines whose replicas live ten minutes: only what a test does makes one unusable in its time. */
    private static EmbeddedCluster tenMinuteReplicas() {
        long lease = 600_000;
        return EmbeddedCluster.builder().machines(3).workersPerMachine(1).pinThreads(false).keysPerMachine(1_000)
            .cacheBytes(64 << 10).remoteLatencyNs(0).leases(lease + 1_000, 50).replicas(1 << 20, lease)
            .operationTimeoutMillis(lease).build();
    }

    private static long headerOf(Machine host, long source) {
        return host.store().values().region().getLongVolatile(Address.byteOffset(source));
    }

    private static long sourceOf(Machine host, long key) {
        Session s = host.store().session();
        assertTrue(s.locate(key, false));
        return s.address();
    }

    /** PUTs {@code value} at {@code host} and waits until {@code holder} reads it through a granted replica. */
    private static void putAndReplicate(Machine host, Machine holder, long key, byte[] value) throws Exception {
        host.put(key, value);
        assertTrue(holder.store().replication().replicas().place(key, 1e9));
        awaitLocalReads(holder, key, value);
    }

    /** Waits until a GET on {@code m} returns {@code expected} without a remote operation (its replica is granted). */
    private static void awaitLocalReads(Machine m, long key, byte[] expected) throws InterruptedException {
        long deadline = System.nanoTime() + PATIENCE_NANOS;
        while (true) {
            long before = m.stats().snapshot().remoteOps();
            assertArrayEquals(expected, m.get(key));
            if (m.stats().snapshot().remoteOps() == before) {
                return;
            }
            assertTrue(System.nanoTime() < deadline, "machine " + m.id() + "'s GETs never became local");
            Thread.sleep(5);
        }
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
