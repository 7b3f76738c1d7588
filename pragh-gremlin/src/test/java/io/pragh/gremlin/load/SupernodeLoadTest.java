package io.pragh.gremlin.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.embedded.EmbeddedCluster;
import io.pragh.gremlin.storage.Adjacency;
import io.pragh.gremlin.storage.AdjacencySegments;
import io.pragh.gremlin.storage.GraphKeys;
import io.pragh.gremlin.structure.EmbeddedGraphStore;
import io.pragh.gremlin.structure.PraghGraph;
import io.pragh.gremlin.structure.SegmentSealer;
import io.pragh.gremlin.structure.TestGraphs;
import io.pragh.migration.Migrator;
import org.apache.commons.configuration2.Configuration;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.junit.jupiter.api.Test;

/** A vertex of 5M out-edges through the bulk load, with the default segments of 64K entries. */
class SupernodeLoadTest {
    private static final int DEGREE = 5_000_000;
    private static final int NEIGHBOURS = 1_000;
    private static final long HUB = 0;

    @Test
    void aFiveMillionEdgeVertexLoadsInSegmentsAndTwoHopsThroughItCountRight() {
        final Configuration conf = TestGraphs.configuration();
        conf.setProperty(EmbeddedGraphStore.VALUE_BYTES, 256L << 20);
        final EdgeBuffer edges = new EdgeBuffer();
        for (int i = 0; i < DEGREE; i++) {
            edges.add(HUB, 1 + i % NEIGHBOURS, "knows");
        }
        for (int j = 1; j <= NEIGHBOURS; j++) {
            for (int k = 0; k <= j % 3; k++) {
                edges.add(j, 10_000 + 4L * j + k, "knows");
            }
        }
        // Computed from the edges alone: each hub edge to j continues along j's j % 3 + 1 edges.
        long twoHops = 0;
        for (int e = 0; e < edges.size(); e++) {
            if (edges.out(e) == HUB) {
                twoHops += edges.in(e) % 3 + 1;
            }
        }
        try (PraghGraph graph = PraghGraph.open(conf)) {
            assertEquals(edges.size(), EdgeBulkLoad.into(graph).load(edges).edges());
            final int label = graph.names().id("knows");
            final long outKey = GraphKeys.out(HUB, label);
            final byte[] tail = graph.store().get(outKey);
            final long[] slots = AdjacencySegments.slots(tail);
            assertEquals((DEGREE - 1) / AdjacencySegments.DEFAULT_SEGMENT_ENTRIES, slots.length,
                "whole segments of 64K entries (1 MiB each, far below the 32 MiB a migrated value may have)");
            assertEquals(DEGREE - slots.length * AdjacencySegments.DEFAULT_SEGMENT_ENTRIES,
                Adjacency.count(tail) - AdjacencySegments.headEntries(tail), "the rest in the tail");

            final GraphTraversalSource g = graph.traversal();
            assertEquals((long) DEGREE, g.V(HUB).out("knows").count().next());
            assertEquals(twoHops, g.V(HUB).out("knows").out("knows").count().next());
            assertEquals((long) NEIGHBOURS, g.V(HUB).out("knows").dedup().count().next());

            final Vertex late = graph.addVertex();
            graph.vertices(HUB).next().addEdge("knows", late);
            final byte[] after = graph.store().get(outKey);
            assertEquals(slots.length, AdjacencySegments.slots(after).length, "an append does not reseal");
            assertEquals(late.id(), Adjacency.neighbour(after, Adjacency.count(after) - 1), "it lands in the tail");
            assertEquals(DEGREE + 1L, g.V(HUB).out("knows").count().next());

            final EmbeddedCluster cluster = ((EmbeddedGraphStore) graph.backingStore()).cluster();
            final long hot = GraphKeys.segment(HUB, (int) slots[slots.length / 2]);
            assertEquals(Migrator.Outcome.MIGRATED,
                cluster.machine((cluster.home(hot) + 1) % cluster.machineCount()).migrate(hot));
            assertTrue(TestGraphs.migrated(cluster, hot));
            for (final long slot : slots) {
                final long key = GraphKeys.segment(HUB, (int) slot);
                assertEquals(key == hot, TestGraphs.migrated(cluster, key), "only the hot segment moved: slot " + slot);
            }
            assertFalse(TestGraphs.migrated(cluster, outKey), "the tail stays home");
            assertEquals(twoHops, g.V(HUB).out("knows").out("knows").count().next(), "reads stay correct");
        }
    }

    @Test
    void aLoadWritesLongListsAsSegmentsAndSealsTheExistingListsItLengthens() {
        final Configuration conf = TestGraphs.configuration();
        conf.setProperty(SegmentSealer.SEGMENT_ENTRIES, 4);
        try (PraghGraph graph = PraghGraph.open(conf)) {
            final java.util.List<Object> added = new java.util.ArrayList<>();
            for (int round = 0; round < 2; round++) {
                final EdgeBuffer edges = new EdgeBuffer();
                for (int i = 0; i < 10; i++) {
                    edges.add(HUB, 100 + 10 * round + i, "knows");
                    added.add(100L + 10 * round + i);
                }
                EdgeBulkLoad.into(graph).load(edges);
                final byte[] tail = graph.store().get(GraphKeys.out(HUB, graph.names().id("knows")));
                assertEquals(2 + 2 * round, AdjacencySegments.slots(tail).length,
                    round == 0 ? "10 new entries: 2 segments written whole" : "10 appended: 2 more sealed after the load");
                assertTrue(Adjacency.count(tail) - AdjacencySegments.headEntries(tail) <= 4);
            }
            final java.util.List<Object> listed = new java.util.ArrayList<>();
            graph.vertices(HUB).next().vertices(org.apache.tinkerpop.gremlin.structure.Direction.OUT, "knows")
                .forEachRemaining(v -> listed.add(v.id()));
            assertEquals(added, listed, "in the order loaded");
            assertEquals(20L, graph.traversal().V(HUB).out("knows").count().next());
        }
    }
}
