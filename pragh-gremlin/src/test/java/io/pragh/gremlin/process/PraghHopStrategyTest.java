package io.pragh.gremlin.process;

import io.pragh.gremlin.structure.PraghGraph;
import io.pragh.gremlin.structure.TestGraphs;
import org.apache.tinkerpop.gremlin.process.traversal.Traversal;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.util.iterator.IteratorUtils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PraghHopStrategyTest {
    private static final String[] LABELS = {"a", "b", "c"};
    private static PraghGraph graph;
    private static GraphTraversalSource fused;
    private static GraphTraversalSource unfused;
    private static int vertexCount;

    @BeforeAll
    static void randomGraph() {
        graph = TestGraphs.open();
        final Random random = new Random(7);
        vertexCount = 60;
        final List<Vertex> vertices = new ArrayList<>();
        for (int i = 0; i < vertexCount; i++) {
            vertices.add(graph.addVertex(T.id, i));
        }
        for (int i = 0; i < 300; i++) { // multi-edges and self-loops included, as random pairs produce them
            vertices.get(random.nextInt(vertexCount)).addEdge(LABELS[random.nextInt(LABELS.length)], vertices.get(random.nextInt(vertexCount)));
        }
        fused = graph.traversal();
        unfused = graph.traversal().withoutStrategies(PraghHopStrategy.class);
    }

    @AfterAll
    static void close() {
        graph.close();
    }

    private static void sameResults(final Function<GraphTraversalSource, Traversal<?, ?>> query, final boolean expectFused) {
        final Traversal.Admin<?, ?> f = query.apply(fused).asAdmin();
        f.applyStrategies();
        assertEquals(expectFused, f.getSteps().stream().anyMatch(s -> s instanceof PraghHopStep), () -> "fusion of " + f);
        final Map<Object, Long> expected = counts(query.apply(unfused));
        final Map<Object, Long> actual = counts(f);
        assertEquals(expected, actual, () -> "fused " + f + " differs from unfused");
    }

    private static Map<Object, Long> counts(final Traversal<?, ?> t) {
        final Map<Object, Long> counts = new HashMap<>();
        IteratorUtils.list(t).forEach(o -> counts.merge(o, 1L, Long::sum));
        return counts;
    }

    @Test
    void fusedHopsGiveTheUnfusedResultsOnARandomGraph() {
        final Random random = new Random(11);
        for (int round = 0; round < 40; round++) {
            final long a = random.nextInt(vertexCount + 5); // some ids name no vertex
            final long b = random.nextInt(vertexCount);
            final String l = LABELS[random.nextInt(LABELS.length)];
            sameResults(g -> g.V(a).out(), true);
            sameResults(g -> g.V(a).out().out(), true);
            sameResults(g -> g.V(a, b, a).out(l).in(), true);
            sameResults(g -> g.V(a).both().both(l, "nope").out(), true);
            sameResults(g -> g.V(a).out().out().count(), true);
            sameResults(g -> g.V(a, b).in(l).outE().count(), true);
            sameResults(g -> g.V(b).both().bothE(l).count(), true);
            sameResults(g -> g.V(a).out(l).out().dedup(), true);
            sameResults(g -> g.V(b).out().out().id(), true);
        }
    }

    @Test
    void pathAndLabelBoundTraversalsAreLeftAlone() {
        sameResults(g -> g.V(1).out().out().path(), false);
        sameResults(g -> g.V(1).as("x").out().out(), false);
        sameResults(g -> g.V(1).out().as("y").out().select("y"), false);
        sameResults(g -> g.V().out().out().count(), false);
        sameResults(g -> g.V(1).outE().inV(), true); // IncidentToAdjacentStrategy makes it out(), which fuses
        sameResults(g -> g.V(1).outE("a").label(), false);
    }

    @Test
    void theFusedStepRunsOnTheStartVertexsHomeMachine() {
        final Traversal.Admin<?, ?> t = fused.V(3).out().out().count().asAdmin();
        t.applyStrategies();
        final PraghHopStep<?> step = (PraghHopStep<?>) t.getStartStep();
        assertTrue(step.countsEdgesAtEnd());
        assertEquals(2, step.hops().size());
        assertFalse(t.toString().contains("VertexStep"), t.toString());
    }
}
