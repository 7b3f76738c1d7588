package io.pragh.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.durability.SyncPolicy;
import io.pragh.embedded.EmbeddedCluster;
import io.pragh.fabric.fault.FaultFabric;
import io.pragh.fabric.fault.FaultSelector;
import io.pragh.fabric.fault.HoldRule;
import io.pragh.fabric.inprocess.InProcessFabric;
import io.pragh.keys.KeyLayout;
import io.pragh.migration.Migrator;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Gremlin Server's evaluation timeout interrupts the worker running a traversal, and so an update's caller, at any
 * point of the update: here the caller is interrupted while each step of a durable update is held in turn (the UPDATE
 * on its way to the home or to the value's host, the one-sided CAS of the home's word that the caller itself issues
 * when its machine hosts the value, the LOG to the home, the settle of the record on its host, the ACK). The caller
 * gives up ("was interrupted"); what the update already did must still be finished by the machines' own threads, so
 * that once the held step goes on the key's record is settled, and the key is read and updated at once everywhere.
 * The update protocol itself never waits interruptibly (its waits spin or park and the fault fabric's hold lets an
 * interrupted operation go on, as a real fabric's operation does), so nothing an interrupt reaches is left half done:
 * this test passes without a fix and pins that down (it was a candidate cause of a record left pending for good behind
 * an interrupted Gremlin addV; see {@code LoggedUpdatesSettleWhateverTheCommitObserverDoesTest} for a real one).
 */
class AnInterruptedUpdateLeavesNothingPendingTest {
    /** Failure bounds only: each step below takes milliseconds once released. */
    private static final long PATIENCE_SECONDS = 30;

    @TempDir
    Path dir;

    private final FaultFabric fabric = new FaultFabric(new InProcessFabric(3, 0), 11);

    @Test
    void aCallerInterruptedAtEachHeldStepLeavesTheKeySettled() throws Exception {
        try (EmbeddedCluster c = EmbeddedCluster.builder().machines(3).workersPerMachine(1).keysPerMachine(1000)
            .valueBytesPerMachine(4 << 20).cacheBytes(1 << 16).fabricPerMachine(i -> fabric)
            .durability(dir, SyncPolicy.BATCH, 0).build()) {
            int vid = 1;
            // The value at its home, the caller elsewhere: the UPDATE to the home, then its ACK back.
            vid = atHome(c, vid, "the UPDATE to the home", s -> s.messages().from(s.origin).to(s.home));
            vid = atHome(c, vid, "the ACK to the origin", s -> s.messages().from(s.home).to(s.origin));
            // The value migrated to the caller's machine: the caller applies the update itself.
            vid = migrated(c, vid, true, "the caller's CAS of the home's word",
                s -> s.cas().single().from(s.host).to(s.home));
            vid = migrated(c, vid, true, "the LOG to the home", s -> s.messages().from(s.host).to(s.home));
            vid = migrated(c, vid, true, "the home's settle of the record on its host",
                s -> s.cas().single().from(s.home).to(s.host));
            vid = migrated(c, vid, true, "the ACK to the host", s -> s.messages().from(s.home).to(s.host));
            // The value migrated away from the caller, who is its home: the UPDATE forwarded to the host.
            migrated(c, vid, false, "the UPDATE forwarded to the host",
                s -> s.messages().from(s.home).to(s.host));
        }
    }

    @FunctionalInterface
    private interface Hold {
        FaultSelector select(StepView s);
    }

    /** What a hold is chosen by: the step's machines and a fresh selector. */
    private static final class StepView {
        final int home;
        final int host;
        final int origin;
        private final FaultFabric fabric;

        StepView(FaultFabric fabric, int home, int host, int origin) {
            this.fabric = fabric;
            this.home = home;
            this.host = host;
            this.origin = origin;
        }

        FaultSelector messages() {
            return fabric.when().messages().times(1);
        }

        FaultSelector cas() {
            return fabric.when().cas().times(1);
        }
    }

    private int atHome(EmbeddedCluster c, int vid, String step, Hold hold) throws Exception {
        long key = KeyLayout.key(vid, 0, KeyLayout.VERTEX);
        int home = c.home(key);
        int origin = (home + 1) % 3;
        c.machine(home).put(key, bytes("before"));
        interruptWhileHeld(c, key, origin, new StepView(fabric, home, home, origin), step, hold);
        return vid + 1;
    }

    /** The value migrated to the home's next machine; the caller is that host, or the home when not. */
    private int migrated(EmbeddedCluster c, int vid, boolean callerHosts, String step, Hold hold) throws Exception {
        long key = KeyLayout.key(vid, 0, KeyLayout.VERTEX);
        int home = c.home(key);
        int host = (home + 1) % 3;
        c.machine(home).put(key, bytes("before"));
        assertEquals(Migrator.Outcome.MIGRATED, c.machine(host).migrate(key));
        int origin = callerHosts ? host : home;
        interruptWhileHeld(c, key, origin, new StepView(fabric, home, host, origin), step, hold);
        return vid + 1;
    }

    /**
     * Runs an update of {@code key} from {@code origin} on a thread of its own, holds {@code step} of it, interrupts
     * the thread while held, lets the step go on, and checks that the key is settled: an update from another
     * machine is acknowledged and every machine reads it.
     */
    private void interruptWhileHeld(EmbeddedCluster c, long key, int origin, StepView s, String step, Hold hold)
        throws Exception {
        HoldRule rule = hold.select(s).hold();
        AtomicReference<Throwable> outcome = new AtomicReference<>();
        Thread caller = new Thread(() -> {
            try {
                c.machine(origin).update(key, Mutators.SET, bytes("interrupted"));
            } catch (Throwable t) {
                outcome.set(t);
            }
        }, "caller");
        try {
            caller.start();
            assertTrue(rule.awaitHeld(1, PATIENCE_SECONDS, TimeUnit.SECONDS), step + " was never held");
            caller.interrupt();
            caller.join(TimeUnit.SECONDS.toMillis(PATIENCE_SECONDS));
            assertFalse(caller.isAlive(), "the interrupted caller of an update ended (" + step + " held)");
        } finally {
            rule.remove();
        }
        int third = (origin + 1) % 3;
        c.machine(third).updateAsync(key, Mutators.SET, bytes("next")).get(PATIENCE_SECONDS, TimeUnit.SECONDS);
        for (int m = 0; m < 3; m++) {
            assertArrayEquals(bytes("next"), c.machine(m).get(key), step + " held: machine " + m);
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
