package io.pragh.bench.pushdown;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.bench.workload.AdjacencyGraph;
import io.pragh.gremlin.process.PraghHopStrategy;
import io.pragh.gremlin.structure.PraghGraph;
import io.pragh.gremlin.structure.EmbeddedGraphStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.commons.configuration2.MapConfiguration;
import org.apache.tinkerpop.gremlin.tinkergraph.structure.TinkerGraph;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PushdownWorkloadTest {
    /** Small enough to load in a second, large enough to have 64 vertices with edges. */
    private static final int SCALE = 8;

    @Test
    void startVerticesSpanTheDegreeRangeLowestFirst() {
        PushdownWorkload w = new PushdownWorkload(SCALE, PushdownWorkload.SEED);
        AdjacencyGraph g = w.graph();
        long[] starts = w.starts();
        assertEquals(PushdownWorkload.SAMPLE, starts.length);
        int maxDegree = 0;
        int minDegree = Integer.MAX_VALUE;
        for (int v : g.verticesWithEdges()) {
            maxDegree = Math.max(maxDegree, g.degree(v));
            minDegree = Math.min(minDegree, g.degree(v));
        }
        assertEquals(minDegree, g.degree((int) starts[0]));
        assertEquals(maxDegree, g.degree((int) starts[starts.length - 1]));
        for (int i = 1; i < starts.length; i++) {
            assertTrue(g.degree((int) starts[i - 1]) <= g.degree((int) starts[i]), "starts not in degree order at " + i);
            assertTrue(starts[i] != starts[i - 1], "start vertex " + starts[i] + " picked twice");
        }
    }

    @Test
    void tinkerGraphAndPraghGraphFusedAndUnfusedAllGiveTheAdjacencysCounts() throws Exception {
        PushdownWorkload w = new PushdownWorkload(SCALE, PushdownWorkload.SEED);
        TwoHopCounts expected = w.expectedCounts();
        try (TinkerGraph tinker = TinkerGraph.open()) {
            w.loadInto(tinker, 1);
            w.count("TinkerGraph", tinker.traversal()).requireSameAs(expected);
        }
        try (PraghGraph pragh = PraghGraph.open(new MapConfiguration(Map.<String, Object>of(
            PraghGraph.MACHINES, 2, EmbeddedGraphStore.VALUE_BYTES, 32L << 20, EmbeddedGraphStore.KEYS, 1L << 16)))) {
            w.loadInto(pragh, 4);
            w.count("PraghGraph (fused)", pragh.traversal()).requireSameAs(expected);
            w.count("PraghGraph (unfused)", pragh.traversal().withoutStrategies(PraghHopStrategy.class)).requireSameAs(expected);
        }
    }

    @Test
    void theEdgeListHoldsEveryAdjacencyEntryAfterTheVertexCount(@TempDir Path dir) throws IOException {
        PushdownWorkload w = new PushdownWorkload(SCALE, PushdownWorkload.SEED);
        Path file = dir.resolve("edges.txt");
        w.writeEdgeList(file);
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        assertEquals("vertices " + (1 << SCALE), lines.get(0));
        assertEquals(w.graph().edgeCount(), lines.size() - 1);
        int v = (int) w.start(PushdownWorkload.SAMPLE - 1);
        long listed = lines.stream().filter(l -> l.startsWith(v + " ")).count();
        assertEquals(w.graph().degree(v), listed);
    }
}
