package io.pragh.fabric.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.fabric.Endpoint;
import io.pragh.fabric.Fabric;
import io.pragh.fabric.FabricException;
import io.pragh.fabric.FabricStats;
import io.pragh.fabric.MachineMemory;
import io.pragh.fabric.MessageHandler;
import io.pragh.fabric.OpBatch;
import io.pragh.fabric.Region;
import io.pragh.fabric.inprocess.InProcessFabric;
import io.pragh.memory.ChunkedRegion;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Each kind of fault the fault fabric injects, on three machines over the in-process fabric. Waits are bounded
 * (a held operation is checked held by its rule's count, never by how long something took), so the tests hold at
 * any machine speed; the one timing assertion is a lower bound (a delay is never shorter than asked).
 */
class FaultFabricTest {
    private static final int MACHINES = 3;
    private static final int CHUNK = 4096;

    private MachineMemory[] memories;
    private List<List<Integer>> inboxes;
    /** Single one-sided operations the wrapped fabric performed, as "target:offset", in the order it did them. */
    private final List<String> performed = new CopyOnWriteArrayList<>();
    private FaultFabric fabric;
    private Endpoint[] eps;

    @BeforeEach
    void open() {
        memories = new MachineMemory[MACHINES];
        inboxes = new ArrayList<>();
        eps = new Endpoint[MACHINES];
        fabric = new FaultFabric(new SpyFabric(new InProcessFabric(MACHINES, 0)), 7);
        for (int m = 0; m < MACHINES; m++) {
            memories[m] = new MachineMemory(ChunkedRegion.allocate("k" + m, CHUNK, CHUNK),
                ChunkedRegion.allocate("v" + m, CHUNK, CHUNK), ChunkedRegion.allocate("r" + m, CHUNK, CHUNK));
            List<Integer> inbox = new CopyOnWriteArrayList<>();
            inboxes.add(inbox);
            MessageHandler h = (from, msg, off, len) -> inbox.add(msg.getInt(off));
            eps[m] = fabric.attach(m, memories[m], h);
        }
    }

    @AfterEach
    void close() {
        fabric.close();
        for (MachineMemory m : memories) {
            m.keys().close();
            m.values().close();
            m.reclaim().close();
        }
    }

    private static UnsafeBuffer word(long v) {
        UnsafeBuffer b = new UnsafeBuffer(new byte[8]);
        b.putLong(0, v);
        return b;
    }

    private static void send(Endpoint from, int to, int value) {
        UnsafeBuffer b = new UnsafeBuffer(new byte[4]);
        b.putInt(0, value);
        from.send(to, b, 0, 4);
    }

    private void awaitInbox(int machine, int count) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (inboxes.get(machine).size() < count && System.nanoTime() < deadline) {
            Thread.sleep(2);
        }
        assertTrue(inboxes.get(machine).size() >= count, "only " + inboxes.get(machine) + " arrived");
    }

    @Test
    void aDelayedOperationTakesAtLeastItsDelayAndOnlySelectedOnesAreDelayed() {
        FaultRule slow = fabric.when().reads().from(0).to(1).delay(30, TimeUnit.MILLISECONDS);
        UnsafeBuffer dst = new UnsafeBuffer(new byte[8]);
        long t0 = System.nanoTime();
        eps[0].read(1, Region.VALUES, 0, dst, 0, 8);
        assertTrue(System.nanoTime() - t0 >= TimeUnit.MILLISECONDS.toNanos(30));
        eps[2].read(1, Region.VALUES, 0, dst, 0, 8);
        eps[0].read(2, Region.VALUES, 0, dst, 0, 8);
        eps[0].write(1, Region.VALUES, 0, word(1), 0, 8);
        assertEquals(1, slow.fired(), "only machine 0's READs of machine 1 are selected");
    }

    @Test
    void aHeldCasWaitsForItsReleaseAndThenTakesEffect() throws Exception {
        memories[1].keys().putLongVolatile(64, 5);
        HoldRule held = fabric.when().cas().single().to(1).region(Region.KEYS).hold();
        CompletableFuture<Long> cas = CompletableFuture.supplyAsync(
            () -> eps[0].compareAndSwap(1, Region.KEYS, 64, 5, 6));
        assertTrue(held.awaitHeld(1, 10, TimeUnit.SECONDS));
        assertEquals(1, held.holding());
        assertEquals(5, memories[1].keys().getLongVolatile(64), "a held CAS has not reached its target");
        assertFalse(cas.isDone());
        held.release();
        assertEquals(5, cas.get(10, TimeUnit.SECONDS));
        assertEquals(6, memories[1].keys().getLongVolatile(64));
        assertEquals(6, eps[0].compareAndSwap(1, Region.KEYS, 64, 6, 7), "a released hold lets later CASes pass");
    }

    @Test
    void aHeldBatchedCasKeepsItsBatchOutstandingUntilReleased() throws Exception {
        memories[1].keys().putLongVolatile(8, 100);
        memories[2].values().putLongVolatile(16, 77);
        HoldRule held = fabric.when().cas().batched().from(0).hold();
        OpBatch batch = eps[0].newBatch(4);
        UnsafeBuffer dst = new UnsafeBuffer(new byte[8]);
        int read = batch.read(2, Region.VALUES, 16, dst, 0, 8);
        int cas = batch.compareAndSwap(1, Region.KEYS, 8, 100, 101);
        batch.post();
        assertTrue(held.awaitHeld(1, 10, TimeUnit.SECONDS));
        assertTrue(batch.poll() > 0, "the held CAS is outstanding");
        assertFalse(batch.isDone(cas));
        assertThrows(IllegalStateException.class, () -> batch.casResult(cas));
        assertThrows(IllegalStateException.class, batch::clear, "a batch with a held operation cannot be cleared");
        assertEquals(100, memories[1].keys().getLongVolatile(8));
        held.release();
        batch.awaitAll();
        assertTrue(batch.isDone(read));
        assertEquals(77, dst.getLong(0));
        assertEquals(100, batch.casResult(cas));
        assertEquals(101, memories[1].keys().getLongVolatile(8));
        batch.clear();
    }

    @Test
    void aDroppedCasNeverLandsAndWitnessesNothing() {
        memories[1].keys().putLongVolatile(8, 1);
        FaultRule drop = fabric.when().cas().to(1).drop();
        FabricException single = assertThrows(FabricException.class,
            () -> eps[0].compareAndSwap(1, Region.KEYS, 8, 1, 2));
        assertTrue(single.retryable());
        assertBatchFailsItsCasAlone(1, Region.KEYS, 8, 1, 1, 8, 1, 3);
        assertEquals(1, memories[1].keys().getLongVolatile(8), "no dropped CAS took effect");
        assertEquals(2, drop.fired());
    }

    /**
     * Machine 0 batches a READ and a CAS that a rule fails: the batch fails retryably, its READ ran (and read
     * {@code readValue}), its CAS witnessed nothing.
     */
    private void assertBatchFailsItsCasAlone(int readTarget, Region readRegion, long readOffset, long readValue,
                                             int casTarget, long casOffset, long expected, long desired) {
        OpBatch batch = eps[0].newBatch(2);
        UnsafeBuffer dst = new UnsafeBuffer(new byte[8]);
        int read = batch.read(readTarget, readRegion, readOffset, dst, 0, 8);
        int cas = batch.compareAndSwap(casTarget, Region.KEYS, casOffset, expected, desired);
        FabricException failed = assertThrows(FabricException.class, batch::awaitAll);
        assertTrue(failed.retryable());
        assertTrue(batch.isDone(read) && batch.isDone(cas));
        assertEquals(readValue, dst.getLong(0), "the batch's other operations ran");
        assertThrows(IllegalStateException.class, () -> batch.casResult(cas), "the failed CAS witnessed nothing");
        batch.clear();
    }

    @Test
    void aCasWhoseReplyIsLostTookEffectAllTheSame() {
        memories[1].keys().putLongVolatile(8, 1);
        fabric.when().cas().times(2).applyThenFail();
        assertThrows(FabricException.class, () -> eps[0].compareAndSwap(1, Region.KEYS, 8, 1, 2));
        assertEquals(2, memories[1].keys().getLongVolatile(8));
        OpBatch batch = eps[0].newBatch(1);
        int cas = batch.compareAndSwap(1, Region.KEYS, 8, 2, 3);
        assertThrows(FabricException.class, batch::awaitAll);
        assertThrows(IllegalStateException.class, () -> batch.casResult(cas));
        assertEquals(3, memories[1].keys().getLongVolatile(8));
        assertEquals(3, eps[0].compareAndSwap(1, Region.KEYS, 8, 3, 4), "the rule stopped after two");
    }

    /**
     * What a timeout leaves possible on a real fabric: the issuer is told its CAS failed, other machines move the
     * word on (and back), and the CAS still lands later, with the operands it was issued with.
     */
    @Test
    void aCasToldItFailedLandsOnReleaseAfterOtherMachinesOperations() {
        memories[1].keys().putLongVolatile(64, 5);
        HoldRule late = fabric.when().cas().single().from(0).to(1).applyLateOnRelease();
        FabricException told = assertThrows(FabricException.class,
            () -> eps[0].compareAndSwap(1, Region.KEYS, 64, 5, 6));
        assertTrue(told.retryable(), "a timeout is retryable: " + told.getMessage());
        assertEquals(5, memories[1].keys().getLongVolatile(64), "not landed before its release");
        assertEquals(1, fabric.lateOperationsInFlight());
        assertEquals(1, late.everHeld());
        assertEquals(5, eps[2].compareAndSwap(1, Region.KEYS, 64, 5, 7), "machine 2's CAS is not selected");
        assertEquals(7, eps[2].compareAndSwap(1, Region.KEYS, 64, 7, 5));
        late.release();
        assertEquals(6, memories[1].keys().getLongVolatile(64), "the CAS landed on release, expecting 5 as issued");
        assertEquals(0, fabric.lateOperationsInFlight());
        assertEquals(1, fabric.lateOperationsLanded());
        assertEquals(6, eps[0].compareAndSwap(1, Region.KEYS, 64, 6, 8), "a released rule lets later CASes pass");
    }

    @Test
    void aLateWriteLandsTheBytesItWasIssuedWithThoughItsBufferWasReused() {
        HoldRule late = fabric.when().writes().applyLateOnRelease();
        UnsafeBuffer src = word(41);
        assertThrows(FabricException.class, () -> eps[0].write(1, Region.VALUES, 8, src, 0, 8));
        src.putLong(0, 99); // the issuer reuses its buffer once told the WRITE failed
        assertEquals(0, memories[1].values().getLongVolatile(8));
        late.release();
        assertEquals(41, memories[1].values().getLongVolatile(8));
    }

    @Test
    void aLateBatchedCasFailsItsBatchWitnessingNothingAndLandsOnRelease() {
        memories[1].keys().putLongVolatile(8, 100);
        memories[2].values().putLongVolatile(16, 77);
        HoldRule late = fabric.when().cas().batched().from(0).applyLateOnRelease();
        assertBatchFailsItsCasAlone(2, Region.VALUES, 16, 77, 1, 8, 100, 101);
        assertEquals(100, memories[1].keys().getLongVolatile(8));
        late.release();
        assertEquals(101, memories[1].keys().getLongVolatile(8));
    }

    @Test
    void aLateMessageFailsToSendAndArrivesOnRelease() throws Exception {
        HoldRule late = fabric.when().messages().to(1).times(1).applyLateOnRelease();
        assertThrows(FabricException.class, () -> send(eps[0], 1, 11));
        send(eps[0], 1, 12);
        awaitInbox(1, 1);
        assertEquals(List.of(12), inboxes.get(1), "the failed send has not arrived, the next one has");
        late.release();
        awaitInbox(1, 2);
        assertEquals(List.of(12, 11), inboxes.get(1));
    }

    /** After its pause, on the fabric's own thread: waited for by count, never by time. */
    @Test
    void aDelayedLateCasLandsByItselfAndCanBeAwaited() throws Exception {
        memories[1].keys().putLongVolatile(8, 1);
        FaultRule late = fabric.when().cas().times(1).applyLate(1, 20, TimeUnit.MILLISECONDS);
        assertThrows(FabricException.class, () -> eps[0].compareAndSwap(1, Region.KEYS, 8, 1, 2));
        assertTrue(fabric.awaitLateOperations(30, TimeUnit.SECONDS), fabric.lateOperationsInFlight() + " in flight");
        assertEquals(2, memories[1].keys().getLongVolatile(8));
        assertEquals(1, late.fired());
        assertEquals(1, fabric.lateOperationsLanded());
    }

    @Test
    void closingTheFabricLosesLateOperationsStillWaitingAndNobodyWaitsForThem() throws Exception {
        memories[1].keys().putLongVolatile(8, 1);
        fabric.when().cas().applyLate(1, 1, TimeUnit.HOURS);
        assertThrows(FabricException.class, () -> eps[0].compareAndSwap(1, Region.KEYS, 8, 1, 2));
        assertEquals(1, fabric.lateOperationsInFlight());
        fabric.close();
        assertTrue(fabric.awaitLateOperations(0, TimeUnit.SECONDS));
        assertEquals(0, fabric.lateOperationsLanded());
        assertEquals(1, memories[1].keys().getLongVolatile(8));
    }

    @Test
    void aLateReadOnlyFailsAndLeavesNothingToLand() {
        fabric.when().reads().applyLateOnRelease();
        UnsafeBuffer dst = new UnsafeBuffer(new byte[8]);
        assertThrows(FabricException.class, () -> eps[0].read(1, Region.VALUES, 0, dst, 0, 8));
        assertEquals(0, fabric.lateOperationsInFlight());
    }

    @Test
    void clearingTheRulesLandsHeldLateOperations() {
        memories[0].keys().putLongVolatile(0, 3);
        fabric.when().cas().applyLateOnRelease();
        assertThrows(FabricException.class, () -> eps[2].compareAndSwap(0, Region.KEYS, 0, 3, 4));
        fabric.clear();
        assertEquals(4, memories[0].keys().getLongVolatile(0));
        assertEquals(0, fabric.lateOperationsInFlight());
    }

    /** The order a reordered batch's writes reached the wrapped fabric, for one seed. */
    private List<String> reorderedBatch() {
        fabric.when().batched().reorder();
        OpBatch batch = eps[0].newBatch(16);
        for (int i = 0; i < 8; i++) {
            batch.write(1 + (i % 2), Region.VALUES, 8L * i, word(i), 0, 8, true);
        }
        batch.awaitAll();
        batch.clear();
        return new ArrayList<>(performed);
    }

    @Test
    void aReorderedBatchRunsOutOfOrderKeepingEachTargetsOrderAndTheSameSeedGivesTheSameOrder() {
        List<String> first = reorderedBatch();
        List<String> queued = List.of("1:0", "2:8", "1:16", "2:24", "1:32", "2:40", "1:48", "2:56");
        assertEquals(8, first.size());
        assertNotEquals(queued, first, "seed 7 shuffles this batch");
        assertEquals(List.of("1:0", "1:16", "1:32", "1:48"), first.stream().filter(s -> s.startsWith("1:")).toList());
        assertEquals(List.of("2:8", "2:24", "2:40", "2:56"), first.stream().filter(s -> s.startsWith("2:")).toList());
        for (int i = 0; i < 8; i++) {
            assertEquals(i, memories[1 + (i % 2)].values().getLongVolatile(8L * i), "every write landed");
        }
        close();
        performed.clear();
        open();
        assertEquals(first, reorderedBatch(), "the same seed and operations give the same order");
    }

    @Test
    void chanceDecisionsFollowTheSeed() {
        assertEquals(dropPattern(11), dropPattern(11));
        assertNotEquals(dropPattern(11), dropPattern(12));
    }

    private List<Boolean> dropPattern(long seed) {
        try (FaultFabric f = new FaultFabric(new InProcessFabric(2, 0), seed)) {
            MachineMemory m0 = new MachineMemory(ChunkedRegion.allocate("k", CHUNK, CHUNK),
                ChunkedRegion.allocate("v", CHUNK, CHUNK), ChunkedRegion.allocate("r", CHUNK, CHUNK));
            MachineMemory m1 = new MachineMemory(ChunkedRegion.allocate("k", CHUNK, CHUNK),
                ChunkedRegion.allocate("v", CHUNK, CHUNK), ChunkedRegion.allocate("r", CHUNK, CHUNK));
            Endpoint e0 = f.attach(0, m0, (a, b, c, d) -> { });
            f.attach(1, m1, (a, b, c, d) -> { });
            f.when().reads().probability(0.5).drop();
            List<Boolean> dropped = new ArrayList<>();
            UnsafeBuffer dst = new UnsafeBuffer(new byte[8]);
            for (int i = 0; i < 64; i++) {
                try {
                    e0.read(1, Region.VALUES, 0, dst, 0, 8);
                    dropped.add(false);
                } catch (FabricException e) {
                    dropped.add(true);
                }
            }
            f.close();
            for (MachineMemory m : new MachineMemory[] {m0, m1}) {
                m.keys().close();
                m.values().close();
                m.reclaim().close();
            }
            return dropped;
        }
    }

    @Test
    void rulesSelectByRegionLengthAndCountAndTheFirstRuleDecides() {
        FaultRule keyWords = fabric.when().reads().region(Region.KEYS).length(8).after(1).times(2).drop();
        FaultRule everyRead = fabric.when().reads().delay(0, TimeUnit.NANOSECONDS);
        UnsafeBuffer dst = new UnsafeBuffer(new byte[64]);
        eps[0].read(1, Region.KEYS, 0, dst, 0, 8);                                   // skipped by after(1)
        assertThrows(FabricException.class, () -> eps[0].read(1, Region.KEYS, 0, dst, 0, 8));
        eps[0].read(1, Region.KEYS, 0, dst, 0, 64);                                  // another length
        eps[0].read(1, Region.VALUES, 0, dst, 0, 8);                                 // another region
        assertThrows(FabricException.class, () -> eps[0].read(1, Region.KEYS, 0, dst, 0, 8));
        eps[0].read(1, Region.KEYS, 0, dst, 0, 8);                                   // times(2) spent
        assertEquals(2, keyWords.fired());
        assertEquals(4, keyWords.matched());
        assertEquals(4, everyRead.fired(), "the later rule decides what the first lets pass");
    }

    @Test
    void aRuleInstalledFirstDecidesBeforeEarlierOnes() {
        FaultRule slow = fabric.when().reads().delay(0, TimeUnit.NANOSECONDS);
        FaultRule cut = fabric.when().reads().to(2).first().refuse();
        UnsafeBuffer dst = new UnsafeBuffer(new byte[8]);
        assertThrows(FabricException.class, () -> eps[0].read(2, Region.VALUES, 0, dst, 0, 8));
        eps[0].read(1, Region.VALUES, 0, dst, 0, 8);
        assertEquals(1, cut.fired());
        assertEquals(1, slow.fired());
        assertEquals(List.of(cut, slow), fabric.rules());
    }

    @Test
    void anIsolatedMachineIsUnreachableBothWaysUntilHealed() throws Exception {
        FaultRule cut = fabric.isolate(1);
        UnsafeBuffer dst = new UnsafeBuffer(new byte[8]);
        assertThrows(FabricException.class, () -> eps[0].read(1, Region.VALUES, 0, dst, 0, 8));
        assertThrows(FabricException.class, () -> eps[1].compareAndSwap(2, Region.KEYS, 0, 0, 1));
        assertThrows(FabricException.class, () -> send(eps[1], 0, 9), "a message send is refused");
        assertFalse(eps[0].isReachable(1));
        assertFalse(eps[1].isReachable(2));
        assertTrue(eps[0].isReachable(2));
        eps[0].read(2, Region.VALUES, 0, dst, 0, 8);
        eps[1].read(1, Region.VALUES, 0, dst, 0, 8);                                 // its own memory
        cut.remove();
        assertTrue(eps[0].isReachable(1));
        eps[0].read(1, Region.VALUES, 0, dst, 0, 8);
        send(eps[1], 0, 9);
        awaitInbox(0, 1);
        assertEquals(List.of(9), inboxes.get(0));
    }

    @Test
    void aDroppedMessageIsLostSilentlyAndOthersArrive() throws Exception {
        fabric.when().messages().from(0).to(2).times(1).drop();
        send(eps[0], 2, 1);
        send(eps[0], 2, 2);
        send(eps[1], 2, 3);
        awaitInbox(2, 2);
        Thread.sleep(20);
        assertEquals(List.of(2, 3), inboxes.get(2).stream().sorted().toList());
    }

    @Test
    void heldMessagesAreOvertakenAndArriveInOrderOnRelease() throws Exception {
        HoldRule held = fabric.when().messages().to(1).times(2).hold();
        send(eps[0], 1, 1);
        send(eps[0], 1, 2);
        send(eps[0], 1, 3);
        assertTrue(held.awaitHeld(2, 10, TimeUnit.SECONDS));
        awaitInbox(1, 1);
        assertEquals(List.of(3), inboxes.get(1), "the held messages have not arrived");
        held.release();
        awaitInbox(1, 3);
        assertEquals(List.of(3, 1, 2), inboxes.get(1));
    }

    @Test
    void aDelayedOrReorderedMessageStillArrives() throws Exception {
        FaultRule delayed = fabric.when().messages().times(1).delay(20, TimeUnit.MILLISECONDS);
        FaultRule reordered = fabric.when().messages().times(1).reorder();
        long t0 = System.nanoTime();
        send(eps[0], 1, 1);
        send(eps[0], 1, 2);
        awaitInbox(1, 1);
        awaitInbox(1, 2);
        assertEquals(List.of(1, 2), inboxes.get(1).stream().sorted().toList());
        assertTrue(System.nanoTime() - t0 >= TimeUnit.MILLISECONDS.toNanos(20));
        assertEquals(1, delayed.fired());
        assertEquals(1, reordered.fired());
    }

    @Test
    void clearingTheRulesReleasesWhatIsHeld() throws Exception {
        HoldRule held = fabric.when().writes().hold();
        CompletableFuture<Void> w = CompletableFuture.runAsync(
            () -> eps[2].write(0, Region.VALUES, 0, word(42), 0, 8));
        assertTrue(held.awaitHeld(1, 10, TimeUnit.SECONDS));
        fabric.clear();
        w.get(10, TimeUnit.SECONDS);
        assertEquals(42, memories[0].values().getLongVolatile(0));
        assertTrue(fabric.rules().isEmpty());
    }

    /** Passes everything to the in-process fabric and notes the single one-sided operations it performs. */
    private final class SpyFabric implements Fabric {
        private final Fabric inner;

        SpyFabric(Fabric inner) {
            this.inner = inner;
        }

        @Override
        public String name() {
            return "spy";
        }

        @Override
        public Endpoint attach(int machine, MachineMemory memory, MessageHandler handler) {
            Endpoint e = inner.attach(machine, memory, handler);
            return new Endpoint() {
                @Override
                public int machine() {
                    return e.machine();
                }

                @Override
                public int machineCount() {
                    return e.machineCount();
                }

                @Override
                public FabricStats stats() {
                    return e.stats();
                }

                @Override
                public void read(int target, Region region, long offset, MutableDirectBuffer dst, int dstOffset,
                                 int length) {
                    performed.add(target + ":" + offset);
                    e.read(target, region, offset, dst, dstOffset, length);
                }

                @Override
                public void write(int target, Region region, long offset, DirectBuffer src, int srcOffset,
                                  int length) {
                    performed.add(target + ":" + offset);
                    e.write(target, region, offset, src, srcOffset, length);
                }

                @Override
                public long compareAndSwap(int target, Region region, long offset, long expected, long desired) {
                    performed.add(target + ":" + offset);
                    return e.compareAndSwap(target, region, offset, expected, desired);
                }

                @Override
                public OpBatch newBatch(int capacity) {
                    return e.newBatch(capacity);
                }

                @Override
                public void send(int target, DirectBuffer message, int offset, int length) {
                    e.send(target, message, offset, length);
                }

                @Override
                public boolean isReachable(int target) {
                    return e.isReachable(target);
                }
            };
        }

        @Override
        public void close() {
            inner.close();
        }
    }
}
