package io.pragh.embedded;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.coordinator.CoordinatorConfig;
import io.pragh.keys.KeyLayout;
import io.pragh.monitor.MonitorConfig;
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

    /** Remote operations of one GET on {@code m}, which must return {@code expected}. */
    private static long remoteOpsOfGet(Machine m, long key, byte[] expected) {
        long before = m.stats().snapshot().remoteOps();
        assertArrayEquals(expected, m.get(key));
        return m.stats().snapshot().remoteOps() - before;
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
