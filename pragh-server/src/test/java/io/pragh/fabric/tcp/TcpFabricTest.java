package io.pragh.fabric.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.LimitExceededException;
import io.pragh.fabric.Endpoint;
import io.pragh.fabric.FabricException;
import io.pragh.fabric.FabricStats;
import io.pragh.fabric.MachineMemory;
import io.pragh.fabric.MessageHandler;
import io.pragh.fabric.OpBatch;
import io.pragh.fabric.Region;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Behaviour of the TCP fabric beyond the shared contract: its limits, its message flow control, its lifecycle. */
@Timeout(60)
class TcpFabricTest {
    private static final MessageHandler IGNORE = (from, msg, off, len) -> { };

    private static void awaitSize(List<?> list, int size) throws InterruptedException {
        for (int i = 0; i < 3000 && list.size() < size; i++) {
            Thread.sleep(10);
        }
    }

    @Test
    void aBatchOfUnsignalledWritesCompletesAndLands() {
        MachineMemory[] memories = TestMemory.allocate(2);
        try (LoopbackCluster cluster = LoopbackCluster.start(2, LoopbackCluster.SECRET, TcpFabricOptions.defaults())) {
            Endpoint[] eps = cluster.attach(memories, new MessageHandler[] {IGNORE, IGNORE});
            OpBatch batch = eps[0].newBatch(64);
            UnsafeBuffer[] sources = new UnsafeBuffer[64];
            for (int i = 0; i < 64; i++) {
                sources[i] = new UnsafeBuffer(new byte[8]);
                sources[i].putLong(0, 1000 + i);
                batch.write(1, Region.RECLAIM, 8L * i, sources[i], 0, 8, false);
            }
            batch.awaitAll();
            assertEquals(0, batch.poll());
            for (int i = 0; i < 64; i++) {
                assertTrue(batch.isDone(i));
                assertEquals(1000 + i, memories[1].reclaim().getLongVolatile(8L * i));
            }
            FabricStats.Snapshot s = eps[0].stats().snapshot();
            assertEquals(64, s.remoteWrites());
            assertEquals(512, s.remoteWriteBytes());
        } finally {
            TestMemory.free(memories);
        }
    }

    @Test
    void aLargeBatchOfReadsIsPipelinedToSeveralPeers() {
        MachineMemory[] memories = TestMemory.allocate(3);
        try (LoopbackCluster cluster = LoopbackCluster.start(3, LoopbackCluster.SECRET, TcpFabricOptions.defaults())) {
            Endpoint[] eps = cluster.attach(memories, new MessageHandler[] {IGNORE, IGNORE, IGNORE});
            for (int m = 1; m < 3; m++) {
                for (int i = 0; i < 512; i++) {
                    memories[m].values().putLong(8L * i, m * 100_000L + i);
                }
            }
            OpBatch batch = eps[0].newBatch(1024);
            UnsafeBuffer dst = new UnsafeBuffer(new byte[8 * 1024]);
            for (int i = 0; i < 1024; i++) {
                batch.read(1 + (i & 1), Region.VALUES, 8L * (i >> 1), dst, 8 * i, 8);
            }
            batch.awaitAll();
            for (int i = 0; i < 1024; i++) {
                assertEquals((1 + (i & 1)) * 100_000L + (i >> 1), dst.getLong(8 * i));
            }
        } finally {
            TestMemory.free(memories);
        }
    }

    @Test
    void operationsAndMessagesOverTheLimitsAreRefusedBeforeAnythingIsSent() {
        MachineMemory[] memories = TestMemory.allocate(2);
        TcpFabricOptions options = TcpFabricOptions.defaults().withMaxPayloadBytes(1024).withInboxBytes(4096);
        try (LoopbackCluster cluster = LoopbackCluster.start(2, LoopbackCluster.SECRET, options)) {
            Endpoint[] eps = cluster.attach(memories, new MessageHandler[] {IGNORE, IGNORE});
            UnsafeBuffer big = new UnsafeBuffer(new byte[4096]);
            LimitExceededException read = assertThrows(LimitExceededException.class,
                () -> eps[0].read(1, Region.VALUES, 0, big, 0, 2048));
            assertTrue(read.getMessage().contains("READ of 2048 bytes exceeds the TCP fabric's 1024-byte limit"),
                read.getMessage());
            LimitExceededException message = assertThrows(LimitExceededException.class,
                () -> eps[0].send(1, big, 0, 513));
            assertTrue(message.getMessage().contains("0..512-byte message limit"), message.getMessage());
            assertEquals(0, eps[0].stats().snapshot().remoteOps() + eps[0].stats().snapshot().messages());
        } finally {
            TestMemory.free(memories);
        }
    }

    @Test
    void aSlowHandlerPushesBackOnSendersAndNoMessageIsLostOrReordered() throws Exception {
        MachineMemory[] memories = TestMemory.allocate(2);
        // A 4 KiB inbox holds about twenty of these messages, so the sender outruns the handler many times over.
        TcpFabricOptions options = TcpFabricOptions.defaults().withInboxBytes(4096);
        List<Integer> received = new CopyOnWriteArrayList<>();
        MessageHandler slow = (from, msg, off, len) -> {
            received.add(msg.getInt(off));
            if (received.size() % 50 == 0) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
            }
        };
        int count = 3000;
        try (LoopbackCluster cluster = LoopbackCluster.start(2, LoopbackCluster.SECRET, options)) {
            Endpoint[] eps = cluster.attach(memories, new MessageHandler[] {IGNORE, slow});
            UnsafeBuffer msg = new UnsafeBuffer(new byte[200]);
            for (int i = 0; i < count; i++) {
                msg.putInt(0, i);
                eps[0].send(1, msg, 0, 200);
            }
            awaitSize(received, count);
            assertEquals(count, received.size());
            assertTrue(cluster.fabrics[1].inbox().stalls() > 0, "the inbox filled up and reading paused");
            for (int i = 0; i < count; i++) {
                assertEquals(i, received.get(i));
            }
            FabricStats.Snapshot s = eps[0].stats().snapshot();
            assertEquals(count, s.messages());
            assertEquals(200L * count, s.messageBytes());
        } finally {
            TestMemory.free(memories);
        }
    }

    @Test
    void anEmptyMessageIsDeliveredWithItsSender() throws Exception {
        MachineMemory[] memories = TestMemory.allocate(2);
        List<int[]> received = new CopyOnWriteArrayList<>();
        MessageHandler record = (from, msg, off, len) -> received.add(new int[] {from, len});
        try (LoopbackCluster cluster = LoopbackCluster.start(2, LoopbackCluster.SECRET, TcpFabricOptions.defaults())) {
            Endpoint[] eps = cluster.attach(memories, new MessageHandler[] {IGNORE, record});
            eps[0].send(1, new UnsafeBuffer(new byte[0]), 0, 0);
            awaitSize(received, 1);
            assertEquals(1, received.size());
            assertEquals(0, received.get(0)[0], "sender");
            assertEquals(0, received.get(0)[1], "length");
        } finally {
            TestMemory.free(memories);
        }
    }

    @Test
    void aHandlerThatThrowsDoesNotStopDelivery() throws Exception {
        MachineMemory[] memories = TestMemory.allocate(2);
        List<Integer> received = new CopyOnWriteArrayList<>();
        MessageHandler flaky = (from, msg, off, len) -> {
            int v = msg.getInt(off);
            if (v == 3) {
                throw new IllegalStateException("handler bug on message 3");
            }
            received.add(v);
        };
        try (LoopbackCluster cluster = LoopbackCluster.start(2, LoopbackCluster.SECRET, TcpFabricOptions.defaults())) {
            Endpoint[] eps = cluster.attach(memories, new MessageHandler[] {IGNORE, flaky});
            UnsafeBuffer msg = new UnsafeBuffer(new byte[4]);
            for (int i = 0; i < 6; i++) {
                msg.putInt(0, i);
                eps[0].send(1, msg, 0, 4);
            }
            awaitSize(received, 5);
            assertEquals(List.of(0, 1, 2, 4, 5), received);
        } finally {
            TestMemory.free(memories);
        }
    }

    @Test
    void requestsToAMachineThatHasNotAttachedYetFailRetryably() {
        MachineMemory memory = TestMemory.allocateOne(0);
        try (LoopbackCluster cluster = LoopbackCluster.start(2, LoopbackCluster.SECRET, TcpFabricOptions.defaults())) {
            Endpoint ep = cluster.fabrics[0].attach(0, memory, IGNORE);
            UnsafeBuffer b = new UnsafeBuffer(new byte[8]);
            FabricException e = assertThrows(FabricException.class, () -> ep.read(1, Region.KEYS, 0, b, 0, 8));
            assertTrue(e.retryable());
            assertTrue(e.getMessage().contains("machine 1 has not attached its memory yet"), e.getMessage());
        } finally {
            TestMemory.free(memory);
        }
    }

    @Test
    void aFabricAttachesOnlyItsOwnMachineAndOnlyOnce() {
        MachineMemory[] memories = TestMemory.allocate(2);
        try (LoopbackCluster cluster = LoopbackCluster.start(2, LoopbackCluster.SECRET, TcpFabricOptions.defaults())) {
            IllegalArgumentException other = assertThrows(IllegalArgumentException.class,
                () -> cluster.fabrics[0].attach(1, memories[1], IGNORE));
            assertTrue(other.getMessage().contains("belongs to machine 0"), other.getMessage());
            cluster.fabrics[0].attach(0, memories[0], IGNORE);
            assertThrows(IllegalStateException.class, () -> cluster.fabrics[0].attach(0, memories[0], IGNORE));
        } finally {
            TestMemory.free(memories);
        }
    }

    @Test
    void aPortAlreadyInUseIsAClearNonRetryableError() {
        try (LoopbackCluster cluster = LoopbackCluster.start(1, LoopbackCluster.SECRET, TcpFabricOptions.defaults())) {
            FabricException e = assertThrows(FabricException.class,
                () -> new TcpFabric(0, List.of(cluster.fabrics[0].localAddress()), LoopbackCluster.SECRET));
            assertFalse(e.retryable());
            assertTrue(e.getMessage().contains("cannot listen on"), e.getMessage());
        }
    }

    @Test
    void aMachineHoldingTheWrongSecretIsRefusedWithANonRetryableError() {
        MachineMemory[] memories = TestMemory.allocate(2);
        try (LoopbackCluster cluster = LoopbackCluster.start(2, LoopbackCluster.SECRET, TcpFabricOptions.defaults());
             TcpFabric stranger = new TcpFabric(0, List.of(LoopbackCluster.loopback(0),
                 cluster.fabrics[1].localAddress()), ClusterSecret.fromString("some-other-cluster-secret"))) {
            Endpoint[] eps = cluster.attach(memories, new MessageHandler[] {IGNORE, IGNORE});
            MachineMemory mine = TestMemory.allocateOne(9);
            try {
                Endpoint ep = stranger.attach(0, mine, IGNORE);
                UnsafeBuffer b = new UnsafeBuffer(new byte[8]);
                FabricException e = assertThrows(FabricException.class, () -> ep.read(1, Region.KEYS, 0, b, 0, 8));
                assertFalse(e.retryable(), e.getMessage());
                assertTrue(e.getMessage().contains("refused this machine's connection: refused: authentication failed"),
                    e.getMessage());
                assertFalse(ep.isReachable(1));
            } finally {
                TestMemory.free(mine);
            }
            memories[1].keys().putLongVolatile(0, 99);
            UnsafeBuffer b = new UnsafeBuffer(new byte[8]);
            eps[0].read(1, Region.KEYS, 0, b, 0, 8);
            assertEquals(99, b.getLong(0), "members of the cluster are still served");
        } finally {
            TestMemory.free(memories);
        }
    }
}
