package io.pragh.gremlin.analytics;

import io.pragh.address.Address;
import io.pragh.analytics.ScanOptions;
import io.pragh.embedded.EmbeddedCluster;
import io.pragh.gremlin.storage.GraphKeys;
import io.pragh.gremlin.structure.EmbeddedGraphStore;
import io.pragh.gremlin.structure.PraghGraph;
import io.pragh.tier.TieringConfig;
import org.apache.commons.configuration2.BaseConfiguration;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code g.call("pragh.bfs")} and {@code g.call("pragh.pagerank")} on a served (embedded) graph whose lists the tier
 * spilled to a memory node read them in chunked one-sided READs, batched per host: far fewer READs, counted by the
 * compute machines' fabric, than far lists read, where the on-demand baseline issues one READ per far list; and
 * both answer what a plain in-memory BFS and PageRank over the same edges answer.
 */
class GraphAlgorithmsOverFarMemoryTest {
    /** A graph on 2 compute machines and 1 memory node, most of its values spilled there by one tier round. */
    private static PraghGraph farGraph() {
        final EmbeddedCluster.Builder b = EmbeddedCluster.builder().machines(2).memoryNodes(1, 8 << 20)
            .workersPerMachine(1).keysPerMachine(10_000).valueBytesPerMachine(8 << 20).remoteLatencyNs(0)
            .tiering(TieringConfig.defaults().withLocalBudgetBytes(1 << 10).withIntervalMillis(TieringConfig.MANUAL));
        return PraghGraph.open(new BaseConfiguration(), EmbeddedGraphStore.build(b));
    }

    /** The random graph of {@link GraphAlgorithmsTest} on {@code graph}, then one tier round: most lists go far. */
    private record Spilled(long[] vids, List<long[]> edges, EmbeddedCluster cluster, int far) {
        static Spilled on(final PraghGraph graph) {
            final long[] vids = new long[GraphAlgorithmsTest.VERTICES];
            final List<long[]> edges = GraphAlgorithmsTest.randomGraph(graph, vids);
            final EmbeddedCluster cluster = ((EmbeddedGraphStore) graph.store()).cluster();
            cluster.tiering().runRound();
            final int far = farOutLists(cluster);
            assertTrue(far > GraphAlgorithmsTest.VERTICES / 2, "most out-lists should be on the memory node after a"
                + " round: " + far + " far, " + cluster.tiering().bytes());
            return new Spilled(vids, edges, cluster, far);
        }
    }

    /** Out-lists (of any label) whose value lives on another machine than their key's home. */
    private static int farOutLists(final EmbeddedCluster cluster) {
        final int[] far = {0};
        for (int m = 0; m < cluster.computeMachineCount(); m++) {
            final int home = m;
            cluster.machine(m).store().keys().forEach((key, address, slot) -> {
                if (GraphKeys.kind(key) == GraphKeys.OUT && !Address.isNone(address) && !Address.isTombstone(address)
                    && Address.host(address, home) != home) {
                    far[0]++;
                }
            });
        }
        return far[0];
    }

    /** One-sided READs the compute machines (where the services' scans run) issued so far. */
    private static long computeReads(final EmbeddedCluster cluster) {
        long reads = 0;
        for (int m = 0; m < cluster.computeMachineCount(); m++) {
            reads += cluster.machine(m).store().stats().snapshot().remoteReads();
        }
        return reads;
    }

    @Test
    void servicesReadSpilledListsInChunksAndAnswerAsAPlainBfsAndPageRank() {
        try (PraghGraph graph = farGraph()) {
            final Spilled spilled = Spilled.on(graph);
            final long[] vids = spilled.vids();
            final List<long[]> edges = spilled.edges();
            final EmbeddedCluster cluster = spilled.cluster();
            final int far = spilled.far();
            final GraphAlgorithms algorithms = GraphAlgorithms.register(graph);

            final long readsBeforeRank = computeReads(cluster);
            final Map<?, ?> rankAnswer = (Map<?, ?>) graph.traversal().call("pragh.pagerank",
                Map.of("iterations", 12, "damping", 0.85)).next();
            final long rankReads = computeReads(cluster) - readsBeforeRank;
            final Map<Long, Double> expectedRanks = ReferenceAlgorithms.pageRank(
                GraphAlgorithmsTest.adjacency(edges, -1), vids, 12, 0.85);
            final Map<?, ?> ranks = (Map<?, ?>) rankAnswer.get("ranks");
            assertEquals(expectedRanks.keySet(), ranks.keySet());
            for (final long v : vids) {
                assertEquals(expectedRanks.get(v), (Double) ranks.get(v), 1e-12, "vertex " + v);
            }
            // A few READs for every far list, as the compute machines' fabric counts them, and as the scans count.
            assertTrue(rankReads * 8 <= far, "the compute machines issued " + rankReads + " one-sided READs for "
                + far + " far lists: they were read one by one, not in chunks");
            assertEquals(far, algorithms.farValues(), "PageRank reads every far out-list once");
            assertTrue(algorithms.farReads() * 8 <= far, algorithms.farReads() + " READs for " + far + " far lists");

            final long readsBeforeBfs = computeReads(cluster);
            final long valuesBeforeBfs = algorithms.farValues();
            final Map<?, ?> bfsAnswer = (Map<?, ?>) graph.traversal().call("pragh.bfs",
                Map.of("source", vids[0])).next();
            final long bfsReads = computeReads(cluster) - readsBeforeBfs;
            final Map<Long, Long> expectedLevels = ReferenceAlgorithms.bfs(
                GraphAlgorithmsTest.adjacency(edges, -1), vids[0]);
            assertEquals(expectedLevels, new HashMap<>((Map<?, ?>) bfsAnswer.get("distances")));
            final long bfsValues = algorithms.farValues() - valuesBeforeBfs;
            assertTrue(bfsValues > GraphAlgorithmsTest.VERTICES / 4, "BFS read far lists: " + bfsValues);
            // One chunk READ per level and compute machine at most (the levels are few), however many far lists a
            // level has; and the source vertex's record.
            final long levels = expectedLevels.values().stream().mapToLong(Long::longValue).max().getAsLong() + 1;
            assertTrue(bfsReads <= 2 * levels + 2, "BFS issued " + bfsReads + " READs over " + levels + " levels for "
                + bfsValues + " far lists");
        }
    }

    @Test
    void theOnDemandBaselineReadsEachFarListByItselfAndAnswersTheSame() {
        try (PraghGraph graph = farGraph()) {
            final Spilled spilled = Spilled.on(graph);
            final long[] vids = spilled.vids();
            final int far = spilled.far();
            final GraphAlgorithms onDemand = new GraphAlgorithms(graph,
                ScanOptions.defaults().withMode(ScanOptions.FarReads.ON_DEMAND));
            final GraphAlgorithms chunked = new GraphAlgorithms(graph, ScanOptions.defaults().withChunkBytes(256));
            final Map<Long, Double> expected = ReferenceAlgorithms.pageRank(
                GraphAlgorithmsTest.adjacency(spilled.edges(), 0), vids, 7, 0.85);
            for (final GraphAlgorithms algorithms : List.of(onDemand, chunked)) {
                final Map<Long, Double> ranks = algorithms.pageRank("road", 7, 0.85);
                for (final long v : vids) {
                    assertEquals(expected.get(v), ranks.get(v), 1e-12, "vertex " + v);
                }
                assertTrue(algorithms.farValues() > 0 && algorithms.farValues() <= far, "far road lists read: "
                    + algorithms.farValues() + " of " + far + " far lists");
            }
            assertEquals(onDemand.farValues(), onDemand.farReads(), "on demand: one READ per far list");
            assertEquals(onDemand.farValues(), chunked.farValues(), "both read the same far lists");
            assertTrue(chunked.farReads() < chunked.farValues(), "256-byte chunks still hold several lists: "
                + chunked.farReads() + " READs for " + chunked.farValues());
        }
    }
}
