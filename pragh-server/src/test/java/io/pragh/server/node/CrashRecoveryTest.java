package io.pragh.server.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.embedded.EmbeddedCluster;
import io.pragh.fabric.fault.FaultFabric;
import io.pragh.fabric.fault.FaultRule;
import io.pragh.fabric.inprocess.InProcessFabric;
import io.pragh.keys.KeyLayout;
import io.pragh.keys.Placement;
import io.pragh.migration.Migrator;
import io.pragh.reclaim.Leases;
import io.pragh.store.MachineStore;
import io.pragh.store.Mutators;
import io.pragh.store.StoreConfig;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A restarted machine tells its peers before it serves, and waits for each to recover from it. A peer's
 * acknowledgement can fail on its way back (on TCP, the peer's fabric was still backing off from an attempt to reach
 * the machine before it listened): the machine used to wait out its whole patience for it (four request timeouts, so
 * every test that started two servers waited 8 s, or 40 s at a 5 s request timeout). It tells such a peer again.
 */
// A hang bound only: beside a CPU hog a cluster test took 93 s, 1-5 s quietly (session 16).
@Timeout(300)
class CrashRecoveryTest {
    @Test
    void aPeerWhoseAcknowledgementWasLostIsToldAgainAndAcknowledges() {
        FaultFabric fabric = new FaultFabric(new InProcessFabric(2, 0), 5);
        try (EmbeddedCluster c = EmbeddedCluster.builder().machines(2).workersPerMachine(1).keysPerMachine(1_000)
            .valueBytesPerMachine(4 << 20).pinThreads(false).fabricPerMachine(i -> fabric).build()) {
            CrashRecovery peer = new CrashRecovery(c.machine(0).store(), null);
            CrashRecovery restarted = new CrashRecovery(c.machine(1).store(), null);
            // Nothing else goes from machine 0 to machine 1 meanwhile: the first message is the acknowledgement.
            FaultRule lostAck = fabric.when().messages().from(0).to(1).times(1).drop();

            Set<Integer> acknowledged = restarted.announceRestart(60_000);

            assertEquals(1, lostAck.fired(), "the peer's first acknowledgement was lost");
            assertEquals(Set.of(0), acknowledged, "the peer acknowledged when told again");
            assertEquals(0, peer.restoredTotal(), "nothing of the peer's had migrated to the restarted machine");
        }
    }

    /**
     * A machine restarts while a peer is cut off from it: that peer may still hold cached addresses and replicas of the
     * machine's previous life, so the values the machine reloaded stay at home (a migration leaves them, see
     * {@code io.pragh.store.PutBackFence}) after it serves. Until session 21 an unreachable peer was presumed down and
     * nothing was held. Once the partition heals, the peer is told again, recovers from the restart, and the hold ends
     * (long before its time, which this test's leases put at ten minutes).
     */
    @Test
    void aRestartedMachinesReloadedValuesStayAtHomeUntilAPeerCutOffFromItRecoveredFromTheRestart() throws Exception {
        int machines = 3;
        InProcessFabric fabric = new InProcessFabric(machines, 0);
        StoreConfig config = StoreConfig.defaults().withKeys(4_000).withValueBytes(4 << 20).withChunkBytes(1 << 20)
            .withCacheBytes(64 << 10).withReclaimRingSlots(1 << 12).withLeases(new Leases(600_000, 50));
        Placement placement = Placement.hashed(machines);
        MachineStore[] stores = new MachineStore[machines];
        CrashRecovery[] recoveries = new CrashRecovery[machines];
        long key = 0;
        for (long v = 1; key == 0; v++) {
            long k = KeyLayout.key(v, 0, KeyLayout.OUT);
            key = placement.home(k) == 0 ? k : 0;
        }
        try {
            for (int i = 0; i < machines; i++) {
                stores[i] = new MachineStore(i, machines, config, placement, Mutators.withBuiltins());
                recoveries[i] = new CrashRecovery(stores[i], null);
            }
            // Machine 0 restarted and reloads its key from its log, as Recovery does.
            byte[] value = "reloaded".getBytes(StandardCharsets.UTF_8);
            stores[0].putBacks().restarted();
            stores[0].load(key, 1, new UnsafeBuffer(value), 0, value.length);
            for (MachineStore s : stores) {
                s.attach(fabric);
            }
            fabric.setReachable(2, false);

            assertEquals(Set.of(1), recoveries[0].announceRestart(1_000), "the reachable peer recovered");
            assertTrue(stores[0].putBacks().holds(), "machine 2 may still read records from before the restart");
            assertEquals(Migrator.Outcome.HELD, new Migrator(stores[1], 4).migrate(key));

            fabric.setReachable(2, true);
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (stores[0].putBacks().holds() || stores[0].putBacks().lifted() == 0) {
                assertTrue(System.nanoTime() < deadline, "machine 2 was told again and recovered, ending the hold");
                Thread.sleep(5);
            }
            assertEquals(Migrator.Outcome.MIGRATED, new Migrator(stores[1], 4).migrate(key));
        } finally {
            for (CrashRecovery r : recoveries) {
                if (r != null) {
                    r.close();
                }
            }
            fabric.close();
            for (MachineStore s : stores) {
                if (s != null) {
                    s.close();
                }
            }
        }
    }
}
