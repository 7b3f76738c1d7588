package io.pragh.embedded;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.address.Address;
import io.pragh.coordinator.CoordinatorConfig;
import io.pragh.keys.KeyLayout;
import io.pragh.monitor.MonitorConfig;
import io.pragh.store.MachineStore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class MigrationControlTest {
    private static int host(EmbeddedCluster c, long key) {
        MachineStore home = c.homeOf(key).store();
        return Address.host(home.keys().address(home.keys().find(key)), home.id());
    }

    @Test
    void aValueReadHotFromOneRemoteMachineMigratesThereByItself() throws Exception {
        try (EmbeddedCluster c = EmbeddedCluster.builder().machines(3).workersPerMachine(1).keysPerMachine(1000)
                .valueBytesPerMachine(4 << 20).cacheBytes(1 << 16).remoteLatencyNs(0)
                .automaticMigration(new MonitorConfig(300, 50, 5, false), CoordinatorConfig.defaults())
                .build()) {
            long hot = 0;
            long cold = 0;
            for (long v = 1; hot == 0 || cold == 0; v++) {
                long k = KeyLayout.key(v, 0, KeyLayout.OUT);
                if (c.home(k) == 0) {
                    if (hot == 0) {
                        hot = k;
                    } else {
                        cold = k;
                    }
                }
            }
            c.machine(0).put(hot, new byte[] {1, 2, 3});
            c.machine(0).put(cold, new byte[] {4});
            c.machine(1).get(cold);                  // read once: far below the coordinator's minimum rate
            Machine reader = c.machine(2);
            // A failure bound only (the loop ends as soon as the value moved, within a few 300 ms intervals when
            // nothing else runs): a loaded CI machine may run the monitor's and coordinator's threads seconds late.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (host(c, hot) != 2 && System.nanoTime() < deadline) {
                for (int i = 0; i < 200; i++) {
                    reader.get(hot);
                }
                Thread.sleep(5);
            }
            assertEquals(2, host(c, hot), "the hot value moved to its only reader");
            assertEquals(0, host(c, cold), "a value read a little stays home");
            assertTrue(c.migrationControl().coordinator().approvals() >= 1);
            assertArrayEquals(new byte[] {1, 2, 3}, c.machine(1).get(hot));
        }
    }

    /**
     * With caches of two slices each, the control's interval end takes several steps; a poll between two of them
     * reports a key read hot since the end began and the coordinator approves its move at once, before the end
     * decides. (In one go, as before, no poll ran until the whole end was made.)
     */
    @Test
    void anInstantReportIsDecidedWhileAnIntervalEnds() throws Exception {
        long cacheBytes = 2L * 256 * io.pragh.monitor.Monitor.DEFAULT_END_SLICE_SETS;
        try (EmbeddedCluster c = EmbeddedCluster.builder().machines(3).workersPerMachine(1).keysPerMachine(1000)
                .valueBytesPerMachine(4 << 20).cacheBytes(cacheBytes).remoteLatencyNs(0).build();
             MigrationControl control = new MigrationControl(c, new MonitorConfig(60_000, 50, 5, false),
                 CoordinatorConfig.defaults())) {
            long hot = 0;
            for (long v = 1; hot == 0; v++) {
                long k = KeyLayout.key(v, 0, KeyLayout.OUT);
                if (c.home(k) == 0) {
                    hot = k;
                }
            }
            c.machine(0).put(hot, new byte[] {1, 2, 3});
            control.start();
            control.beginIntervalEnd();
            assertNull(control.continueIntervalEnd(), "one slice of machine 0's monitor");
            assertTrue(control.ending());
            for (int i = 0; i < 2_000; i++) {
                c.machine(2).get(hot); // at least 50/s unless this loop takes 40 s
            }
            assertEquals(1, control.pollInstant(), "approved between two steps of the interval end");
            assertTrue(control.ending(), "the end is still under way");
            int steps = 1;
            while (control.continueIntervalEnd() == null) {
                steps++;
            }
            assertEquals(3 * 2, steps, "two slices of each machine's monitor (the seventh step decided)");
            control.awaitMigrations(60_000);
            assertEquals(2, host(c, hot), "moved to its only reader");
            MigrationControl.InstantPolls p = control.instantPolls();
            assertEquals(1, p.intervalEnds());
            assertEquals(1 + 3 * 2, p.holdSteps(), "the begin and six slices each held the polls");
            assertTrue(p.longestDecisionMillisAtMost() > 0, "and so did the decision");
        }
    }

    @Test
    void aMoveOnAnotherPolicysWordTellsTheCoordinatorWhereTheValueWent() throws Exception {
        try (EmbeddedCluster c = EmbeddedCluster.builder().machines(3).workersPerMachine(1).keysPerMachine(1000)
                .valueBytesPerMachine(4 << 20).cacheBytes(1 << 16).remoteLatencyNs(0).build();
             MigrationControl control = new MigrationControl(c, MonitorConfig.defaults(), CoordinatorConfig.defaults())) {
            long key = KeyLayout.key(7, 0, KeyLayout.OUT);
            c.machine(0).put(key, new byte[] {9});
            int target = (c.home(key) + 1) % 3;
            control.start();
            control.migrate(key, target).get(60, TimeUnit.SECONDS);
            assertEquals(target, host(c, key), "the value moved");
            assertEquals(target, control.coordinator().hostOf(key), "and the coordinator knows where");
            assertArrayEquals(new byte[] {9}, c.machine(c.home(key)).get(key));
        }
    }
}
