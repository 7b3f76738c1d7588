package io.pragh.fabric.tcp;

import static org.junit.jupiter.api.Assertions.assertNull;
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
 * A thread that opens a peer's connection may have been interrupted (Gremlin Server interrupts a traversal's worker
 * at its evaluation timeout, and the worker's next store operation may be the one that connects). The interrupt is
 * the caller's business, not the peer's failure: the connection is made all the same and the interrupt kept. Failed
 * as "interrupted while connecting", it put the link into its reconnect back-off, and every other thread's operation
 * on the peer failed at once until the back-off ran out: a durable home's ACK to that peer among them, lost for good
 * (its origin waits out its whole timeout). Fails without the fix: the interrupted send is refused, and the send
 * after it, from a thread nobody interrupted, is refused by the back-off ("next attempt in").
 */
@Timeout(60)
class AnInterruptedCallerCutsNobodyOffAPeerTest {
    /** A back-off that outlasts the test, so that a failure recorded against the peer shows in the next send. */
    private static final TcpFabricOptions OPTIONS = TcpFabricOptions.defaults()
        .withConnectTimeout(Duration.ofSeconds(30)).withHandshakeTimeout(Duration.ofSeconds(30))
        .withRequestTimeout(Duration.ofSeconds(30)).withReconnectBackoff(Duration.ofSeconds(60));

    @Test
    void aSendThatConnectsFromAnInterruptedThreadReachesThePeerAndLeavesTheLinkUsable() throws Exception {
        MachineMemory[] memories = TestMemory.allocate(2);
        LoopbackCluster cluster = LoopbackCluster.start(2, LoopbackCluster.SECRET, OPTIONS);
        try {
            CountDownLatch delivered = new CountDownLatch(2);
            MessageHandler count = (from, msg, off, len) -> delivered.countDown();
            Endpoint[] eps = cluster.attach(memories, new MessageHandler[] {count, count});
            UnsafeBuffer b = new UnsafeBuffer(new byte[8]);
            FabricException interruptedSend = null;
            Thread.currentThread().interrupt();
            try {
                eps[0].send(1, b, 0, 8); // the first operation on the link: it connects
            } catch (FabricException e) {
                interruptedSend = e;
            } finally {
                assertTrue(Thread.interrupted(), "the caller's interrupt is kept"); // and cleared for what follows
            }
            FabricException nextSend = null;
            try {
                eps[0].send(1, b, 0, 8);
            } catch (FabricException e) {
                nextSend = e;
            }
            assertNull(nextSend, "a send from a thread nobody interrupted, after the interrupted one");
            assertNull(interruptedSend, "the interrupted send");
            assertTrue(delivered.await(30, TimeUnit.SECONDS), "both messages reached machine 1");
            eps[0].read(1, Region.KEYS, 0, b, 0, 8);
        } finally {
            cluster.close();
            TestMemory.free(memories);
        }
    }
}
