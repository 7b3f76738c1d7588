package io.pragh.fabric.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.fabric.Endpoint;
import io.pragh.fabric.FabricException;
import io.pragh.fabric.MachineMemory;
import io.pragh.fabric.MessageHandler;
import io.pragh.fabric.Region;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What the store must assume of a one-sided CAS on this fabric: one its issuer was told failed (no answer within the
 * request timeout, connection closed) may still take effect afterwards, whenever its host gets to the frame, and
 * nothing bounds how much later: the frame names no issue time and no epoch. Here the host's connection is paused
 * behind a full message inbox (its delivery thread held), as a slow handler or a stalled event loop leaves it.
 *
 * <p>This is why a value-region slot keeps its size class for good (docs/design.md, "Fragmentation, a known limit,
 * and why a free chunk is not re-carved"): a late CAS of a record's header must land on a header, where the
 * generation check refuses it, never inside the payload of a record carved later over the same memory.
 */
@Timeout(180)
class AbandonedCasTest {
    private static final MessageHandler IGNORE = (from, msg, off, len) -> { };
    private static final long WORD = 64;
    private static final Duration PATIENT = Duration.ofSeconds(30);

    @Test
    void aCasItsIssuerWasToldFailedStillTakesEffectWhenItsHostReadsIt() throws Exception {
        // Only the request timeout is short (the CAS must be given up on soon); connecting is patient, as a loaded
        // host was seen to leave a thread unscheduled for seconds.
        TcpFabricOptions options = TcpFabricOptions.defaults().withRequestTimeout(Duration.ofSeconds(1))
            .withConnectTimeout(PATIENT).withHandshakeTimeout(PATIENT).withInboxBytes(4096);
        MachineMemory[] memories = TestMemory.allocate(2);
        CountDownLatch delivering = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        MessageHandler held = (from, msg, off, len) -> {
            delivering.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
        try (LoopbackCluster cluster = LoopbackCluster.start(2, LoopbackCluster.SECRET, options)) {
            Endpoint[] eps = cluster.attach(memories, new MessageHandler[] {held, IGNORE});
            memories[0].values().putLongVolatile(WORD, 7);
            UnsafeBuffer word = new UnsafeBuffer(new byte[8]);
            long deadline = System.nanoTime() + PATIENT.toNanos();
            while (true) {
                try {
                    eps[1].read(0, Region.VALUES, WORD, word, 0, 8);
                    break;
                } catch (FabricException slowToAnswer) {
                    assertTrue(System.nanoTime() < deadline, "machine 0 never answered a READ: " + slowToAnswer);
                }
            }
            assertEquals(7, word.getLong(0), "the connection from machine 1 to 0 is up");

            // Machine 0's delivery thread holds the first message; the next ones fill its inbox, so its connection
            // from machine 1 stops reading.
            int size = eps[1].maxMessageBytes();
            UnsafeBuffer message = new UnsafeBuffer(new byte[size]);
            eps[1].send(0, message, 0, size);
            assertTrue(delivering.await(PATIENT.toSeconds(), TimeUnit.SECONDS),
                "machine 0 is delivering the first message");
            int ringCapacity = 4096 / size + 2;
            for (int i = 0; i < 2 * ringCapacity; i++) {
                eps[1].send(0, message, 0, size);
            }
            deadline = System.nanoTime() + PATIENT.toNanos();
            while (cluster.fabrics[0].inbox().stalls() == 0) {
                assertTrue(System.nanoTime() < deadline, "machine 0's inbox never filled");
                Thread.sleep(1);
            }

            FabricException failed = assertThrows(FabricException.class,
                () -> eps[1].compareAndSwap(0, Region.VALUES, WORD, 7, 9));
            assertTrue(failed.retryable(), failed.getMessage());
            assertEquals(7, memories[0].values().getLongVolatile(WORD), "not applied when its issuer gave up");

            release.countDown();
            deadline = System.nanoTime() + PATIENT.toNanos();
            while (memories[0].values().getLongVolatile(WORD) != 9) {
                assertTrue(System.nanoTime() < deadline, "the abandoned CAS was never applied (a fabric that drops"
                    + " the frames of a connection its issuer closed would make this test, and the design note it"
                    + " backs, out of date)");
                Thread.sleep(1);
            }
        } finally {
            release.countDown();
            TestMemory.free(memories);
        }
    }
}
