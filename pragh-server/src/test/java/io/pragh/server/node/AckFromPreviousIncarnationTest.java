package io.pragh.server.node;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.util.internal.logging.InternalLoggerFactory;
import io.netty.util.internal.logging.JdkLoggerFactory;
import io.pragh.fabric.fault.HoldRule;
import io.pragh.keys.KeyLayout;
import io.pragh.server.cli.LocalCluster;
import io.pragh.server.config.ClusterConfig;
import io.pragh.store.Mutators;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * An acknowledgement addressed to a machine's previous incarnation must not complete a request of the new one. An
 * ACK names its request by the id its origin gave it, and goes to the origin by machine id: when the origin crashed
 * and restarted before the ACK was sent (or while it was on the wire), the home's fabric connects to the new
 * process and delivers it there. If each incarnation numbered its requests from 1 again, the new process would take
 * it for its own request of that id, and report an update acknowledged that had not even reached its home (nor ever
 * would, were its home cut off now). Three server nodes on TCP, durable: the home's ACK to the old origin is held
 * (by its length: 20 bytes, an ACK without text), the origin restarts, its first updates are held on their way to
 * their home, and the old ACK is let go. Fails when request ids restart at 1: one of the new, held updates is
 * completed by the old ACK.
 */
// A hang bound only: beside a CPU hog a cluster test took 93 s, 1-5 s quietly (session 16).
@Timeout(300)
class AckFromPreviousIncarnationTest {
    private static final int MACHINES = 3;
    /** {@code StoreMessages.ACK_MESSAGE}: an ACK of an update that took effect (no text). */
    private static final int ACK_OK_BYTES = 20;
    /** Updates the new incarnation starts: more ids than the few its start-up may take before them. */
    private static final int NEW_UPDATES = 16;

    @TempDir
    Path dir;

    @Test
    void anAckToTheOriginsPreviousIncarnationCompletesNoRequestOfTheNewOne() throws Exception {
        InternalLoggerFactory.setDefaultFactory(JdkLoggerFactory.INSTANCE);
        ClusterConfig config = LocalCluster.create(dir, LocalCluster.Settings.small(MACHINES).withSync("none")
            .withSection("policy", "{trigger: manual}")).config();
        try (FaultyServerNodes nodes = new FaultyServerNodes(config, 1, f -> { })) {
            nodes.startAll();
            long key = KeyLayout.key(5, 0, KeyLayout.VERTEX);
            int home = nodes.home(key);
            int origin = (home + 1) % MACHINES;

            HoldRule oldAck = nodes.fabric(home).when().messages().to(origin).length(ACK_OK_BYTES).times(1).hold();
            CompletableFuture<Void> old = nodes.machine(origin).updateAsync(key, Mutators.SET, bytes("old life"));
            assertTrue(oldAck.awaitHeld(1, 30, TimeUnit.SECONDS), "the home never acknowledged the update: " + old);

            nodes.restart(origin);
            // The new incarnation's first updates, of keys of the same home, each held on its way there: none can
            // be acknowledged until released, whatever the old ACK says.
            HoldRule newUpdates = nodes.fabric(origin).when().messages().to(home).hold();
            List<CompletableFuture<Void>> fresh = new ArrayList<>();
            for (long v = 100; fresh.size() < NEW_UPDATES; v++) {
                long k = KeyLayout.key(v, 0, KeyLayout.VERTEX);
                if (nodes.home(k) == home) {
                    fresh.add(nodes.node(origin).machine().updateAsync(k, Mutators.SET, bytes("new life " + v)));
                }
            }
            long strayBefore = nodes.node(origin).machine().store().strayAcknowledgements();
            oldAck.release(); // delivered to the new incarnation, the only machine of that id now

            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (nodes.node(origin).machine().store().strayAcknowledgements() == strayBefore
                && fresh.stream().noneMatch(CompletableFuture::isDone)) {
                assertTrue(System.nanoTime() < deadline, "the old ACK never reached the new incarnation");
                Thread.sleep(1);
            }
            for (CompletableFuture<Void> f : fresh) {
                assertFalse(f.isDone(), "an update of the new incarnation, still held on its way to its home, was "
                    + "completed by an ACK to the previous incarnation: " + f);
            }
            newUpdates.release();
            for (CompletableFuture<Void> f : fresh) {
                f.get(60, TimeUnit.SECONDS);
            }
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
