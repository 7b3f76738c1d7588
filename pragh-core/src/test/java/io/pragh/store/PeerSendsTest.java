package io.pragh.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.LoggerFactory;

/**
 * A peer's lane on its own: what a full lane drops is counted and logged, never run late and never lost silently,
 * what it took runs in order once the peer takes again, and nothing a task throws ends the lane. What a drop means for
 * an update (its ACK or settle is lost as a message; the origin times out, or the host's LOG sent again settles it) is
 * pinned end to end in {@code io.pragh.durability.AcknowledgementsOffTheLogThreadTest}.
 */
@Timeout(300)
class PeerSendsTest {
    /** A failure bound only: every wait below is for something that takes microseconds. */
    private static final long PATIENCE_SECONDS = 120;

    private final AtomicLong dropped = new AtomicLong();

    @Test
    void aFullLaneDropsAndCountsWhatComesAndRunsWhatItTookInOrderOnceThePeerTakesAgain() throws Exception {
        Logger logger = (Logger) LoggerFactory.getLogger(PeerSends.class);
        ListAppender<ILoggingEvent> capture = new ListAppender<>();
        capture.start();
        logger.addAppender(capture);
        PeerSends sends = new PeerSends(0, 3, dropped::incrementAndGet);
        CountDownLatch release = new CountDownLatch(1);
        try {
            holdLane(sends, 1, release);
            List<Integer> ran = new ArrayList<>(); // written by the lane's thread only, read after its last task
            for (int i = 0; i < PeerSends.LANE_CAPACITY; i++) {
                int n = i;
                sends.execute(1, () -> ran.add(n));
            }
            assertEquals(0, dropped.get(), "the lane holds " + PeerSends.LANE_CAPACITY + " tasks");
            for (int i = 0; i < 3; i++) {
                sends.execute(1, () -> ran.add(-1));
            }
            assertEquals(3, dropped.get(), "each task a full lane could not take is counted");
            CountDownLatch otherPeer = new CountDownLatch(1);
            sends.execute(2, otherPeer::countDown);
            await(otherPeer, "peer 2's task while peer 1's lane is full");

            release.countDown();
            CountDownLatch after = new CountDownLatch(1);
            // May find the lane still full (then it is dropped and counted too) or not: offered until one is taken.
            long droppedBefore = dropped.get();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(PATIENCE_SECONDS);
            while (true) {
                sends.execute(1, after::countDown);
                if (dropped.get() == droppedBefore) {
                    break;
                }
                droppedBefore = dropped.get();
                assertTrue(System.nanoTime() < deadline, "the lane never took a task again once released");
                Thread.sleep(1);
            }
            await(after, "a task offered once the lane had room");
            List<Integer> expected = new ArrayList<>();
            for (int i = 0; i < PeerSends.LANE_CAPACITY; i++) {
                expected.add(i);
            }
            assertEquals(expected, ran, "every task the lane took ran, once and in order; none it dropped ran");
            List<String> warnings = capture.list.stream().map(ILoggingEvent::getFormattedMessage)
                .filter(m -> m.startsWith("machine 0 dropped a message to machine 1")).toList();
            assertEquals(1, warnings.size(), "one warning for the episode, naming the peer: " + warnings);
            assertTrue(warnings.get(0).contains("its lane holds " + PeerSends.LANE_CAPACITY + " tasks"),
                warnings.get(0));
        } finally {
            release.countDown();
            sends.close();
            logger.detachAppender(capture);
        }
    }

    /**
     * Answers (ACKs to an origin) are sent again by nothing, so a lane full of settles still takes them, up to
     * {@link PeerSends#ANSWER_CAPACITY}; a settle offered while answers fill the lane is dropped, as the protocol
     * sends it again. Everything taken runs in order once the peer takes again.
     */
    @Test
    void aLaneFullOfSettlesStillTakesAnswersUpToTheirOwnBoundAndRunsAllInOrder() throws Exception {
        PeerSends sends = new PeerSends(0, 2, dropped::incrementAndGet);
        CountDownLatch release = new CountDownLatch(1);
        try {
            holdLane(sends, 1, release);
            AtomicLong ran = new AtomicLong(); // tasks run, each checking it runs in the order it was taken
            int taken = 0;
            for (; taken < PeerSends.LANE_CAPACITY; taken++) {
                long n = taken;
                sends.execute(1, () -> assertEquals(n, ran.getAndIncrement(), "run in order"));
            }
            sends.execute(1, () -> ran.set(Long.MIN_VALUE)); // a settle a full lane drops
            assertEquals(1, dropped.get(), "a settle beyond " + PeerSends.LANE_CAPACITY + " is dropped");
            for (; taken < PeerSends.ANSWER_CAPACITY; taken++) {
                long n = taken;
                sends.answer(1, () -> assertEquals(n, ran.getAndIncrement(), "run in order"));
            }
            assertEquals(1, dropped.get(), "answers are taken up to " + PeerSends.ANSWER_CAPACITY);
            assertEquals(PeerSends.ANSWER_CAPACITY, sends.queued(1));
            sends.answer(1, () -> ran.set(Long.MIN_VALUE));
            assertEquals(2, dropped.get(), "an answer beyond " + PeerSends.ANSWER_CAPACITY + " is dropped");

            release.countDown();
            // Offered only once the lane has room again: right after the release it may still be full, and drop it.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(PATIENCE_SECONDS);
            while (sends.queued(1) >= PeerSends.ANSWER_CAPACITY) {
                assertTrue(System.nanoTime() < deadline, "the lane never took a task again once released");
                Thread.sleep(1);
            }
            CountDownLatch after = new CountDownLatch(1);
            sends.answer(1, after::countDown);
            await(after, "an answer offered once the lane had room");
            assertEquals(taken, ran.get(), "every task the lane took ran, once and in order; none it dropped ran");
            assertEquals(2, dropped.get(), "nothing else dropped (an assertion failing on the lane counts as one)");
            assertEquals(0, sends.queued(1));
        } finally {
            release.countDown();
            sends.close();
        }
    }

    /**
     * A task's exception is counted as a lost send and the lane goes on; so with an Error, which ends the thread the
     * lane borrowed: before, the lane stayed marked as being drained, queued what came until full and then dropped
     * everything, for good, naming the peer as the one that took nothing.
     */
    @Test
    void noExceptionOrErrorOfATaskEndsItsLane() throws Exception {
        PeerSends sends = new PeerSends(0, 2, dropped::incrementAndGet);
        try {
            sends.execute(1, () -> {
                throw new IllegalStateException("a send that failed (thrown on purpose)");
            });
            CountDownLatch afterException = new CountDownLatch(1);
            sends.execute(1, afterException::countDown);
            await(afterException, "the task after one that threw an exception");
            assertEquals(1, dropped.get(), "the failed send is counted");

            sends.execute(1, () -> {
                throw new AssertionError("an Error out of a send (thrown on purpose)");
            });
            CountDownLatch afterError = new CountDownLatch(1);
            sends.execute(1, afterError::countDown);
            await(afterError, "the task after one that threw an Error");
            assertEquals(2, dropped.get(), "the send that threw an Error is counted");
        } finally {
            sends.close();
        }
    }

    @Test
    void aTaskHandedOverAfterCloseIsCountedAndNeverRuns() throws Exception {
        PeerSends sends = new PeerSends(0, 2, dropped::incrementAndGet);
        CountDownLatch ran = new CountDownLatch(1);
        sends.execute(1, () -> { });
        sends.close();
        sends.execute(1, ran::countDown);
        assertEquals(1, dropped.get(), "dropped as a closing machine's message, and counted");
        assertEquals(1, ran.getCount(), "a closed lane runs nothing");
    }

    /**
     * Makes {@code peer}'s lane thread wait in a first task until {@code release}, as in a send to a peer that takes
     * no bytes; returns once it waits there.
     */
    private static void holdLane(PeerSends sends, int peer, CountDownLatch release) {
        CountDownLatch held = new CountDownLatch(1);
        sends.execute(peer, () -> {
            held.countDown();
            await(release, "the test's release");
        });
        await(held, "the lane's first task");
    }

    private static void await(CountDownLatch latch, String what) {
        try {
            if (!latch.await(PATIENCE_SECONDS, TimeUnit.SECONDS)) {
                throw new AssertionError(what + " did not run within " + PATIENCE_SECONDS + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted waiting for " + what, e);
        }
    }
}
