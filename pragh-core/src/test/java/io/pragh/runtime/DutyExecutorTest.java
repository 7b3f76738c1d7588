package io.pragh.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A duty's threads say their duty, and a close returns only once they have ended. */
class DutyExecutorTest {
    @Test
    void threadsAreNamedForTheirDuty() throws Exception {
        try (DutyExecutor single = DutyExecutor.single("m3-coordinator");
             DutyExecutor pool = DutyExecutor.pool("fault-wire")) {
            CompletableFuture<String> one = new CompletableFuture<>();
            single.execute(() -> one.complete(Thread.currentThread().getName()));
            assertEquals("pragh-m3-coordinator", one.get(60, TimeUnit.SECONDS));
            CompletableFuture<String> two = CompletableFuture.supplyAsync(() -> Thread.currentThread().getName(), pool);
            assertTrue(two.get(60, TimeUnit.SECONDS).startsWith("pragh-fault-wire-"), two.get());
            CompletableFuture<Boolean> daemon = new CompletableFuture<>();
            single.execute(() -> daemon.complete(Thread.currentThread().isDaemon()));
            assertTrue(daemon.get(60, TimeUnit.SECONDS), "a duty never keeps the JVM up");
        }
    }

    @Test
    void closeInterruptsTheRunningTaskAndReturnsOnceItsThreadEnded() throws Exception {
        DutyExecutor d = DutyExecutor.single("m0-recovery");
        List<Thread> ran = new CopyOnWriteArrayList<>();
        CountDownLatch started = new CountDownLatch(1);
        d.execute(() -> {
            ran.add(Thread.currentThread());
            started.countDown();
            try {
                Thread.sleep(TimeUnit.MINUTES.toMillis(5));
            } catch (InterruptedException e) {
                // a close: end
            }
        });
        assertTrue(started.await(60, TimeUnit.SECONDS));
        d.close();
        assertFalse(ran.get(0).isAlive(), "the close waited for the thread itself, not only for termination");
        assertThrows(RejectedExecutionException.class, () -> d.execute(() -> { }), "closed: takes no new task");
    }

    @Test
    void aShutdownRunsWhatWasHandedOverToItsEnd() throws Exception {
        DutyExecutor d = DutyExecutor.single("m1-coordinator");
        List<Integer> done = new CopyOnWriteArrayList<>();
        for (int i = 0; i < 3; i++) {
            int n = i;
            d.execute(() -> done.add(n));
        }
        d.shutdown();
        assertTrue(d.awaitEnded(TimeUnit.SECONDS.toMillis(30)));
        assertEquals(List.of(0, 1, 2), done, "in order, none dropped");
    }

    @Test
    void aCloseFromItsOwnThreadDoesNotWaitForItself() throws Exception {
        DutyExecutor d = DutyExecutor.single("m2-coordinator");
        CompletableFuture<Boolean> ended = new CompletableFuture<>();
        d.execute(() -> {
            d.close();
            ended.complete(d.awaitEnded(TimeUnit.MINUTES.toMillis(5)));
        });
        assertFalse(ended.get(30, TimeUnit.SECONDS), "its own thread cannot have ended: says so at once");
        assertTrue(d.awaitEnded(TimeUnit.SECONDS.toMillis(30)), "and ends right after");
    }

    @Test
    void onlyASingleThreadDutySchedulesAndItsDelayedTaskRuns() throws Exception {
        try (DutyExecutor single = DutyExecutor.single("m0-coordinator");
             DutyExecutor pool = DutyExecutor.pool("fault-wire")) {
            CountDownLatch ran = new CountDownLatch(1);
            single.schedule(ran::countDown, 1, TimeUnit.MILLISECONDS);
            assertTrue(ran.await(60, TimeUnit.SECONDS));
            IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> pool.schedule(() -> { }, 1, TimeUnit.MILLISECONDS));
            assertTrue(e.getMessage().contains("pragh-fault-wire"), e.getMessage());
        }
    }
}
