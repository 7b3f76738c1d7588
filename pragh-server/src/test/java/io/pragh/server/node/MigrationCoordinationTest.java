package io.pragh.server.node;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.util.internal.logging.InternalLoggerFactory;
import io.netty.util.internal.logging.JdkLoggerFactory;
import io.pragh.address.Address;
import io.pragh.keys.KeyLayout;
import io.pragh.keys.KeyRegion;
import io.pragh.server.cli.LocalCluster;
import io.pragh.server.config.ClusterConfig;
import io.pragh.server.membership.LoopbackZooKeeper;
import io.pragh.fabric.FabricStats;
import io.pragh.server.rpc.ClientException;
import io.pragh.server.rpc.ClusterClient;
import io.pragh.server.rpc.Decided;
import io.pragh.server.rpc.MachineStats;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The policy runs across machines: a machine that reads a remote value often gets it migrated by the elected
 * coordinator, which records the target in ZooKeeper before approving.
 */
// A hang bound only: beside a CPU hog a cluster test took 93 s, 1-5 s quietly (session 16).
@Timeout(300)
class MigrationCoordinationTest {
    @TempDir
    Path dir;

    /**
     * A two-machine local cluster's files in {@link #dir}, with membership through {@code zk}, on the longest sessions
     * {@link LoopbackZooKeeper} grants: nothing here waits for one to expire, and beside a CPU hog a machine took
     * longer than the small settings' 4 s even to connect.
     */
    private LocalCluster twoMachines(LoopbackZooKeeper zk) throws java.io.IOException {
        InternalLoggerFactory.setDefaultFactory(JdkLoggerFactory.INSTANCE);
        return LocalCluster.create(dir, LocalCluster.Settings.small(2).withZooKeeper(zk.connectString())
            .withSessionTimeout(LoopbackZooKeeper.LONG_SESSION));
    }

    /** That cluster's configuration with a migration {@code policy} added. */
    private ClusterConfig configWith(String policy) throws java.io.IOException {
        Path file = dir.resolve(LocalCluster.CONFIG);
        return ClusterConfig.parse(Files.readString(file) + "policy: " + policy + "\n", file.toString(), dir);
    }

    private static void closeAll(ServerNode[] nodes) {
        for (ServerNode n : nodes) {
            if (n != null) {
                n.close();
            }
        }
    }

    @Test
    void aHotRemoteValueMigratesToItsReaderAndTheTargetIsRecordedFirst() throws Exception {
        try (LoopbackZooKeeper zk = LoopbackZooKeeper.start()) {
            LocalCluster local = twoMachines(zk);
            ClusterConfig config = configWith("{reportInterval: 300ms, instantReportRate: 50}");
            ServerNode[] nodes = new ServerNode[2];
            try {
                nodes[0] = ServerNode.start(config, 0);
                nodes[1] = ServerNode.start(config, 1);
                try (ClusterClient c = local.client(10_000)) {
                    long key = KeyLayout.key(77, 0, KeyLayout.OUT);
                    int home = c.home(key);
                    int reader = 1 - home;
                    c.put(key, "hot".getBytes());
                    KeyRegion homeKeys = nodes[home].machine().store().keys();
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                    while (!Address.isMigrated(homeKeys.address(homeKeys.find(key)))) {
                        assertTrue(System.nanoTime() < deadline, "the hot value did not migrate to its reader");
                        for (int i = 0; i < 50; i++) {
                            assertArrayEquals("hot".getBytes(), c.machine(reader).get(key));
                        }
                    }
                    assertEquals(reader, Address.host(homeKeys.address(homeKeys.find(key)), home));
                    assertEquals(reader, nodes[0].membership().recordedTarget(key),
                        "the approved target is in ZooKeeper");
                    long approved = nodes[0].coordination().approvals() + nodes[1].coordination().approvals();
                    assertTrue(approved >= 1, "the coordinator approved it: " + approved);
                    assertArrayEquals("hot".getBytes(), c.machine(home).get(key), "the home reads it remotely now");
                }
            } finally {
                closeAll(nodes);
            }
        }
    }

    /**
     * A coordinator that takes over a cluster whose earlier coordinator approved migrations learns their targets from
     * ZooKeeper (paper section 5: the coordinator is stateless because the record is durable).
     */
    /** Live threads of machine {@code id} whose name says the duty ({@code pragh-m<id>-<duty>}). */
    private static long dutyThreads(int id, String duty) {
        return Thread.getAllStackTraces().keySet().stream()
            .filter(t -> t.isAlive() && t.getName().equals("pragh-m" + id + "-" + duty)).count();
    }

    @Test
    void aClosedServerLeavesNoneOfItsCoordinationThreadsRunning() throws Exception {
        try (LoopbackZooKeeper zk = LoopbackZooKeeper.start()) {
            twoMachines(zk);
            ClusterConfig config = configWith("{reportInterval: 100ms}");
            ServerNode[] nodes = new ServerNode[2];
            try {
                nodes[0] = ServerNode.start(config, 0);
                nodes[1] = ServerNode.start(config, 1);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                // The coordinator's thread starts with its first task: an interval's end, every 100 ms.
                while (dutyThreads(0, "coordinator") + dutyThreads(1, "coordinator") < 2) {
                    assertTrue(System.nanoTime() < deadline, "no coordination thread named for its machine and duty");
                    Thread.sleep(10);
                }
                assertEquals(1, dutyThreads(0, "monitor"));
            } finally {
                closeAll(nodes);
            }
            for (int id = 0; id < 2; id++) {
                for (String duty : new String[] {"coordinator", "monitor"}) {
                    assertEquals(0, dutyThreads(id, duty), "machine " + id + "'s " + duty + " thread outlived its close");
                }
            }
        }
    }

    @Test
    void aNewCoordinatorIsSeededWithTheTargetsRecordedBeforeIt() throws Exception {
        try (LoopbackZooKeeper zk = LoopbackZooKeeper.start()) {
            twoMachines(zk);
            ClusterConfig config = configWith("{reportInterval: 200ms}");
            long[] keys = {KeyLayout.key(5, 0, KeyLayout.OUT), KeyLayout.key(6, 0, KeyLayout.OUT)};
            for (int run = 0; run < 2; run++) {
                ServerNode[] nodes = new ServerNode[2];
                try {
                    nodes[0] = ServerNode.start(config, 0);
                    nodes[1] = ServerNode.start(config, 1);
                    if (run == 0) {
                        nodes[0].membership().recordMigration(keys[0], 1);
                        nodes[1].membership().recordMigration(keys[1], 0);
                        continue;
                    }
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                    while (nodes[0].membership().coordinator() < 0) {
                        assertTrue(System.nanoTime() < deadline, "no coordinator was elected");
                        Thread.sleep(20);
                    }
                    int coordinator = nodes[0].membership().coordinator();
                    MigrationCoordination c = nodes[coordinator].coordination();
                    while (c.seededTargets() < 0) {
                        assertTrue(System.nanoTime() < deadline, "the coordinator never started deciding");
                        Thread.sleep(20);
                    }
                    assertEquals(2, c.seededTargets(), "both recorded targets reach the new coordinator");
                    assertEquals(-1, nodes[1 - coordinator].coordination().seededTargets(), "only it coordinates");
                } finally {
                    closeAll(nodes);
                }
            }
        }
    }

    /**
     * With {@code trigger: manual} nothing migrates by itself, however hot; the client's phases (monitor everywhere,
     * load, end the interval everywhere, decide on the coordinator) migrate the hot value to its reader, whose reads
     * of it are local from then on.
     */
    @Test
    void withTheManualTriggerOnlyTheClientsPhasesMigrate() throws Exception {
        try (LoopbackZooKeeper zk = LoopbackZooKeeper.start()) {
            LocalCluster local = twoMachines(zk);
            ClusterConfig config = configWith(
                "{trigger: manual, minimumRate: 5, reportInterval: 100ms, instantReportRate: 10}");
            ServerNode[] nodes = new ServerNode[2];
            try {
                nodes[0] = ServerNode.start(config, 0);
                nodes[1] = ServerNode.start(config, 1);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (nodes[0].membership().coordinator() < 0) {
                    assertTrue(System.nanoTime() < deadline, "no coordinator was elected");
                    Thread.sleep(20);
                }
                int coordinator = nodes[0].membership().coordinator();
                try (ClusterClient c = local.client(10_000)) {
                    long key = KeyLayout.key(78, 0, KeyLayout.OUT);
                    int home = c.home(key);
                    int reader = 1 - home;
                    c.put(key, "hot".getBytes());
                    KeyRegion homeKeys = nodes[home].machine().store().keys();
                    // Hot enough to migrate within a report interval or two under the automatic trigger.
                    long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(600);
                    while (System.nanoTime() < until) {
                        assertArrayEquals("hot".getBytes(), c.machine(reader).get(key));
                    }
                    for (int m = 0; m < 2; m++) {
                        assertEquals(0, c.machine(m).stats().migrationsRequested(), "machine " + m + " migrated"
                            + " by itself");
                    }
                    assertFalse(Address.isMigrated(homeKeys.address(homeKeys.find(key))));

                    ClientException early = assertThrows(ClientException.class, () -> c.machine(reader).endInterval());
                    assertTrue(early.getMessage().contains("MONITOR_START first"), early.getMessage());
                    ClientException notHere = assertThrows(ClientException.class,
                        () -> c.machine(1 - coordinator).decide(100));
                    assertFalse(notHere.retryable());
                    assertTrue(notHere.getMessage().contains("machine " + coordinator + " coordinates"),
                        notHere.getMessage());
                    // No machine reported: the decision waits out its timeout, past the server's usual wait for an
                    // operation (10 s here) and the client's (5 s), and decides on nothing. The client's timeout is
                    // also its margin for the answer after the 10.5 s, and its bound on connecting: at 1 s, the
                    // handshake or the answer missed it beside two busy loops ("no answer within 1000 ms"). The
                    // connection is made first, retried, so that the DECIDE below is the only thing timed.
                    try (ClusterClient quick = local.client(5_000)) {
                        long connectBy = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                        while (true) {
                            try {
                                quick.machine(coordinator).stats();
                                break;
                            } catch (ClientException e) {
                                if (!e.retryable() || System.nanoTime() > connectBy) {
                                    throw e;
                                }
                            }
                        }
                        long t0 = System.nanoTime();
                        assertEquals(new Decided(0, 0, 0), quick.machine(coordinator).decide(10_500));
                        assertTrue(System.nanoTime() - t0 >= TimeUnit.MILLISECONDS.toNanos(10_500), "it waited");
                        assertEquals(coordinator, quick.machine(coordinator).stats().machine(),
                            "the connection is back on its usual timeout and serves on");
                    }
                    assertTrue(c.machine(coordinator).stats().coordinator());
                    assertFalse(c.machine(1 - coordinator).stats().coordinator());

                    for (int m = 0; m < 2; m++) {
                        c.machine(m).startMonitoring();
                    }
                    for (int i = 0; i < 300; i++) {
                        c.machine(reader).get(key);
                    }
                    for (int m = 0; m < 2; m++) {
                        c.machine(m).endInterval();
                    }
                    Decided d = c.machine(coordinator).decide(10_000);
                    assertTrue(d.approvals() >= 1, "the coordinator approved the hot key: " + d);

                    MachineStats s = c.machine(reader).stats();
                    while (s.valuesMigrated() < 1 || s.migrationsDone() != s.migrationsRequested()) {
                        assertTrue(System.nanoTime() < deadline, "the approved migration did not finish: " + s);
                        Thread.sleep(20);
                        s = c.machine(reader).stats();
                    }
                    assertEquals(reader, Address.host(homeKeys.address(homeKeys.find(key)), home));
                    assertEquals(reader, nodes[0].membership().recordedTarget(key), "recorded before approval");
                    for (int i = 0; i < 3; i++) {
                        c.machine(reader).get(key); // the reader's cache may still name the value's former place
                    }
                    MachineStats warm = c.machine(reader).stats();
                    for (int i = 0; i < 20; i++) {
                        assertArrayEquals("hot".getBytes(), c.machine(reader).get(key));
                    }
                    MachineStats after = c.machine(reader).stats();
                    FabricStats.Snapshot reads = after.fabric().minus(warm.fabric());
                    assertEquals(0, reads.remoteOps(), "the reader reads its migrated value locally: " + reads);
                    assertTrue(reads.localOps() >= 20, "every read was local: " + reads);
                }
            } finally {
                closeAll(nodes);
            }
        }
    }
}
