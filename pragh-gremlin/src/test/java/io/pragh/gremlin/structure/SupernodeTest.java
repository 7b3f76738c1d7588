package io.pragh.gremlin.structure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.embedded.EmbeddedCluster;
import io.pragh.gremlin.process.PraghHopStrategy;
import io.pragh.gremlin.storage.Adjacency;
import io.pragh.gremlin.storage.AdjacencySegments;
import io.pragh.gremlin.storage.GraphKeys;
import io.pragh.gremlin.storage.SegmentStamp;
import io.pragh.migration.Migrator;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.configuration2.Configuration;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.Direction;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.junit.jupiter.api.Test;

/** Supernodes through the Structure API: segments of 4 entries, so a handful of edges makes one. */
class SupernodeTest {
    private static final int SEGMENT = 4;

    private static PraghGraph open() {
        final Configuration conf = TestGraphs.configuration();
        conf.setProperty(SegmentSealer.SEGMENT_ENTRIES, SEGMENT);
        return PraghGraph.open(conf);
    }

    /** A hub with {@code degree} out-edges to vertices that each have 1..3 out-edges; returns the hub. */
    private static Vertex hub(final PraghGraph graph, final int degree, final List<Vertex> neighbours) {
        final Vertex hub = graph.addVertex();
        for (int i = 0; i < degree; i++) {
            final Vertex n = graph.addVertex();
            neighbours.add(n);
            hub.addEdge("knows", n);
            for (int j = 0; j <= i % 3; j++) {
                n.addEdge("knows", hub);
            }
        }
        return hub;
    }

    /** Walks hub, neighbour {@code i}, hub for every {@code from <= i < to}: neighbour i has i % 3 + 1 edges back. */
    private static long twoHops(final int from, final int to) {
        long sum = 0;
        for (int i = from; i < to; i++) {
            sum += i % 3 + 1;
        }
        return sum;
    }

    private static byte[] tail(final PraghGraph graph, final Vertex v, final int kind) {
        final int label = graph.names().id("knows");
        final long key = kind == GraphKeys.OUT ? GraphKeys.out((Long) v.id(), label) : GraphKeys.in((Long) v.id(), label);
        return graph.store().get(key);
    }

    @Test
    void appendsSealFullTailsAndLandInTheLastSegmentWhileEveryReadSeesTheWholeList() {
        try (PraghGraph graph = open()) {
            final List<Vertex> neighbours = new ArrayList<>();
            final Vertex hub = hub(graph, 10, neighbours);
            final byte[] out = tail(graph, hub, GraphKeys.OUT);
            assertEquals(2, AdjacencySegments.slots(out).length, "10 entries: two sealed segments of 4");
            assertEquals(2, Adjacency.count(out) - AdjacencySegments.headEntries(out), "and the newest two in the tail");
            assertTrue(AdjacencySegments.slots(tail(graph, hub, GraphKeys.IN)).length > 0, "the hub's IN list too");

            final Vertex late = graph.addVertex();
            hub.addEdge("knows", late);
            final byte[] after = tail(graph, hub, GraphKeys.OUT);
            assertEquals(AdjacencySegments.slots(out).length, AdjacencySegments.slots(after).length);
            assertEquals(late.id(), Adjacency.neighbour(after, Adjacency.count(after) - 1), "the append is the tail's last");
            neighbours.add(late);

            final GraphTraversalSource g = graph.traversal();
            final List<Object> listed = new ArrayList<>();
            hub.vertices(Direction.OUT, "knows").forEachRemaining(v -> listed.add(v.id()));
            assertEquals(neighbours.stream().map(Vertex::id).toList(), listed, "the Structure API, in insertion order");
            assertEquals(11L, g.V(hub.id()).out("knows").count().next());
            assertEquals(twoHops(0, 10), g.V(hub.id()).out("knows").out("knows").count().next(),
                "fused two-hop: the hub's neighbours lead back to the hub");
            final GraphTraversalSource unfused = g.withoutStrategies(PraghHopStrategy.class);
            assertEquals(g.V(hub.id()).out().out().out().count().next(), unfused.V(hub.id()).out().out().out().count().next());
            assertEquals(twoHops(0, 10), g.V(hub.id()).in("knows").count().next());

            final Edge first = hub.edges(Direction.OUT, "knows").next();
            assertEquals(first, graph.edges(first.id()).next(), "an edge of a sealed segment is found by its id");
        }
    }

    @Test
    void anEdgeRemovedFromASealedSegmentIsGoneFromEveryRead() {
        try (PraghGraph graph = open()) {
            final List<Vertex> neighbours = new ArrayList<>();
            final Vertex hub = hub(graph, 10, neighbours);
            final Edge sealed = hub.edges(Direction.OUT, "knows").next();
            final List<Edge> all = new ArrayList<>();
            hub.edges(Direction.OUT, "knows").forEachRemaining(all::add);
            final Edge inTail = all.get(all.size() - 1);
            sealed.remove();
            inTail.remove();
            final byte[] out = tail(graph, hub, GraphKeys.OUT);
            assertEquals(0, AdjacencySegments.tombstones(out).length, "segments of 4: one tombstone is compacted at once");
            final byte[] first = graph.store().get(GraphKeys.segment((Long) hub.id(), (int) AdjacencySegments.slots(out)[0]));
            assertEquals(SEGMENT - 1, SegmentStamp.entries(first), "the first segment was rewritten without the edge");
            final GraphTraversalSource g = graph.traversal();
            assertEquals(8L, g.V(hub.id()).out("knows").count().next());
            assertEquals(8L, g.V(hub.id()).outE("knows").count().next());
            assertEquals(8L, g.withoutStrategies(PraghHopStrategy.class).V(hub.id()).out("knows").count().next());
            assertFalse(graph.edges(sealed.id()).hasNext(), "a removed edge is not found by id");
            assertFalse(graph.edges(inTail.id()).hasNext());
            assertEquals(0L, g.V(neighbours.get(0).id()).in("knows").count().next(), "its IN entry went too");
            assertEquals(twoHops(1, 9), g.V(hub.id()).out("knows").out("knows").count().next());
            hub.remove();
            assertEquals(0L, g.V(neighbours.get(1).id()).out("knows").count().next(), "edges to it went with it");
            final long hubVid = (Long) hub.id();
            final int[] left = {0};
            graph.store().forEachKey(GraphKeys.SEGMENT, k -> left[0] += GraphKeys.vid(k) == hubVid ? 1 : 0);
            assertEquals(0, left[0], "a removed vertex leaves no segments");
        }
    }

    @Test
    void aListIsCheckedAboutEverySixtyFourthOfASegmentWithoutAReadPerAppend() {
        final Configuration conf = TestGraphs.configuration();
        conf.setProperty(SegmentSealer.SEGMENT_ENTRIES, 256); // checked about every 4 entries of its own
        try (PraghGraph graph = PraghGraph.open(conf)) {
            final Vertex hub = graph.addVertex();
            for (int i = 0; i < 600; i++) {
                hub.addEdge("knows", graph.addVertex());
            }
            final byte[] out = tail(graph, hub, GraphKeys.OUT);
            assertTrue(AdjacencySegments.slots(out).length >= 1, "600 entries: sealed at least once");
            assertTrue(Adjacency.count(out) - AdjacencySegments.headEntries(out) <= 2 * 256, "the tail stays short");
            assertEquals(600L, graph.traversal().V(hub.id()).out("knows").count().next());
        }
    }

    @Test
    void aSealedSegmentEmptiedByRemovalsStaysReadable() {
        try (PraghGraph graph = open()) {
            final List<Vertex> neighbours = new ArrayList<>();
            final Vertex hub = hub(graph, 10, neighbours);
            final List<Edge> all = new ArrayList<>();
            hub.edges(Direction.OUT, "knows").forEachRemaining(all::add);
            for (final Edge e : all.subList(0, SEGMENT)) {
                e.remove();
            }
            final byte[] out = tail(graph, hub, GraphKeys.OUT);
            assertEquals(0, SegmentStamp.entries(graph.store().get(GraphKeys.segment((Long) hub.id(),
                (int) AdjacencySegments.slots(out)[0]))));
            assertEquals(6L, graph.traversal().V(hub.id()).out("knows").count().next());
            final List<Object> listed = new ArrayList<>();
            hub.vertices(Direction.OUT, "knows").forEachRemaining(v -> listed.add(v.id()));
            assertEquals(neighbours.subList(SEGMENT, 10).stream().map(Vertex::id).toList(), listed);
        }
    }

    @Test
    void aSegmentMigratesAloneAndReadsStayCorrect() {
        try (PraghGraph graph = open()) {
            final List<Vertex> neighbours = new ArrayList<>();
            final Vertex hub = hub(graph, 12, neighbours);
            final long before = graph.traversal().V(hub.id()).out("knows").out("knows").count().next();
            final long[] slots = AdjacencySegments.slots(tail(graph, hub, GraphKeys.OUT));
            assertTrue(slots.length >= 2);
            final EmbeddedCluster cluster = ((EmbeddedGraphStore) graph.backingStore()).cluster();
            final long hot = GraphKeys.segment((Long) hub.id(), (int) slots[1]);
            final int home = cluster.home(hot);
            assertEquals(Migrator.Outcome.MIGRATED, cluster.machine((home + 1) % cluster.machineCount()).migrate(hot));
            assertTrue(TestGraphs.migrated(cluster, hot));
            assertFalse(TestGraphs.migrated(cluster, GraphKeys.segment((Long) hub.id(), (int) slots[0])), "the other segment stays");
            assertFalse(TestGraphs.migrated(cluster, GraphKeys.out((Long) hub.id(), graph.names().id("knows"))), "the tail stays");
            assertEquals(before, graph.traversal().V(hub.id()).out("knows").out("knows").count().next());
            final List<Object> listed = new ArrayList<>();
            hub.vertices(Direction.OUT, "knows").forEachRemaining(v -> listed.add(v.id()));
            assertEquals(neighbours.stream().map(Vertex::id).toList(), listed);
        }
    }

    @Test
    void concurrentAppendsThatSealLoseNoEdge() throws Exception {
        try (PraghGraph graph = open()) {
            final Vertex hub = graph.addVertex();
            final int threads = 4;
            final int each = 60;
            final List<Thread> writers = new ArrayList<>();
            final List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
            for (int t = 0; t < threads; t++) {
                final Thread w = new Thread(() -> {
                    try {
                        for (int i = 0; i < each; i++) {
                            hub.addEdge("knows", graph.addVertex());
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                });
                writers.add(w);
                w.start();
            }
            for (final Thread w : writers) {
                w.join();
            }
            assertEquals(List.of(), failures);
            final int total = threads * each;
            assertEquals((long) total, graph.traversal().V(hub.id()).out("knows").count().next());
            assertEquals((long) total, graph.traversal().V(hub.id()).out("knows").dedup().count().next(),
                "each edge once: no entry sealed twice or lost between the tail and a segment");
            final byte[] tail = tail(graph, hub, GraphKeys.OUT);
            assertTrue(AdjacencySegments.slots(tail).length >= total / SEGMENT - threads, "sealed as it grew");
            assertEquals(0L, AdjacencySegments.sealingToken(tail), "no sealer holds it after");
        }
    }

    @Test
    void aBulkLoaderBatchSealsTheListsItMakesLong() {
        try (PraghGraph graph = open()) {
            final long hub;
            try (BulkLoader load = graph.bulkLoader()) {
                hub = load.addVertex();
                for (int i = 0; i < 30; i++) {
                    load.addEdge(hub, "knows", load.addVertex());
                }
            }
            final byte[] tail = tail(graph, graph.vertices(hub).next(), GraphKeys.OUT);
            assertEquals(7, AdjacencySegments.slots(tail).length, "30 entries: 7 sealed segments of 4");
            assertEquals(2, Adjacency.count(tail) - AdjacencySegments.headEntries(tail));
            assertEquals(30L, graph.traversal().V(hub).out("knows").count().next());
        }
    }
}
