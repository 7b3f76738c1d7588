package io.pragh.durability;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.embedded.EmbeddedCluster;
import io.pragh.embedded.ThreadDumpWhenUnacknowledged;
import io.pragh.fabric.inprocess.InProcessFabric;
import io.pragh.keys.KeyLayout;
import io.pragh.migration.Migrator;
import io.pragh.store.Mutators;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a durable home tells other machines once its log has an update (the ACK to the update's origin, the CAS that
 * settles the update's record on the host of a migrated value) must not hold up its log: a peer that is slow or down
 * makes the TCP fabric's sender wait, up to a whole request timeout, and while the log thread waited every other
 * update of a key homed there stayed unlogged, its record pending and every GET of it waiting (suspected behind a
 * Gremlin addV stuck under load, session 15). Here one peer does not take what the home sends it, for as long as the
 * test likes; meanwhile the home must go on logging and acknowledging its own updates and those of other origins.
 * Both tests fail when the home sends from its log thread: the other updates are not acknowledged until the held one
 * is let go.
 */
@ExtendWith(ThreadDumpWhenUnacknowledged.class)
class AcknowledgementsOffTheLogThreadTest {
    /**
     * A failure bound only: the updates below take milliseconds when nothing holds them up. Shorter than a hold lasts
     * unreleased ({@link StallingFabric}), so that an update held up behind a held send still fails the test.
     */
    private static final long PATIENCE_SECONDS = 60;
    /** {@code io.pragh.store.PeerSends.LANE_CAPACITY}: the tasks one peer's lane holds. */
    private static final int LANE_CAPACITY = 4_096;

    @TempDir
    Path dir;

    private final StallingFabric fabric = new StallingFabric(new InProcessFabric(3, 0));

    private EmbeddedCluster open() {
        return EmbeddedCluster.builder().machines(3).workersPerMachine(1).keysPerMachine(1000)
            .valueBytesPerMachine(4 << 20).cacheBytes(1 << 16).fabricPerMachine(i -> fabric)
            .durability(dir, SyncPolicy.BATCH, 0).build();
    }

    @Test
    void anAckHeldByItsOriginStallsNeitherTheLogNorTheAcknowledgementOfOtherUpdates() throws Exception {
        try (EmbeddedCluster c = open()) {
            long held = vertex(1);
            int home = c.home(held);
            int origin = (home + 1) % 3;
            int third = (home + 2) % 3;
            long local = sameHome(c, held, 1);
            long fromThird = sameHome(c, held, 2);
            c.machine(origin).put(held, bytes("before"));

            StallingFabric.Hold ack = fabric.holdNextSend(home, origin);
            try {
                CompletableFuture<Void> first = c.machine(origin).updateAsync(held, Mutators.SET, bytes("held"));
                ack.awaitReached(); // logged, and its ACK to the origin is not taken
                awaitAcknowledged(c.machine(home).updateAsync(local, Mutators.SET, bytes("local")),
                    "an update made at the home, while the home's ACK to machine " + origin + " is not taken");
                awaitAcknowledged(c.machine(third).updateAsync(fromThird, Mutators.SET, bytes("from third")),
                    "an update from machine " + third + ", while the home's ACK to machine " + origin
                        + " is not taken");
                assertFalse(first.isDone(), "the held ACK was held: " + first);
                ack.release();
                first.get(60, TimeUnit.SECONDS);
            } finally {
                ack.release();
            }
            assertArrayEquals(bytes("held"), c.machine(third).get(held));
            assertArrayEquals(bytes("local"), c.machine(origin).get(local));
            assertArrayEquals(bytes("from third"), c.machine(origin).get(fromThird));
        }
    }

    @Test
    void aSettleHeldByAMigratedValuesHostStallsNeitherTheLogNorTheAcknowledgementOfOtherUpdates() throws Exception {
        try (EmbeddedCluster c = open()) {
            long migrated = KeyLayout.key(7, 0, KeyLayout.OUT);
            int home = c.home(migrated);
            int host = (home + 1) % 3;
            int origin = (home + 2) % 3;
            long local = sameHome(c, migrated, 1);
            putAndMigrate(c, migrated, bytes("at home"), host);

            StallingFabric.Hold settle = fabric.holdNextCas(home, host);
            try {
                CompletableFuture<Void> first = c.machine(origin).updateAsync(migrated, Mutators.SET,
                    bytes("on the host"));
                settle.awaitReached(); // logged, and the CAS that makes its record readable on the host is held
                awaitAcknowledged(c.machine(home).updateAsync(local, Mutators.SET, bytes("local")),
                    "an update made at the home, while its settle CAS on machine " + host + " is held");
                assertFalse(first.isDone(), "the update is acknowledged only once its record is settled: " + first);
                settle.release();
                first.get(60, TimeUnit.SECONDS);
            } finally {
                settle.release();
            }
            for (int m = 0; m < 3; m++) {
                assertArrayEquals(bytes("on the host"), c.machine(m).get(migrated), "machine " + m);
                assertArrayEquals(bytes("local"), c.machine(m).get(local), "machine " + m);
            }
        }
    }

    /**
     * A home refuses a LOG that reaches it after it restored the key from its log (the host was lost meanwhile): it
     * invalidates the LOG's record on the host and refuses the update back to its origin. That runs where the LOG is
     * delivered, the thread that hands the home every message, so it must not wait for the host either: here the
     * invalidating CAS is held, and the home must go on taking and acknowledging another origin's update.
     */
    @Test
    void aRefusedLogsInvalidationHeldByItsHostStallsNotTheHomesMessages() throws Exception {
        try (EmbeddedCluster c = open()) {
            long key = KeyLayout.key(33, 0, KeyLayout.OUT);
            int home = c.home(key);
            int away = (home + 1) % 3;
            int origin = (home + 2) % 3;
            long other = sameHome(c, key, 1);
            putAndMigrate(c, key, bytes("durable;"), away);
            // The host applies the APPEND; its LOG to the home is held on the host's delivery thread.
            StallingFabric.Hold log = fabric.holdNextSendBy("pragh-m" + away + "-inbox");
            StallingFabric.Hold invalidation = null;
            try {
                CompletableFuture<Void> append = c.machine(origin).updateAsync(key, Mutators.APPEND, bytes("lost;"));
                log.awaitReached();
                // The host "crashes" (its copy and its cache entry go) and the home restores the key from its log.
                assertArrayEquals(bytes("durable;"), HostLoss.loseAndRestore(c, key, home, away));
                invalidation = fabric.holdNextCas(home, away);
                log.release(); // the LOG reaches the home, which refuses it and invalidates its record on the host
                invalidation.awaitReached();
                awaitAcknowledged(c.machine(origin).updateAsync(other, Mutators.SET, bytes("taken")),
                    "an update from machine " + origin + ", while the home's invalidation of a refused LOG's record on"
                        + " machine " + away + " is held");
                assertFalse(append.isDone(), "refused only once its record is invalidated: " + append);
                invalidation.release();
                var e = org.junit.jupiter.api.Assertions.assertThrows(java.util.concurrent.ExecutionException.class,
                    () -> append.get(60, TimeUnit.SECONDS));
                assertTrue(e.getCause() instanceof io.pragh.store.HostUnavailableException, "refused retryably: " + e);
            } finally {
                log.release();
                if (invalidation != null) {
                    invalidation.release();
                }
            }
            assertArrayEquals(bytes("durable;"), c.machine(origin).get(key));
            assertArrayEquals(bytes("taken"), c.machine(away).get(other));
        }
    }

    /**
     * A home batch (a load's updates carried to their home in one message) is answered with one BATCH_ACK once all its
     * updates are acknowledged, which on a durable home happens on the log's thread: that answer must not be sent
     * from there either.
     */
    @Test
    void aBatchAckHeldByItsOriginStallsNeitherTheLogNorTheAcknowledgementOfOtherUpdates() throws Exception {
        try (EmbeddedCluster c = open()) {
            long first = vertex(1);
            int home = c.home(first);
            int origin = (home + 1) % 3;
            long[] keys = {first, sameHome(c, first, 1), sameHome(c, first, 2)};
            long local = sameHome(c, first, 3);
            byte[][] args = {bytes("a"), bytes("b"), bytes("c")};
            int[] mutators = {Mutators.SET, Mutators.SET, Mutators.SET};

            StallingFabric.Hold ack = fabric.holdNextSend(home, origin);
            try {
                var batch = c.machine(origin).homeBatches().issue(keys, mutators, args, keys.length);
                assertEquals(1, batch.size(), "one message to the one home");
                ack.awaitReached(); // the batch's updates are logged, and its BATCH_ACK is not taken
                awaitAcknowledged(c.machine(home).updateAsync(local, Mutators.SET, bytes("local")),
                    "an update made at the home, while the home's BATCH_ACK to machine " + origin + " is not taken");
                assertFalse(batch.get(0).isDone(), "the held BATCH_ACK was held: " + batch.get(0));
                ack.release();
                batch.get(0).get(60, TimeUnit.SECONDS);
            } finally {
                ack.release();
            }
            for (int i = 0; i < keys.length; i++) {
                assertArrayEquals(args[i], c.machine(origin).get(keys[i]));
            }
        }
    }

    /**
     * A peer's lane holds {@value #LANE_CAPACITY} tasks and drops what comes when full, as a lost message (PeerSends).
     * Here the host of migrated values takes no CAS while more of their updates are logged than its lane holds: the
     * settles that do not fit are dropped. A dropped settle must leave its update unacknowledged (its ACK is sent only
     * once its record is settled) and must not leave it pending for good: the host sends the LOG of a pending record
     * again every second, and the home logs, settles and acknowledges it then. So every update is acknowledged in the
     * end, none before the host took its settle, and every machine reads every new value.
     */
    @Test
    void settlesAFullLaneDroppedAreDoneOnTheHostsNextLogAndOnlyThenAcknowledged() throws Exception {
        try (EmbeddedCluster c = openForMoreThanALane()) {
            long first = vertex(1);
            int home = c.home(first);
            int host = (home + 1) % 3;
            int origin = (home + 2) % 3;
            int dropped = 64;
            long[] keys = withSameHome(c, first, 1 + LANE_CAPACITY + dropped); // the held settle, a full lane, more
            List<CompletableFuture<Void>> puts = new ArrayList<>();
            for (long k : keys) {
                puts.add(c.machine(home).updateAsync(k, Mutators.SET, bytes("at home")));
            }
            awaitAll(puts, "the puts at the home");
            List<CompletableFuture<Migrator.Outcome>> moves = new ArrayList<>();
            for (long k : keys) {
                moves.add(c.machine(host).migrateAsync(k));
            }
            awaitAll(moves, "the migrations to machine " + host);
            for (CompletableFuture<Migrator.Outcome> m : moves) {
                assertEquals(Migrator.Outcome.MIGRATED, m.join());
            }
            long refusedBefore = c.machine(home).store().refusedSends();

            StallingFabric.Hold settle = fabric.holdNextCas(home, host);
            List<CompletableFuture<Void>> updates = new ArrayList<>();
            try {
                for (long k : keys) {
                    updates.add(c.machine(origin).updateAsync(k, Mutators.SET, bytes("on the host")));
                }
                settle.awaitReached();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(PATIENCE_SECONDS);
                while (c.machine(home).store().refusedSends() - refusedBefore < dropped) {
                    assertTrue(System.nanoTime() < deadline, "machine " + home + "'s lane to machine " + host
                        + " dropped " + (c.machine(home).store().refusedSends() - refusedBefore) + " settles, not "
                        + dropped);
                    Thread.sleep(5);
                }
                for (int i = 0; i < updates.size(); i++) {
                    assertFalse(updates.get(i).isDone(), "update " + i + " ended before the host took its settle: "
                        + updates.get(i));
                }
                settle.release();
                awaitAll(updates, "the updates once the host takes CASes again");
            } finally {
                settle.release();
            }
            for (CompletableFuture<Void> u : updates) {
                u.join(); // acknowledged, none refused
            }
            for (int m = 0; m < 3; m++) {
                for (long k : keys) {
                    assertArrayEquals(bytes("on the host"), c.machine(m).get(k), "key " + k + " on machine " + m);
                }
            }
        }
    }

    /**
     * An ACK is sent by nothing else: once its record is settled the host stops sending the LOG. Before, a burst of
     * ACKs to one origin that its lane could not send as fast as the log made them durable filled the lane, and the
     * ACKs it dropped left their updates done and never acknowledged (1 of 4,161 in the test above, on CI's slow
     * machine, where a host's lane settled faster than the origin's lane sent). Here the origin takes no ACK while more
     * of its updates are logged than a lane holds settles: none may be dropped, and all are acknowledged once it takes
     * them again.
     */
    @Test
    void acksAnOriginDoesNotTakeForAWhileAreQueuedBeyondTheLanesCapacityAndAllAcknowledged() throws Exception {
        try (EmbeddedCluster c = openForMoreThanALane()) {
            long first = vertex(1);
            int home = c.home(first);
            int origin = (home + 1) % 3;
            long[] keys = withSameHome(c, first, 1 + LANE_CAPACITY + 64); // the held ACK, a lane's worth, and more
            long refusedBefore = c.machine(home).store().refusedSends();

            StallingFabric.Hold ack = fabric.holdNextSend(home, origin);
            List<CompletableFuture<Void>> updates = new ArrayList<>();
            try {
                for (long k : keys) {
                    updates.add(c.machine(origin).updateAsync(k, Mutators.SET, bytes("acknowledged")));
                }
                ack.awaitReached();
                // Every other ACK is queued on the lane (the held one is being sent), or, before, dropped from it.
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(PATIENCE_SECONDS);
                long refused;
                while (c.machine(home).store().queuedPeerSends(origin)
                    + (refused = c.machine(home).store().refusedSends() - refusedBefore) < keys.length - 1) {
                    assertTrue(System.nanoTime() < deadline, "machine " + home + " logged and answered "
                        + (c.machine(home).store().queuedPeerSends(origin) + refused) + " of " + (keys.length - 1)
                        + " updates within " + PATIENCE_SECONDS + " s");
                    Thread.sleep(5);
                }
                assertEquals(0, refused, "ACKs machine " + home + " dropped while machine " + origin
                    + " took none (nothing sends them again)");
                assertEquals(0, updates.stream().filter(CompletableFuture::isDone).count(),
                    "updates acknowledged while their ACKs were held");
                ack.release();
                awaitAll(updates, "the updates once the origin takes ACKs again");
            } finally {
                ack.release();
            }
            for (CompletableFuture<Void> u : updates) {
                u.join(); // acknowledged, none refused
            }
            for (long k : keys) {
                assertArrayEquals(bytes("acknowledged"), c.machine(origin).get(k), "key " + k);
            }
        }
    }

    private static void awaitAll(List<? extends CompletableFuture<?>> futures, String what) throws Exception {
        try {
            CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).get(PATIENCE_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            long done = futures.stream().filter(CompletableFuture::isDone).count();
            throw new AssertionError(what + ": " + done + " of " + futures.size() + " done within " + PATIENCE_SECONDS
                + " s", e);
        }
    }

    /**
     * What the log's slow-batch report said of a slow peer before (its ACK held up the log thread's batch) the peer's
     * lane says now: a send that took over a second is reported, naming the peer, and the log reports nothing.
     */
    @Test
    void aSendThatTookOverASecondIsReportedNamingThePeerAndTheLogIsNotSlow() throws Exception {
        ch.qos.logback.classic.Logger lanes =
            (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger("io.pragh.store.PeerSends");
        ch.qos.logback.classic.Logger log =
            (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(WriteAheadLog.class);
        ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> capture =
            new ch.qos.logback.core.read.ListAppender<>();
        capture.start();
        lanes.addAppender(capture);
        log.addAppender(capture);
        try (EmbeddedCluster c = open()) {
            long held = vertex(1);
            int home = c.home(held);
            int origin = (home + 1) % 3;
            StallingFabric.Hold ack = fabric.holdNextSend(home, origin);
            try {
                CompletableFuture<Void> first = c.machine(origin).updateAsync(held, Mutators.SET, bytes("held"));
                ack.awaitReached();
                long heldAt = System.nanoTime();
                long over = WriteAheadLog.SLOW_BATCH_NANOS + TimeUnit.MILLISECONDS.toNanos(100);
                // A duration this test is about, not a synchronisation: the lane's report threshold
                // (PeerSends.SLOW_TASK_NANOS) is a second, as the log's.
                while (System.nanoTime() - heldAt < over) {
                    Thread.sleep(10);
                }
                ack.release();
                first.get(60, TimeUnit.SECONDS);
            } finally {
                ack.release();
            }
            java.util.regex.Pattern lane = java.util.regex.Pattern.compile("machine " + home + " took (\\d+) ms to send"
                + " to machine " + origin + " what its log had made durable \\(\\d+ more queued for it\\); the log went"
                + " on meanwhile");
            // The lane reports a send once it returned, which may be after the origin got its ACK.
            List<String> lines = List.of();
            boolean reported = false;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(PATIENCE_SECONDS);
            while (!reported && System.nanoTime() < deadline) {
                synchronized (capture) { // the appender's lock: it appends under it
                    lines = capture.list.stream().map(e -> e.getFormattedMessage()).toList();
                }
                reported = lines.stream().map(lane::matcher)
                    .anyMatch(m -> m.matches() && Long.parseLong(m.group(1)) >= 1000);
                Thread.sleep(1);
            }
            assertTrue(reported, "the slow send is reported, naming the peer: " + lines);
            assertTrue(lines.stream().noneMatch(l -> l.startsWith("write-ahead log of machine " + home + " was slow")),
                "the log was not held up: " + lines);
        } finally {
            lanes.detachAppender(capture);
            log.detachAppender(capture);
        }
    }

    private static void awaitAcknowledged(CompletableFuture<Void> update, String what) throws Exception {
        try {
            update.get(PATIENCE_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError(what + " was not acknowledged within " + PATIENCE_SECONDS + " s: the home"
                + " waits for a peer on a thread that serves others", e);
        }
    }

    /** Puts {@code value} at the key's home and migrates it to {@code host}. */
    private static void putAndMigrate(EmbeddedCluster c, long key, byte[] value, int host) {
        c.machine(c.home(key)).put(key, value);
        assertEquals(Migrator.Outcome.MIGRATED, c.machine(host).migrate(key));
    }

    /** A cluster whose machines hold more keys than a peer's lane holds tasks. */
    private EmbeddedCluster openForMoreThanALane() {
        return EmbeddedCluster.builder().machines(3).workersPerMachine(1).keysPerMachine(16_384)
            .valueBytesPerMachine(8 << 20).cacheBytes(1 << 20).fabricPerMachine(i -> fabric)
            .durability(dir, SyncPolicy.NONE, 0).build();
    }

    /** {@code key} and the next {@code count - 1} vertex keys with its home. */
    private static long[] withSameHome(EmbeddedCluster c, long key, int count) {
        long[] keys = new long[count];
        keys[0] = key;
        for (long v = 100, i = 1; i < count; v++) {
            if (c.home(vertex(v)) == c.home(key)) {
                keys[(int) i++] = vertex(v);
            }
        }
        return keys;
    }

    /** The {@code n}-th vertex key after {@code key} with the same home. */
    private static long sameHome(EmbeddedCluster c, long key, int n) {
        int home = c.home(key);
        for (long v = 100; ; v++) {
            if (c.home(vertex(v)) == home && --n == 0) {
                return vertex(v);
            }
        }
    }

    private static long vertex(long v) {
        return KeyLayout.key(v, 0, KeyLayout.VERTEX);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
