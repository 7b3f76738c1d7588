package io.pragh.gremlin.kcore;

import io.pragh.gremlin.structure.PraghGraph;
import io.pragh.gremlin.structure.TestGraphs;
import io.pragh.gremlin.view.PraghViews;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class KCoreTest {
    private static final int VERTICES = 120;
    private static final int EDGES = 420;

    /** A seeded random multigraph (repeats, both directions and self-loops included) and its undirected edge list. */
    private static long[][] randomGraph(final PraghGraph graph, final long seed, final long[] vids) {
        final Random random = new Random(seed);
        final Vertex[] vs = new Vertex[vids.length];
        for (int i = 0; i < vs.length; i++) {
            vs[i] = graph.addVertex();
            vids[i] = PraghGraph.toVid(vs[i].id());
        }
        final long[][] edges = new long[EDGES][];
        for (int e = 0; e < EDGES; e++) {
            // skewed: low indices get more edges, so cores of several orders exist
            final int a = (int) (vs.length * Math.pow(random.nextDouble(), 2));
            final int b = random.nextInt(vs.length);
            vs[a].addEdge(random.nextBoolean() ? "road" : "rail", vs[b]);
            edges[e] = new long[] {vids[a], vids[b]};
        }
        return edges;
    }

    /** The k-core by the textbook queue peeling over plain sets, restricted to {@code keep}. */
    private static Set<Long> reference(final long[][] edges, final Set<Long> keep, final int k) {
        final Map<Long, Set<Long>> adj = new HashMap<>();
        keep.forEach(v -> adj.put(v, new HashSet<>()));
        for (final long[] e : edges) {
            if (e[0] != e[1] && keep.contains(e[0]) && keep.contains(e[1])) {
                adj.get(e[0]).add(e[1]);
                adj.get(e[1]).add(e[0]);
            }
        }
        final ArrayDeque<Long> queue = new ArrayDeque<>();
        adj.forEach((v, n) -> {
            if (n.size() < k) {
                queue.add(v);
            }
        });
        while (!queue.isEmpty()) {
            final Long v = queue.poll();
            final Set<Long> n = adj.remove(v);
            if (n == null) {
                continue;
            }
            for (final Long u : n) {
                final Set<Long> un = adj.get(u);
                if (un != null && un.remove(v) && un.size() < k) {
                    queue.add(u);
                }
            }
        }
        return new TreeSet<>(adj.keySet());
    }

    private static Set<Long> set(final long[] vids) {
        return Arrays.stream(vids).boxed().collect(Collectors.toCollection(TreeSet::new));
    }

    @Test
    void coreOfARandomGraphMatchesASimpleReferencePeeling() {
        try (PraghGraph graph = TestGraphs.open()) {
            final long[] vids = new long[VERTICES];
            final long[][] edges = randomGraph(graph, 17, vids);
            final KCore kcore = new KCore(PraghViews.of(graph));
            boolean someNonEmptyProperCore = false;
            for (int k = 1; k <= 7; k++) {
                final Set<Long> expected = reference(edges, set(vids), k);
                assertEquals(expected, set(kcore.run(k, null).members()), "k = " + k);
                someNonEmptyProperCore |= !expected.isEmpty() && expected.size() < VERTICES;
            }
            assertTrue(someNonEmptyProperCore, "the random graph should have a non-trivial core");
        }
    }

    @Test
    void coreOfAViewCountsOnlyEdgesBetweenMembers() {
        try (PraghGraph graph = TestGraphs.open()) {
            final long[] vids = new long[VERTICES];
            final long[][] edges = randomGraph(graph, 5, vids);
            final PraghViews views = PraghViews.of(graph);
            views.create("half");
            final long[] half = Arrays.stream(vids).filter(v -> v % 3 != 0).toArray();
            views.add("half", half);
            final KCore kcore = new KCore(views);
            for (int k = 2; k <= 4; k++) {
                assertEquals(reference(edges, set(half), k), set(kcore.run(k, "half").members()), "k = " + k);
            }
        }
    }

    @Test
    void kcoreServiceWritesTheCoreAsAViewAndAProperty() {
        try (PraghGraph graph = TestGraphs.open()) {
            final long[] vids = new long[VERTICES];
            final long[][] edges = randomGraph(graph, 11, vids);
            final PraghViews views = PraghViews.of(graph);
            KCore.register(views);
            final Map<?, ?> answer = (Map<?, ?>) graph.traversal()
                .call("pragh.kcore", Map.of("k", 3, "into", "core3", "property", "core")).next();
            final Set<Long> expected = reference(edges, set(vids), 3);
            assertFalse(expected.isEmpty());
            assertEquals(expected.size(), answer.get("size"));
            assertEquals(expected, set(views.members("core3")));
            final List<Object> marked = graph.traversal().V().has("core", 3).id().toList();
            assertEquals(expected, marked.stream().map(PraghGraph::toVid).collect(Collectors.toCollection(TreeSet::new)));
        }
    }

    @Test
    void kBelowOneIsRefused() {
        try (PraghGraph graph = TestGraphs.open()) {
            assertThrows(IllegalArgumentException.class, () -> new KCore(PraghViews.of(graph)).run(0, null));
        }
    }
}
