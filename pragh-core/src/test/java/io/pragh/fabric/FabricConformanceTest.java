package io.pragh.fabric;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.memory.ChunkedRegion;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The contract of the Fabric SPI. Every fabric (in-process, TCP, verbs) extends this class and provides
 * {@link #open}; the tests then run unchanged against it. Three machines, small two-chunk regions, so that chunk
 * boundaries and every region are exercised.
 */
public abstract class FabricConformanceTest {
    protected static final int MACHINES = 3;
    protected static final int CHUNK = 4096;
    protected static final long REGION_BYTES = 2L * CHUNK;

    /** A fabric with every machine attached; closing it closes the fabric(s). */
    public interface FabricCluster extends AutoCloseable {
        Endpoint endpoint(int machine);

        @Override
        void close();
    }

    /** Attaches {@code memories.length} machines with the given handlers and returns their endpoints. */
    protected abstract FabricCluster open(MachineMemory[] memories, MessageHandler[] handlers) throws Exception;

    protected record Received(int from, byte[] bytes) {
    }

    protected MachineMemory[] memories;
    protected List<List<Received>> inboxes;
    protected FabricCluster cluster;

    @BeforeEach
    void openCluster() throws Exception {
        memories = new MachineMemory[MACHINES];
        inboxes = new ArrayList<>();
        MessageHandler[] handlers = new MessageHandler[MACHINES];
        for (int m = 0; m < MACHINES; m++) {
            memories[m] = new MachineMemory(
                ChunkedRegion.allocate("keys-" + m, REGION_BYTES, CHUNK),
                ChunkedRegion.allocate("values-" + m, REGION_BYTES, CHUNK),
                ChunkedRegion.allocate("reclaim-" + m, REGION_BYTES, CHUNK));
            List<Received> inbox = new CopyOnWriteArrayList<>();
            inboxes.add(inbox);
            handlers[m] = (from, msg, off, len) -> {
                byte[] copy = new byte[len];
                msg.getBytes(off, copy);
                inbox.add(new Received(from, copy));
            };
        }
        cluster = open(memories, handlers);
    }

    @AfterEach
    void closeCluster() {
        if (cluster != null) {
            cluster.close();
        }
        for (MachineMemory m : memories) {
            m.keys().close();
            m.values().close();
            m.reclaim().close();
        }
    }

    private static UnsafeBuffer buffer(int size) {
        return new UnsafeBuffer(new byte[size]);
    }

    @Test
    void readReturnsWhatThePeerHoldsInEveryRegion() {
        for (Region r : Region.values()) {
            memories[1].region(r).putLongVolatile(CHUNK + 64, 0x1122334455667788L ^ r.ordinal());
            UnsafeBuffer dst = buffer(16);
            cluster.endpoint(0).read(1, r, CHUNK + 64, dst, 8, 8);
            assertEquals(0x1122334455667788L ^ r.ordinal(), dst.getLong(8), "region " + r);
        }
    }

    @Test
    void writeLandsInThePeersMemory() {
        UnsafeBuffer src = buffer(32);
        for (int i = 0; i < 32; i++) {
            src.putByte(i, (byte) (i + 1));
        }
        cluster.endpoint(2).write(0, Region.VALUES, 128, src, 0, 32);
        byte[] seen = new byte[32];
        memories[0].values().chunk(0).getBytes(128, seen);
        byte[] want = new byte[32];
        src.getBytes(0, want);
        assertArrayEquals(want, seen);
    }

    @Test
    void largeReadAndWriteSpanAWholeChunk() {
        UnsafeBuffer src = buffer(CHUNK);
        for (int i = 0; i < CHUNK; i += 8) {
            src.putLong(i, i * 31L + 7);
        }
        cluster.endpoint(0).write(1, Region.VALUES, CHUNK, src, 0, CHUNK);
        UnsafeBuffer dst = buffer(CHUNK);
        cluster.endpoint(2).read(1, Region.VALUES, CHUNK, dst, 0, CHUNK);
        for (int i = 0; i < CHUNK; i += 8) {
            assertEquals(i * 31L + 7, dst.getLong(i));
        }
    }

    @Test
    void casSwapsOnlyWhenExpectedMatchesAndReturnsTheWitness() {
        Endpoint ep = cluster.endpoint(0);
        memories[1].keys().putLongVolatile(256, 5);
        assertEquals(5, ep.compareAndSwap(1, Region.KEYS, 256, 5, 9), "successful CAS returns the expected value");
        assertEquals(9, memories[1].keys().getLongVolatile(256));
        assertEquals(9, ep.compareAndSwap(1, Region.KEYS, 256, 5, 11), "failed CAS returns what it saw");
        assertEquals(9, memories[1].keys().getLongVolatile(256), "failed CAS changes nothing");
        assertEquals(9, ep.compareAndSwap(1, Region.KEYS, 256, 9, Long.MIN_VALUE), "negative words CAS too");
        assertEquals(Long.MIN_VALUE, memories[1].keys().getLongVolatile(256));
    }

    @Test
    void concurrentCasIncrementsFromTwoMachinesLoseNothing() throws Exception {
        int threadsPerMachine = 2;
        int increments = 300;
        List<Thread> threads = new ArrayList<>();
        AtomicReference<Throwable> error = new AtomicReference<>();
        for (int m : new int[] {0, 2}) {
            for (int t = 0; t < threadsPerMachine; t++) {
                Endpoint ep = cluster.endpoint(m);
                threads.add(new Thread(() -> {
                    try {
                        for (int i = 0; i < increments; i++) {
                            long seen = 0;
                            while (true) {
                                long witness = ep.compareAndSwap(1, Region.KEYS, 512, seen, seen + 1);
                                if (witness == seen) {
                                    break;
                                }
                                seen = witness;
                            }
                        }
                    } catch (Throwable e) {
                        error.compareAndSet(null, e);
                    }
                }));
            }
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join(TimeUnit.SECONDS.toMillis(60));
        }
        if (error.get() != null) {
            throw new AssertionError(error.get());
        }
        assertEquals((long) threads.size() * increments, memories[1].keys().getLongVolatile(512));
    }

    @Test
    void casIsAtomicWithLocalCasOnTheSameWord() throws Exception {
        int rounds = 500;
        ChunkedRegion keys = memories[1].keys();
        Thread local = new Thread(() -> {
            for (int i = 0; i < rounds; i++) {
                while (true) {
                    long v = keys.getLongVolatile(1024);
                    if (keys.compareAndSetLong(1024, v, v + 1)) {
                        break;
                    }
                }
            }
        });
        local.start();
        Endpoint ep = cluster.endpoint(0);
        for (int i = 0; i < rounds; i++) {
            long seen = keys.getLongVolatile(1024);
            while (true) {
                long witness = ep.compareAndSwap(1, Region.KEYS, 1024, seen, seen + 1);
                if (witness == seen) {
                    break;
                }
                seen = witness;
            }
        }
        local.join();
        assertEquals(2L * rounds, keys.getLongVolatile(1024));
    }

    @Test
    void batchCompletesMixedOperationsAndReportsCasResults() {
        Endpoint ep = cluster.endpoint(0);
        memories[1].keys().putLongVolatile(8, 100);
        memories[2].keys().putLongVolatile(16, 200);
        memories[2].values().putLongVolatile(CHUNK + 8, 77);
        OpBatch batch = ep.newBatch(8);
        UnsafeBuffer dst = buffer(8);
        UnsafeBuffer src = buffer(8);
        src.putLong(0, 4242);
        int win = batch.compareAndSwap(1, Region.KEYS, 8, 100, 101);
        int lose = batch.compareAndSwap(2, Region.KEYS, 16, 999, 1);
        int read = batch.read(2, Region.VALUES, CHUNK + 8, dst, 0, 8);
        batch.write(1, Region.RECLAIM, 0, src, 0, 8, false);
        int signalled = batch.write(2, Region.RECLAIM, 8, src, 0, 8, true);
        assertEquals(5, batch.size());
        batch.post();
        batch.awaitAll();
        assertEquals(0, batch.poll());
        assertTrue(batch.isDone(read) && batch.isDone(signalled));
        assertEquals(100, batch.casResult(win));
        assertEquals(200, batch.casResult(lose));
        assertEquals(77, dst.getLong(0));
        assertEquals(101, memories[1].keys().getLongVolatile(8));
        assertEquals(200, memories[2].keys().getLongVolatile(16));
        assertEquals(4242, memories[1].reclaim().getLongVolatile(0));
        assertEquals(4242, memories[2].reclaim().getLongVolatile(8));
        batch.clear();
        assertEquals(0, batch.size());
        int again = batch.compareAndSwap(1, Region.KEYS, 8, 101, 102);
        batch.awaitAll();
        assertEquals(101, batch.casResult(again), "a cleared batch is reusable");
    }

    @Test
    void batchBeyondCapacityIsRefused() {
        OpBatch batch = cluster.endpoint(0).newBatch(1);
        batch.compareAndSwap(1, Region.KEYS, 0, 0, 1);
        assertThrows(IllegalStateException.class, () -> batch.compareAndSwap(1, Region.KEYS, 8, 0, 1));
        batch.awaitAll();
    }

    @Test
    void messagesArriveWholeAndInOrderPerSender() throws Exception {
        int count = 200;
        UnsafeBuffer msg = buffer(12);
        for (int i = 0; i < count; i++) {
            msg.putInt(0, i);
            msg.putLong(4, i * 3L);
            cluster.endpoint(0).send(2, msg, 0, 12);
        }
        msg.putInt(0, -1);
        cluster.endpoint(1).send(2, msg, 0, 4);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (inboxes.get(2).size() < count + 1 && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        List<Received> got = inboxes.get(2);
        assertEquals(count + 1, got.size());
        int next = 0;
        for (Received r : got) {
            UnsafeBuffer view = new UnsafeBuffer(r.bytes());
            if (r.from() == 0) {
                assertEquals(12, r.bytes().length);
                assertEquals(next, view.getInt(0), "messages from one sender stay in order");
                assertEquals(next * 3L, view.getLong(4));
                next++;
            } else {
                assertEquals(1, r.from());
                assertEquals(-1, view.getInt(0));
            }
        }
        assertEquals(count, next);
    }

    @Test
    void aMachineMayMessageItself() throws Exception {
        UnsafeBuffer msg = buffer(4);
        msg.putInt(0, 7);
        cluster.endpoint(1).send(1, msg, 0, 4);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (inboxes.get(1).isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertEquals(1, inboxes.get(1).size());
        assertEquals(1, inboxes.get(1).get(0).from());
        assertEquals(7, new UnsafeBuffer(inboxes.get(1).get(0).bytes()).getInt(0));
    }

    @Test
    void accessOutsideTheRegionIsRejectedAndChangesNothing() {
        Endpoint ep = cluster.endpoint(0);
        UnsafeBuffer b = buffer(64);
        RuntimeException e = assertThrows(RuntimeException.class,
            () -> ep.read(1, Region.VALUES, REGION_BYTES - 8, b, 0, 16));
        assertNotNull(e.getMessage());
        assertThrows(RuntimeException.class, () -> ep.write(1, Region.VALUES, -8, b, 0, 8));
        assertThrows(RuntimeException.class, () -> ep.read(1, Region.VALUES, CHUNK - 8, b, 0, 16),
            "an access may not cross a chunk boundary");
        assertThrows(RuntimeException.class, () -> ep.compareAndSwap(1, Region.KEYS, 12, 0, 1),
            "a CAS must be 8-byte aligned");
        assertEquals(0, memories[1].keys().getLongVolatile(8));
        assertEquals(0, memories[1].keys().getLongVolatile(16));
        // The endpoint still works after refusing bad requests.
        memories[1].values().putLongVolatile(0, 3);
        ep.read(1, Region.VALUES, 0, b, 0, 8);
        assertEquals(3, b.getLong(0));
    }

    @Test
    void unknownMachineIsAnErrorNamingIt() {
        UnsafeBuffer b = buffer(8);
        RuntimeException e = assertThrows(RuntimeException.class,
            () -> cluster.endpoint(0).read(MACHINES + 5, Region.KEYS, 0, b, 0, 8));
        assertTrue(e.getMessage().contains(String.valueOf(MACHINES + 5)), e.getMessage());
    }

    @Test
    void remoteOperationsAreCountedWithTheirBytes() {
        Endpoint ep = cluster.endpoint(0);
        FabricStats.Snapshot before = ep.stats().snapshot();
        UnsafeBuffer b = buffer(48);
        ep.read(1, Region.VALUES, 0, b, 0, 48);
        ep.write(2, Region.VALUES, 0, b, 0, 16);
        ep.compareAndSwap(1, Region.KEYS, 0, 0, 0);
        FabricStats.Snapshot d = ep.stats().snapshot().minus(before);
        assertEquals(1, d.remoteReads());
        assertEquals(48, d.remoteReadBytes());
        assertEquals(1, d.remoteWrites());
        assertEquals(16, d.remoteWriteBytes());
        assertEquals(1, d.remoteAtomics());
        assertEquals(3, d.remoteOps());
        assertEquals(1.0, d.remoteAccessRate());
    }

    @Test
    void endpointsKnowTheirMachineAndTheClusterSize() {
        for (int m = 0; m < MACHINES; m++) {
            assertEquals(m, cluster.endpoint(m).machine());
            assertEquals(MACHINES, cluster.endpoint(m).machineCount());
            assertTrue(cluster.endpoint(m).isReachable((m + 1) % MACHINES));
        }
        assertFalse(cluster.endpoint(0).isReachable(MACHINES + 1));
    }

    @Test
    void operationsAfterCloseFailWithAFabricError() {
        cluster.close();
        UnsafeBuffer b = buffer(8);
        assertThrows(FabricException.class, () -> cluster.endpoint(0).read(1, Region.KEYS, 0, b, 0, 8));
        cluster = null;
    }
}
