package io.pragh.embedded;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.coordinator.CoordinatorConfig;
import io.pragh.keys.KeyLayout;
import io.pragh.monitor.MonitorConfig;
import io.pragh.store.Replicas;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A value read equally from two machines other than its home is not migrated (neither wins) but gets a read replica
 * on each: their GETs become local, and a PUT at its host invalidates the replicas before it is acknowledged.
 */
class ReplicaPlacementTest {
    private static final long PATIENCE_NANOS = 10_000_000_000L;

    @Test
    void aValueReadFromTwoMachinesGetsReplicasThatMakeReadsLocalUntilItIsWritten() throws Exception {
        try (EmbeddedCluster c = EmbeddedCluster.builder().machines(3).workersPerMachine(1).pinThreads(false)
            .keysPerMachine(1_000).cacheBytes(64 << 10).remoteLatencyNs(0).replicas(1 << 20, 1_000).build();
             MigrationControl control = new MigrationControl(c, MonitorConfig.defaults(),
                 CoordinatorConfig.defaults())) {
            long key = keyHomedAt(c, 0);
            byte[] first = "first".getBytes(StandardCharsets.UTF_8);
            c.machine(0).put(key, first);
            control.start();
            for (int i = 0; i < 50; i++) {
                c.machine(1).get(key);
                c.machine(2).get(key);
            }
            control.endInterval();
            control.awaitMigrations(10_000);
            assertEquals(0, control.migratedKeys(), "two machines wanting it equally: not migrated");
            assertEquals(2, control.replicasPlaced(), "a replica offered to each reader");
            for (int m = 1; m <= 2; m++) {
                Machine reader = c.machine(m);
                long deadline = System.nanoTime() + PATIENCE_NANOS;
                // The grant arrives as a message: wait until a GET no longer goes remote.
                while (remoteOpsOfGet(reader, key, first) > 0) {
                    assertTrue(System.nanoTime() < deadline, "machine " + m + "'s GETs never became local");
                    Thread.sleep(5);
                }
            }
            byte[] second = "second".getBytes(StandardCharsets.UTF_8);
            c.machine(1).put(key, second);
            assertArrayEquals(second, c.machine(1).get(key), "the replica was invalidated before the PUT's ack");
            assertArrayEquals(second, c.machine(2).get(key), "the replica was invalidated before the PUT's ack");
        }
    }

    /**
     * The key's home, whose value migrated to another machine, reads it through a replica held at the home (its own
     * address word names the other machine): its GETs become local, and a PUT at the value's host, sent from a third
     * machine, invalidates that replica before it is acknowledged.
     */
    @Test
    void aHomeWhoseValueMigratedAwayReadsItThroughItsOwnReplicaUntilItIsWritten() throws Exception {
        try (EmbeddedCluster c = EmbeddedCluster.builder().machines(3).workersPerMachine(1).pinThreads(false)
            .keysPerMachine(1_000).cacheBytes(64 << 10).remoteLatencyNs(0).replicas(1 << 20, 1_000).build()) {
            long key = keyHomedAt(c, 0);
            byte[] first = "first".getBytes(StandardCharsets.UTF_8);
            Machine home = c.machine(0);
            home.put(key, first);
            c.machine(1).migrate(key);
            assertTrue(remoteOpsOfGet(home, key, first) > 0, "the value migrated away: the home reads it remotely");
            assertTrue(home.store().replication().replicas().place(key, 1_000), "a replica placed at the home");
            long deadline = System.nanoTime() + PATIENCE_NANOS;
            while (remoteOpsOfGet(home, key, first) > 0) {
                assertTrue(System.nanoTime() < deadline, "the home's GETs never became local");
                Thread.sleep(5);
            }
            byte[] second = "second".getBytes(StandardCharsets.UTF_8);
            c.machine(2).put(key, second);
            assertArrayEquals(second, home.get(key), "the home's replica was invalidated before the PUT's ack");
        }
    }

    /**
     * A cluster's machines start together, so none can hold a replica of a host's previous life: its first replacing
     * PUT does not wait out the replica lease plus the reclaim lease, as a restarted host's must. (Before, every PUT of a new
     * cluster waited that long: with a 10-minute lease this PUT would outlive the test's minute.)
     */
    @Test
    void aNewClustersFirstReplacingPutDoesNotWaitOutTheLeasesOfAPreviousLife() {
        long tenMinutes = 600_000;
        try (EmbeddedCluster c = EmbeddedCluster.builder().machines(2).workersPerMachine(1).pinThreads(false)
            .keysPerMachine(1_000).cacheBytes(64 << 10).remoteLatencyNs(0).leases(tenMinutes, 50)
            .replicas(1 << 20, tenMinutes).operationTimeoutMillis(tenMinutes).build()) {
            long key = keyHomedAt(c, 0);
            c.machine(0).put(key, "inserted".getBytes(StandardCharsets.UTF_8));
            byte[] value = "replaced".getBytes(StandardCharsets.UTF_8);
            // A replacement: the write a replica of the inserted value would have to be invalidated for.
            assertTimeoutPreemptively(Duration.ofMinutes(1), () -> c.machine(0).put(key, value));
            assertArrayEquals(value, c.machine(1).get(key));
        }
    }

    /**
     * A value a machine holds a replica of stays where it is while the replica is held, although the holder, reading
     * it locally, no longer reports it and another machine reads it alone: moving a replicated source would keep its
     * new record pending, and every GET of the value waiting, for a replica lease plus a reclaim lease.
     */
    @Test
    void aValueWithAReplicaHeldStaysWhereItIsWhenAnotherMachineReadsItAlone() throws Exception {
        try (EmbeddedCluster c = EmbeddedCluster.builder().machines(3).workersPerMachine(1).pinThreads(false)
            .keysPerMachine(1_000).cacheBytes(64 << 10).remoteLatencyNs(0).replicas(1 << 20, 1_000).build();
             MigrationControl control = new MigrationControl(c, MonitorConfig.defaults(),
                 CoordinatorConfig.defaults())) {
            long key = keyHomedAt(c, 0);
            byte[] first = "first".getBytes(StandardCharsets.UTF_8);
            c.machine(0).put(key, first);
            Machine holder = c.machine(2);
            assertTrue(holder.store().replication().replicas().place(key, 1_000));
            long deadline = System.nanoTime() + PATIENCE_NANOS;
            while (remoteOpsOfGet(holder, key, first) > 0) {
                assertTrue(System.nanoTime() < deadline, "never granted");
                Thread.sleep(5);
            }
            control.start();
            for (int interval = 0; interval < 3; interval++) {
                for (int i = 0; i < 100; i++) {
                    c.machine(1).get(key);
                }
                holder.get(key);
                control.endInterval();
                control.awaitMigrations(10_000);
                assertEquals(0, control.migratedKeys(), "moved while a replica of it was held, interval " + interval);
            }
            assertEquals(1, holder.store().replication().replicas().count());
        }
    }

    /**
     * A reader offered a replica copies the record its location cache names: one remote READ, not a bucket read
     * before it; and when the cached address was superseded meanwhile (a PUT from another machine), the copy's check
     * sends it to the key's word, and the replica holds the new value.
     */
    @Test
    void aReplicaIsCopiedFromTheRecordTheReadersCacheNamesAndFromTheHomesWordOnceThatIsStale() throws Exception {
        try (EmbeddedCluster c = EmbeddedCluster.builder().machines(3).workersPerMachine(1).pinThreads(false)
            .keysPerMachine(1_000).cacheBytes(64 << 10).remoteLatencyNs(0).replicas(1 << 20, 1_000).build()) {
            long key = keyHomedAt(c, 0);
            long other = keyHomedAt(c, 0, 2);
            byte[] first = "first".getBytes(StandardCharsets.UTF_8);
            c.machine(0).put(key, first);
            c.machine(0).put(other, first);
            Machine reader = c.machine(1);
            reader.get(key); // fills its cache
            long before = reader.stats().snapshot().remoteReads();
            assertTrue(reader.store().replication().replicas().place(key, 1_000));
            assertEquals(1, reader.stats().snapshot().remoteReads() - before, "the record only: the cache named it");

            reader.get(other);
            byte[] second = "second".getBytes(StandardCharsets.UTF_8);
            c.machine(2).put(other, second); // the reader's cached address of 'other' is superseded
            before = reader.stats().snapshot().remoteReads();
            assertTrue(reader.store().replication().replicas().place(other, 1_000));
            assertEquals(3, reader.stats().snapshot().remoteReads() - before,
                "the stale record, the home's bucket, the new record");
            long deadline = System.nanoTime() + PATIENCE_NANOS;
            while (remoteOpsOfGet(reader, other, second) > 0) {
                assertTrue(System.nanoTime() < deadline, "the replica of the new value was never granted");
                Thread.sleep(5);
            }
        }
    }

    /**
     * A replica not read since its last renewal is renewed again while it was read within the last few leases: a
     * value read a few times a second has gaps longer than half a lease, and dropping its replica at the first gap
     * cost a new copy and remote reads until the policy offered it again.
     */
    @Test
    void aReplicaReadAMomentAgoIsRenewedThroughAGapInItsReads() throws Exception {
        try (EmbeddedCluster c = EmbeddedCluster.builder().machines(3).workersPerMachine(1).pinThreads(false)
            .keysPerMachine(1_000).cacheBytes(64 << 10).remoteLatencyNs(0).replicas(1 << 20, 1_000).build()) {
            long key = keyHomedAt(c, 0);
            byte[] first = "first".getBytes(StandardCharsets.UTF_8);
            c.machine(0).put(key, first);
            Machine reader = c.machine(1);
            Replicas replicas = reader.store().replication().replicas();
            assertTrue(replicas.place(key, 1_000));
            long deadline = System.nanoTime() + PATIENCE_NANOS;
            while (remoteOpsOfGet(reader, key, first) > 0) {
                assertTrue(System.nanoTime() < deadline, "never granted");
                Thread.sleep(5);
            }
            // No read from now on: two renewals in a row without a read in between (the keeper renews at half the
            // lease; before, the first round that saw no read let the replica run out).
            long renewed = replicas.renewed();
            while (replicas.renewed() < renewed + 2) {
                assertEquals(1, replicas.count(), "dropped at a gap in its reads");
                assertTrue(System.nanoTime() < deadline, "not renewed while unread");
                Thread.sleep(5);
            }
            assertEquals(0, replicas.expired());
        }
    }

    /**
     * A holder's renewals of the replicas one host granted go in one message per upkeep round, and the host answers
     * them all in one: a message each way per replica and half lease cost the traversal benchmark's inboxes more CPU
     * than its migration threads.
     */
    @Test
    void theRenewalsOfTheReplicasOneHostGrantedGoInOneMessageEachWay() throws Exception {
        try (EmbeddedCluster c = EmbeddedCluster.builder().machines(3).workersPerMachine(1).pinThreads(false)
            .keysPerMachine(1_000).cacheBytes(64 << 10).remoteLatencyNs(0).replicas(1 << 20, 1_000).build()) {
            int n = 6;
            byte[] value = "value".getBytes(StandardCharsets.UTF_8);
            long[] keys = new long[n];
            for (int i = 0; i < n; i++) {
                keys[i] = keyHomedAt(c, 0, i + 1);
                c.machine(0).put(keys[i], value);
            }
            Machine holder = c.machine(1);
            Replicas replicas = holder.store().replication().replicas();
            for (long key : keys) {
                assertTrue(replicas.place(key, 1_000));
            }
            long deadline = System.nanoTime() + PATIENCE_NANOS;
            for (long key : keys) {
                while (remoteOpsOfGet(holder, key, value) > 0) {
                    assertTrue(System.nanoTime() < deadline, "never granted");
                    Thread.sleep(5);
                }
            }
            long renewedBefore = replicas.renewed();
            long sentBefore = holder.stats().snapshot().messages();
            long answeredBefore = c.machine(0).stats().snapshot().messages();
            while (replicas.renewed() < renewedBefore + 3 * n) {
                assertTrue(System.nanoTime() < deadline, "not renewed: " + (replicas.renewed() - renewedBefore));
                Thread.sleep(5);
            }
            long sent = holder.stats().snapshot().messages() - sentBefore;
            long answered = c.machine(0).stats().snapshot().messages() - answeredBefore;
            long renewals = replicas.renewed() - renewedBefore;
            assertTrue(sent * 2 <= renewals, sent + " messages carried " + renewals + " renewals");
            assertTrue(answered * 2 <= renewals, "the host answered " + renewals + " renewals in " + answered
                + " messages");
            assertEquals(n, replicas.count());
            assertEquals(0, replicas.expired() + replicas.refused());
        }
    }

    /** Remote operations of one GET on {@code m}, which must return {@code expected}. */
    private static long remoteOpsOfGet(Machine m, long key, byte[] expected) {
        long before = m.stats().snapshot().remoteOps();
        assertArrayEquals(expected, m.get(key));
        return m.stats().snapshot().remoteOps() - before;
    }

    private static long keyHomedAt(EmbeddedCluster c, int home) {
        return keyHomedAt(c, home, 1);
    }

    private static long keyHomedAt(EmbeddedCluster c, int home, int nth) {
        int found = 0;
        for (long v = 1; ; v++) {
            long key = KeyLayout.key(v, 0, KeyLayout.OUT);
            if (c.home(key) == home && ++found == nth) {
                return key;
            }
        }
    }
}
