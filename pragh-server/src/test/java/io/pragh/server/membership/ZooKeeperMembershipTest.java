package io.pragh.server.membership;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.server.config.MembershipConfig;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Live machines, crash notices, the coordinator election and migration records, against an in-process ZooKeeper. */
@Timeout(300)
class ZooKeeperMembershipTest {
    private LoopbackZooKeeper zk;
    private MembershipConfig config;
    private final List<String> events = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() {
        zk = LoopbackZooKeeper.start();
        // The longest session the test ZooKeeper grants: nothing here waits for one to expire, and a loaded host must
        // not lose one mid-test (nor take longer than a short session's timeout to connect at all, as one did at 2 s).
        config = new MembershipConfig(zk.connectString(), LoopbackZooKeeper.MAX_SESSION, "/pragh-test");
    }

    @AfterEach
    void stop() {
        zk.close();
    }

    private ZooKeeperMembership join(int id) {
        return ZooKeeperMembership.join(config, id, "machine " + id, new ZooKeeperMembership.Listener() {
            @Override
            public void machineLost(int lost) {
                events.add(id + " lost " + lost);
            }

            @Override
            public void sessionLost() {
                events.add(id + " session lost");
            }

            @Override
            public void machineJoined(int joined) {
                events.add(id + " joined " + joined);
            }
        });
    }

    private void waitFor(BooleanSupplier c, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60); // a failure bound only
        while (!c.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "timed out waiting for " + what + "; events " + events);
            Thread.sleep(20);
        }
    }

    @Test
    void oneCoordinatorIsElectedAndAnotherTakesOverWhenItLeaves() throws Exception {
        ZooKeeperMembership[] m = {join(0), join(1), join(2)};
        try {
            assertEquals(Set.of(0, 1, 2), m[0].liveMachines());
            waitFor(() -> count(m) == 1, "a coordinator");
            int first = m[0].isCoordinator() ? 0 : m[1].isCoordinator() ? 1 : 2;
            m[first].close();
            int survivorA = (first + 1) % 3;
            int survivorB = (first + 2) % 3;
            waitFor(() -> m[survivorA].isCoordinator() ^ m[survivorB].isCoordinator(), "a new coordinator");
            waitFor(() -> events.contains(survivorA + " lost " + first) && events.contains(survivorB + " lost " + first),
                "both survivors told that machine " + first + " is gone");
            assertEquals(Set.of(survivorA, survivorB), m[survivorA].liveMachines());
            m[first] = null;
        } finally {
            for (ZooKeeperMembership x : m) {
                if (x != null) {
                    x.close();
                }
            }
        }
        assertFalse(events.stream().anyMatch(e -> e.contains("session lost")), events.toString());
    }

    private static int count(ZooKeeperMembership[] m) {
        int n = 0;
        for (ZooKeeperMembership x : m) {
            n += x.isCoordinator() ? 1 : 0;
        }
        return n;
    }

    @Test
    void aRestartedMachineReplacesItsStaleNodeAndPeersHearOfIt() throws Exception {
        ZooKeeperMembership a = join(0);
        ZooKeeperMembership b = join(1);
        // A second incarnation of machine 1 joins while the first one's session is still alive (as after kill -9).
        ZooKeeperMembership b2 = join(1);
        try {
            waitFor(() -> events.contains("0 lost 1"), "machine 0 told that machine 1's old incarnation is gone");
            // The story ends with the new incarnation joined, so machine 0's fabric tries machine 1 again.
            waitFor(() -> events.lastIndexOf("0 joined 1") > events.indexOf("0 lost 1"),
                "machine 0 told that machine 1's new incarnation joined after the old one was lost");
            assertEquals(Set.of(0, 1), a.liveMachines());
        } finally {
            b2.close();
            b.close();
            a.close();
        }
    }

    @Test
    void migrationTargetsAreRecorded() {
        try (ZooKeeperMembership a = join(0)) {
            assertEquals(-1, a.recordedTarget(42L));
            a.recordMigration(42L, 2);
            assertEquals(2, a.recordedTarget(42L));
            a.recordMigration(42L, 1);
            assertEquals(1, a.recordedTarget(42L), "a later approval replaces the record");
            a.recordMigration(-7L, 3);
            assertEquals(java.util.Map.of(42L, 1, -7L, 3), a.recordedTargets(),
                "a new coordinator reads every record back, negative keys included");
        }
    }
}
