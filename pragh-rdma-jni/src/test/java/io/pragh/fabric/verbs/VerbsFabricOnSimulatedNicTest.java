package io.pragh.fabric.verbs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.fabric.Endpoint;
import io.pragh.fabric.FabricException;
import io.pragh.fabric.MachineMemory;
import io.pragh.fabric.OpBatch;
import io.pragh.fabric.Region;
import io.pragh.memory.ChunkedRegion;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Behaviour of the verbs fabric beyond the shared contract, on the simulated NIC: flow control with unsignalled
 * writes, bounce memory that fills and grows, zero-copy from registered memory, recovery from failed operations and
 * dropped connections, and that closing releases everything it registered or created.
 */
class VerbsFabricOnSimulatedNicTest {
    private static final int CHUNK = 64 * 1024;
    private SimulatedNic nic;
    private VerbsFabric fabric;
    private MachineMemory[] memories;
    private Endpoint[] endpoints;

    @BeforeEach
    void open() {
        SimulatedNicConformanceTest.assumeLibrary();
        nic = new SimulatedNic();
        fabric = new VerbsFabric(SimulatedNicConformanceTest.smallConfig(2), (m, a) -> nic.transport(a));
        memories = new MachineMemory[2];
        endpoints = new Endpoint[2];
        for (int m = 0; m < 2; m++) {
            memories[m] = new MachineMemory(ChunkedRegion.allocate("keys-" + m, 2L * CHUNK, CHUNK),
                ChunkedRegion.allocate("values-" + m, 2L * CHUNK, CHUNK),
                ChunkedRegion.allocate("reclaim-" + m, CHUNK, CHUNK));
            endpoints[m] = fabric.attach(m, memories[m], (from, msg, off, len) -> { });
        }
    }

    @AfterEach
    void close() {
        if (fabric != null) {
            fabric.close();
            for (MachineMemory m : memories) {
                m.keys().close();
                m.values().close();
                m.reclaim().close();
            }
        }
    }

    @Test
    void unsignalledWritesFarBeyondTheQueueDepthAllLand() {
        int writes = 1000; // the test configuration allows 16 outstanding requests per connection
        OpBatch batch = endpoints[0].newBatch(writes);
        UnsafeBuffer src = new UnsafeBuffer(new byte[8 * writes]);
        for (int i = 0; i < writes; i++) {
            src.putLong(8 * i, 1_000_000L + i);
            batch.write(1, Region.VALUES, 8L * i, src, 8 * i, 8, false);
        }
        batch.awaitAll();
        assertEquals(0, batch.poll());
        for (int i = 0; i < writes; i++) {
            assertEquals(1_000_000L + i, memories[1].values().getLongVolatile(8L * i), "write " + i);
            assertTrue(batch.isDone(i));
        }
    }

    @Test
    void readsLargerThanTheBounceMemoryGrowItAndArriveIntact() {
        UnsafeBuffer dst = new UnsafeBuffer(new byte[CHUNK]); // the test configuration starts with 8 KiB of bounce
        for (int i = 0; i < CHUNK; i += 8) {
            memories[1].values().putLong(CHUNK + i, i * 7L + 1);
        }
        endpoints[0].read(1, Region.VALUES, CHUNK, dst, 0, CHUNK);
        for (int i = 0; i < CHUNK; i += 8) {
            assertEquals(i * 7L + 1, dst.getLong(i), "offset " + i);
        }
    }

    @Test
    void manyBouncedReadsInOneBatchRecycleTheBounceMemory() {
        int reads = 64; // 64 x 1 KiB through 8 KiB of bounce memory
        OpBatch batch = endpoints[0].newBatch(reads);
        UnsafeBuffer[] dsts = new UnsafeBuffer[reads];
        for (int i = 0; i < reads; i++) {
            memories[1].keys().putLong(1024L * i, i + 100L);
            dsts[i] = new UnsafeBuffer(new byte[1024]);
            batch.read(1, Region.KEYS, 1024L * i, dsts[i], 0, 1024);
        }
        batch.awaitAll();
        for (int i = 0; i < reads; i++) {
            assertEquals(i + 100L, dsts[i].getLong(0), "read " + i);
        }
    }

    @Test
    void buffersInRegisteredMemoryAreUsedWithoutBounce() {
        Lane lane = ((VerbsEndpoint) endpoints[0]).lane();
        memories[1].values().putLong(0, 77);
        UnsafeBuffer registered = memories[0].values().chunk(1); // this machine's own registered chunk
        endpoints[0].read(1, Region.VALUES, 0, registered, 16, 8);
        assertEquals(77, registered.getLong(16));
        assertTrue(lane.arena().isEmpty(), "a read into registered memory needs no bounce");
        endpoints[0].read(1, Region.VALUES, 0, new UnsafeBuffer(new byte[8]), 0, 8);
        assertFalse(lane.arena().isEmpty(), "a read into heap memory is bounced");
    }

    @Test
    void aRequestTheNicRefusesFailsItsBatchWithoutRetryAndTheNextOneWorks() {
        VerbsEndpoint ep = (VerbsEndpoint) endpoints[0];
        VerbsOpBatch bad = (VerbsOpBatch) ep.newBatch(2);
        bad.compareAndSwapRaw(1, 0x1000, 0xbad, 0, 1); // no such rkey: remote access error
        FabricException e = assertThrows(FabricException.class, bad::awaitAll);
        assertFalse(e.retryable(), e.getMessage());
        assertThrows(IllegalStateException.class, () -> bad.casResult(0), "a failed CAS witnessed nothing");
        bad.clear();
        memories[1].keys().putLongVolatile(64, 5);
        assertEquals(5, ep.compareAndSwap(1, Region.KEYS, 64, 5, 6), "the lane reconnected after the error");
        assertEquals(6, memories[1].keys().getLongVolatile(64));
    }

    @Test
    void droppedConnectionsFailInFlightWorkRetryablyAndReconnectOnNextUse() throws Exception {
        memories[1].keys().putLongVolatile(0, 1);
        assertEquals(1, endpoints[0].compareAndSwap(1, Region.KEYS, 0, 1, 2));
        nic.breakAllConnections();
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (endpoints[0].isReachable(1) && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertFalse(endpoints[0].isReachable(1), "a dropped message connection makes the peer unreachable");
        long seen;
        try {
            seen = endpoints[0].compareAndSwap(1, Region.KEYS, 0, 2, 3);
        } catch (FabricException e) {
            // The lane's own connection may not have heard of the cut yet (its DISCONNECTED comes on the NIC's
            // thread): then this CAS is posted on the dead queue pair and flushed unexecuted, as on a real NIC.
            assertTrue(e.retryable(), e.getMessage());
            seen = endpoints[0].compareAndSwap(1, Region.KEYS, 0, 2, 3);
        }
        assertEquals(2, seen, "the next operation reconnects");
        assertEquals(3, memories[1].keys().getLongVolatile(0));
        UnsafeBuffer msg = new UnsafeBuffer(new byte[4]);
        endpoints[0].send(1, msg, 0, 4);
        assertTrue(endpoints[0].isReachable(1));
    }

    @Test
    void aBatchBelongsToTheThreadThatCreatedIt() throws Exception {
        OpBatch batch = endpoints[0].newBatch(4);
        CompletableFuture<Throwable> other = CompletableFuture.supplyAsync(() -> {
            try {
                batch.compareAndSwap(1, Region.KEYS, 0, 0, 1);
                return null;
            } catch (Throwable t) {
                return t;
            }
        });
        Throwable t = other.get();
        assertTrue(t instanceof IllegalStateException && t.getMessage().contains("belongs to the thread"),
            String.valueOf(t));
    }

    @Test
    void messagesLargerThanTheConfiguredLimitAreRefused() {
        UnsafeBuffer big = new UnsafeBuffer(new byte[2048]); // the test configuration carries 1 KiB messages
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> endpoints[0].send(1, big, 0, 2048));
        assertTrue(e.getMessage().contains("at most 1023 bytes"), e.getMessage());
    }

    @Test
    void attachingTwiceOrOutsideTheFabricIsRefused() {
        assertThrows(IllegalStateException.class, () -> fabric.attach(1, memories[1], (f, m, o, l) -> { }));
        assertThrows(IllegalArgumentException.class, () -> fabric.attach(2, memories[1], (f, m, o, l) -> { }));
        assertEquals("verbs", fabric.name());
    }

    @Test
    void closingReleasesEveryRegistrationQueuePairAndCompletionQueue() throws ExecutionException,
        InterruptedException {
        CompletableFuture.runAsync(() -> endpoints[1].compareAndSwap(0, Region.KEYS, 0, 0, 1)).get(); // another lane
        endpoints[0].read(1, Region.VALUES, 0, new UnsafeBuffer(new byte[8]), 0, 8);
        endpoints[0].send(1, new UnsafeBuffer(new byte[8]), 0, 8);
        assertTrue(nic.liveRegistrations() > 0 && nic.liveQueuePairs() > 0 && nic.liveCompletionQueues() > 0);
        fabric.close();
        assertEquals(0, nic.liveRegistrations(), "registrations left after close");
        assertEquals(0, nic.liveQueuePairs(), "queue pairs left after close");
        assertEquals(0, nic.liveCompletionQueues(), "completion queues left after close");
        assertThrows(FabricException.class, () -> endpoints[0].compareAndSwap(1, Region.KEYS, 0, 0, 1));
    }

    @Test
    void aByteArraySourceIsCopiedBeforePostingSoTheCallerMayReuseIt() {
        UnsafeBuffer src = new UnsafeBuffer(new byte[16]);
        src.putLong(0, 11);
        OpBatch batch = endpoints[0].newBatch(2);
        batch.write(1, Region.RECLAIM, 0, src, 0, 8, true);
        batch.post();
        src.putLong(0, 99); // after post, as a migrator reusing its buffer would
        batch.awaitAll();
        assertEquals(11, memories[1].reclaim().getLongVolatile(0));
        byte[] expected = new byte[8];
        new UnsafeBuffer(expected).putLong(0, 11);
        byte[] seen = new byte[8];
        memories[1].reclaim().chunk(0).getBytes(0, seen);
        assertArrayEquals(expected, seen);
    }
}
