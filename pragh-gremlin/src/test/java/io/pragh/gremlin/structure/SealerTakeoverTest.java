package io.pragh.gremlin.structure;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.durability.SyncPolicy;
import io.pragh.embedded.EmbeddedCluster;
import io.pragh.gremlin.process.PraghHopStrategy;
import io.pragh.gremlin.storage.Adjacency;
import io.pragh.gremlin.storage.AdjacencySegments;
import io.pragh.gremlin.storage.GraphKeys;
import io.pragh.gremlin.storage.GraphMutations;
import io.pragh.gremlin.storage.SealLease;
import io.pragh.gremlin.storage.SegmentStamp;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.commons.configuration2.Configuration;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.Direction;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A supernode's sealer that dies or stalls mid-seal (held between writing its segment and committing it, failed
 * there as by a crash, with and without a restart of the cluster) is taken over once its lease ends by the test's
 * clock: the list stays complete (every acknowledged edge once, hops equal to the edge list), the orphaned segment
 * is reused or freed (segment keys and entries counted before and after), and the slow sealer's late write and
 * commit change nothing. The graph's own sealer is kept out of the way (segments of 2^20, no sweep); the sealers under test
 * seal segments of {@link #SEGMENT} on a {@link #LEASE} ms lease of a clock the test moves.
 */
class SealerTakeoverTest {
    private static final int SEGMENT = 8;
    private static final long LEASE = 100;
    private static final int DEGREE = 20;

    private final AtomicLong now = new AtomicLong(1_000);

    private static Configuration configuration() {
        final Configuration conf = TestGraphs.configuration();
        conf.setProperty(SegmentSealer.SEGMENT_ENTRIES, 1 << 20);
        // The graph's own sweep judges leases by the wall clock, the sealers under test by the test's: kept out.
        conf.setProperty(SegmentSealer.SWEEP_MILLIS, 0);
        return conf;
    }

    private SegmentSealer sealer(final GraphStore store) {
        return new SegmentSealer(store, SEGMENT, now::get, LEASE);
    }

    /** The hub, its neighbours in insertion order, neighbour i with i % 3 + 1 edges back to the hub. */
    private static final class Hub {
        final Vertex hub;
        final List<Vertex> neighbours = new ArrayList<>();
        final List<Integer> backEdges = new ArrayList<>();
        final long outKey;

        Hub(final PraghGraph graph) {
            hub = graph.addVertex();
            add(graph, DEGREE);
            outKey = GraphKeys.out((Long) hub.id(), graph.names().id("knows"));
        }

        void add(final PraghGraph graph, final int count) {
            for (int i = 0; i < count; i++) {
                final Vertex n = graph.addVertex();
                hub.addEdge("knows", n);
                final int back = neighbours.size() % 3 + 1;
                for (int j = 0; j < back; j++) {
                    n.addEdge("knows", hub);
                }
                neighbours.add(n);
                backEdges.add(back);
            }
        }

        /** Removes the hub's out-edge to neighbour {@code i} (of those left). */
        void removeOut(final int i) {
            final Vertex n = neighbours.get(i);
            hub.edges(Direction.OUT, "knows").forEachRemaining(e -> {
                if (e.inVertex().id().equals(n.id())) {
                    e.remove();
                }
            });
            neighbours.remove(i);
            backEdges.remove(i);
        }

        /** Every acknowledged out-edge exactly once, in order, through every read path. */
        void assertComplete(final PraghGraph graph) {
            final List<Object> expected = neighbours.stream().map(Vertex::id).toList();
            final List<Object> listed = new ArrayList<>();
            hub.vertices(Direction.OUT, "knows").forEachRemaining(v -> listed.add(v.id()));
            assertEquals(expected, listed, "the Structure API lists each acknowledged edge once, in order");
            final List<Object> whole = new ArrayList<>();
            final byte[] list = SegmentedLists.get(graph.store(), outKey);
            for (int i = 0; i < Adjacency.count(list); i++) {
                whole.add(Adjacency.neighbour(list, i));
            }
            assertEquals(expected, whole, "the joined segments and tail");
            final GraphTraversalSource g = graph.traversal();
            final long twoHops = backEdges.stream().mapToLong(Integer::longValue).sum();
            assertEquals((long) expected.size(), g.V(hub.id()).out("knows").count().next());
            assertEquals((long) expected.size(), g.V(hub.id()).out("knows").dedup().count().next());
            assertEquals(twoHops, g.V(hub.id()).out("knows").out("knows").count().next(), "fused two-hop");
            assertEquals(twoHops, g.withoutStrategies(PraghHopStrategy.class).V(hub.id()).out("knows").out("knows")
                .count().next(), "unfused two-hop");
        }
    }

    /** Segment keys (slot records left out) and the entries they hold, over the whole store. */
    private static long[] segmentKeysAndEntries(final GraphStore store) {
        final long[] counts = new long[2];
        store.forEachKey(GraphKeys.SEGMENT, k -> {
            if (GraphKeys.label(k) != 0) {
                counts[0]++;
                counts[1] += SegmentStamp.entries(store.get(k));
            }
        });
        return counts;
    }

    /** Entries the hub's OUT list has in its committed segments. */
    private static long committedEntries(final GraphStore store, final long listKey) {
        long entries = 0;
        for (final long slot : AdjacencySegments.slots(store.get(listKey))) {
            entries += SegmentStamp.entries(store.get(GraphKeys.segment(GraphKeys.vid(listKey), (int) slot)));
        }
        return entries;
    }

    /** {@code sealIfLong} of a list on a thread of its own, held (or failed, {@code crash}) at one mutator. */
    private final class SlowSealer {
        final AtomicReference<Object> outcome = new AtomicReference<>();
        final HoldingStore.Hold hold;
        final Thread thread;

        SlowSealer(final HoldingStore store, final long key, final int mutatorId, final boolean crash) {
            final SegmentSealer sealer = sealer(store);
            thread = new Thread(() -> {
                try {
                    outcome.set(sealer.sealIfLong(key));
                } catch (Throwable e) {
                    outcome.set(e);
                }
            }, "slow-sealer");
            hold = store.hold(mutatorId, thread, crash);
            thread.start();
        }

        /** Its outcome once it ended: the segments it sealed, or what it threw. */
        Object join() throws InterruptedException {
            thread.join();
            return outcome.get();
        }
    }

    @Test
    void aSealerHeldBetweenItsSegmentAndItsCommitIsTakenOverAfterItsLeaseAndItsLateCommitIsRefused() throws Exception {
        final HoldingStore store = new HoldingStore(EmbeddedGraphStore.open(configuration()));
        try (PraghGraph graph = PraghGraph.open(configuration(), store)) {
            final Hub hub = new Hub(graph);
            final SlowSealer slow = new SlowSealer(store, hub.outKey, GraphMutations.SEAL_COMMIT, false);
            slow.hold.awaitArrived();
            final long slowToken = SealLease.holder(store.get(hub.outKey));
            assertNotEquals(0, slowToken, "the slow sealer holds the list");
            assertEquals(SEGMENT, segmentKeysAndEntries(store)[1], "its segment is written, not committed: an orphan");

            hub.removeOut(2); // the orphan copied this edge: committing it now would resurrect the edge
            hub.add(graph, 3);
            final SegmentSealer taker = sealer(store);
            assertEquals(0, taker.sealIfLong(hub.outKey), "the lease still runs: no takeover");
            assertEquals(slowToken, SealLease.holder(store.get(hub.outKey)));

            now.addAndGet(LEASE);
            assertEquals(2, taker.sealIfLong(hub.outKey), "22 entries: two segments of 8 once the lease is over");
            final byte[] taken = store.get(hub.outKey);
            assertEquals(0, SealLease.holder(taken), "the taker let go");
            assertTrue(SealLease.lastToken(taken) > slowToken, "with a larger token");
            assertArrayEquals(new long[] {2, 2 * SEGMENT}, segmentKeysAndEntries(store),
                "two segment keys, both committed: the orphan's slot was reused, nothing leaked");
            assertEquals(2 * SEGMENT, committedEntries(store, hub.outKey));

            slow.hold.release();
            assertEquals(0, slow.join(), "the slow sealer sealed nothing");
            assertArrayEquals(taken, store.get(hub.outKey), "its late commit changed nothing");
            assertArrayEquals(new long[] {2, 2 * SEGMENT}, segmentKeysAndEntries(store));
            hub.assertComplete(graph);
        }
    }

    @Test
    void aSlowSealersLateSegmentWriteAfterATakeoverIsRefusedByTheTakersStamp() throws Exception {
        final HoldingStore store = new HoldingStore(EmbeddedGraphStore.open(configuration()));
        try (PraghGraph graph = PraghGraph.open(configuration(), store)) {
            final Hub hub = new Hub(graph);
            final SlowSealer slow = new SlowSealer(store, hub.outKey, GraphMutations.SEGMENT_WRITE, false);
            slow.hold.awaitArrived(); // it copied the first 8 entries and claimed the slot; its write is in flight
            hub.removeOut(0);
            now.addAndGet(LEASE);
            assertEquals(2, sealer(store).sealIfLong(hub.outKey));
            final long slot = AdjacencySegments.slots(store.get(hub.outKey))[0];
            final byte[] committed = store.get(GraphKeys.segment((Long) hub.hub.id(), (int) slot));
            final byte[] tail = store.get(hub.outKey);

            slow.hold.release();
            assertEquals(0, slow.join());
            assertArrayEquals(committed, store.get(GraphKeys.segment((Long) hub.hub.id(), (int) slot)),
                "the late write met the taker's larger stamp: the committed segment is untouched");
            assertArrayEquals(tail, store.get(hub.outKey), "and the late commit the taker's token");
            assertArrayEquals(new long[] {2, 2 * SEGMENT}, segmentKeysAndEntries(store));
            hub.assertComplete(graph);
        }
    }

    @Test
    void theSweepFreesTheOrphanOfACrashedSealerWhoseListNoLongerNeedsASealAndTheSlotIsReusedLater() throws Exception {
        final HoldingStore store = new HoldingStore(EmbeddedGraphStore.open(configuration()));
        try (PraghGraph graph = PraghGraph.open(configuration(), store)) {
            final Hub hub = new Hub(graph);
            assertInstanceOf(HoldingStore.Crash.class,
                new SlowSealer(store, hub.outKey, GraphMutations.SEAL_COMMIT, true).join());
            assertArrayEquals(new long[] {1, SEGMENT}, segmentKeysAndEntries(store), "the crashed sealer's orphan");
            for (int i = 0; i < DEGREE - SEGMENT; i++) {
                hub.removeOut(0); // down to 8 entries: no seal is due any more
            }
            final SegmentSealer sweeper = sealer(store);
            assertEquals(0, sweeper.sweep(), "the lease still runs: the crashed sealer might only be slow");
            final long valueBytes = store.offHeapUse().valueBytes();
            now.addAndGet(LEASE);
            assertEquals(1, sweeper.sweep(), "the orphan is freed");
            assertArrayEquals(new long[] {1, 0}, segmentKeysAndEntries(store), "down to its stamp, a fence");
            assertTrue(store.offHeapUse().valueBytes() < valueBytes, "its entries' bytes are back");
            assertEquals(0, SealLease.holder(store.get(hub.outKey)), "and the list is let go");
            assertEquals(0, sweeper.sweep(), "once");
            hub.assertComplete(graph);

            hub.add(graph, 4);
            assertEquals(1, sweeper.sealIfLong(hub.outKey));
            assertArrayEquals(new long[] {1, SEGMENT}, segmentKeysAndEntries(store), "the fenced slot, reused");
            hub.assertComplete(graph);
        }
    }

    /**
     * Nobody appends to the list again and nobody calls {@link SegmentSealer#sweep}: the graph's own sweep, on its
     * period, finds the crashed sealer's orphan (its lease, of the test's clock, long over by the wall clock) and
     * frees it. Without the graph's sweep the orphan keeps its entries for good.
     */
    @Test
    void theGraphsOwnSweepFreesACrashedSealersOrphanWithoutAnyCaller() throws Exception {
        final Configuration conf = configuration();
        conf.setProperty(SegmentSealer.SWEEP_MILLIS, 20);
        final HoldingStore store = new HoldingStore(EmbeddedGraphStore.open(conf));
        try (PraghGraph graph = PraghGraph.open(conf, store)) {
            final Hub hub = new Hub(graph);
            assertInstanceOf(HoldingStore.Crash.class,
                new SlowSealer(store, hub.outKey, GraphMutations.SEAL_COMMIT, true).join());
            final long deadline = System.nanoTime() + 60_000_000_000L;
            while (segmentKeysAndEntries(store)[1] != 0) {
                assertTrue(System.nanoTime() < deadline, "the orphan still holds its entries after 60 s of sweeps");
                Thread.sleep(10);
            }
            assertArrayEquals(new long[] {1, 0}, segmentKeysAndEntries(store), "freed down to its stamp");
            assertEquals(0, SealLease.holder(store.get(hub.outKey)), "and the list let go");
            hub.assertComplete(graph);
        }
    }

    @Test
    void aSealerInterruptedBeforeItsSegmentWriteLeavesNothingATakerCannotFinish() throws Exception {
        final HoldingStore store = new HoldingStore(EmbeddedGraphStore.open(configuration()));
        try (PraghGraph graph = PraghGraph.open(configuration(), store)) {
            final Hub hub = new Hub(graph);
            final SlowSealer slow = new SlowSealer(store, hub.outKey, GraphMutations.SEGMENT_WRITE, false);
            slow.hold.awaitArrived();
            slow.thread.interrupt();
            assertInstanceOf(Throwable.class, slow.join(), "the interrupted seal failed");
            now.addAndGet(LEASE); // whether its commit let go or not, the lease is over now
            assertEquals(2, sealer(store).sealIfLong(hub.outKey));
            assertArrayEquals(new long[] {2, 2 * SEGMENT}, segmentKeysAndEntries(store));
            hub.assertComplete(graph);
        }
    }

    @Test
    void aSegmentLongerThanOneLoggedArgumentIsRefusedNamingTheSetting() {
        final IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
            () -> new SegmentSealer(null, AdjacencySegments.MAX_SEGMENT_ENTRIES + 1));
        assertTrue(e.getMessage().contains(SegmentSealer.SEGMENT_ENTRIES), e.getMessage());
    }

    private static PraghGraph durable(final Path dir, final GraphStore[] store) {
        final GraphStore embedded = EmbeddedGraphStore.build(EmbeddedCluster.builder().machines(2)
            .workersPerMachine(1).pinThreads(false).keysPerMachine(16_384).valueBytesPerMachine(4L << 20)
            .durability(dir, SyncPolicy.NONE, 60_000));
        store[0] = new HoldingStore(embedded);
        return PraghGraph.open(configuration(), store[0]);
    }

    @Test
    void aSealerThatCrashedBeforeItsCommitIsTakenOverAfterARestartAndItsSegmentReused(@TempDir final Path dir)
            throws Exception {
        final GraphStore[] store = new GraphStore[1];
        final long hubVid;
        final List<Object> neighbours;
        final long slowToken;
        try (PraghGraph graph = durable(dir, store)) {
            final Hub hub = new Hub(graph);
            hubVid = (Long) hub.hub.id();
            neighbours = hub.neighbours.stream().map(Vertex::id).toList();
            assertInstanceOf(HoldingStore.Crash.class,
                new SlowSealer((HoldingStore) store[0], hub.outKey, GraphMutations.SEAL_COMMIT, true).join());
            slowToken = SealLease.holder(store[0].get(hub.outKey));
        }
        try (PraghGraph graph = durable(dir, store)) {
            final long outKey = GraphKeys.out(hubVid, graph.names().id("knows"));
            assertEquals(slowToken, SealLease.holder(store[0].get(outKey)), "the lease came back with the log");
            assertArrayEquals(new long[] {1, SEGMENT}, segmentKeysAndEntries(store[0]), "and so did the orphan");
            final SegmentSealer taker = sealer(store[0]);
            assertEquals(0, taker.sealIfLong(outKey), "the lease still runs after the restart");
            now.addAndGet(LEASE);
            assertEquals(2, taker.sealIfLong(outKey));
            assertArrayEquals(new long[] {2, 2 * SEGMENT}, segmentKeysAndEntries(store[0]), "the orphan's slot reused");
            final List<Object> listed = new ArrayList<>();
            graph.vertices(hubVid).next().vertices(Direction.OUT, "knows").forEachRemaining(v -> listed.add(v.id()));
            assertEquals(neighbours, listed, "every edge acknowledged before the crash, once, in order");
            final long twoHops = graph.traversal().V(hubVid).out("knows").out("knows").count().next();
            long expected = 0;
            for (int i = 0; i < DEGREE; i++) {
                expected += i % 3 + 1;
            }
            assertEquals(expected, twoHops);
            final List<Edge> edges = new ArrayList<>();
            graph.vertices(hubVid).next().edges(Direction.OUT, "knows").forEachRemaining(edges::add);
            assertEquals(DEGREE, edges.stream().map(Edge::id).distinct().count());
        }
    }
}
