package io.pragh.server.node;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.embedded.EmbeddedCluster;
import io.pragh.keys.KeyLayout;
import io.pragh.monitor.Monitor;
import io.pragh.monitor.MonitorConfig;
import io.pragh.store.MachineStore;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class DecisionDeliveryTest {
    /**
     * A TRACK of a key the receiving machine does not home (a peer's bug: a coordinator asks only the home) is dropped
     * with a log line; the delivery thread goes on, and a TRACK of a key it homes after it is carried out.
     */
    @Test
    void aTrackOfAKeyHomedElsewhereIsDroppedAndTheNextDecisionIsCarriedOut() {
        try (EmbeddedCluster c = EmbeddedCluster.builder().machines(2).workersPerMachine(1).keysPerMachine(1_000)
            .valueBytesPerMachine(4 << 20).pinThreads(false).build()) {
            MachineStore store = c.machine(0).store();
            Monitor monitor = new Monitor(0, store.placement(), store.cache(), MonitorConfig.defaults());
            DecisionDelivery delivery = new DecisionDelivery(store, monitor, null, null, null, Runnable::run);
            long remote = keyHomedAt(store, 1);
            long local = keyHomedAt(store, 0);

            UnsafeBuffer foreign = PolicyMessages.decision(DecisionKind.TRACK, remote);
            delivery.onDecision(1, foreign, 0, foreign.capacity());
            UnsafeBuffer own = PolicyMessages.decision(DecisionKind.TRACK, local);
            delivery.onDecision(1, own, 0, own.capacity());

            assertFalse(monitor.isTracked(remote), "machine 0 does not track a key homed on machine 1");
            assertTrue(monitor.isTracked(local), "the decision after the dropped one was carried out");
        }
    }

    private static long keyHomedAt(MachineStore store, int home) {
        for (long vid = 1; ; vid++) {
            long key = KeyLayout.key(vid, 0, KeyLayout.OUT);
            if (store.placement().home(key) == home) {
                return key;
            }
        }
    }
}
