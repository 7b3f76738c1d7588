package io.pragh.server.node;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.pragh.embedded.EmbeddedCluster;
import io.pragh.fabric.fault.FaultFabric;
import io.pragh.fabric.fault.FaultRule;
import io.pragh.fabric.inprocess.InProcessFabric;
import java.util.Set;
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
}
