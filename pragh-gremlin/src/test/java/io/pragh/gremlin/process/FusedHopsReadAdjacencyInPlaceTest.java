package io.pragh.gremlin.process;

import io.pragh.gremlin.storage.GraphKeys;
import io.pragh.gremlin.structure.EmbeddedGraphStore;
import io.pragh.gremlin.structure.GraphStore;
import io.pragh.gremlin.structure.PraghGraph;
import io.pragh.gremlin.structure.TestGraphs;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.junit.jupiter.api.Test;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The fused hop step reads adjacency lists where the GET left them: every list it reads arrives as a view
 * ({@link GraphStore#getAllViews}), none as a copied {@code byte[]} ({@code get}, {@code getAll}), and the counts and
 * vertices it computes from the views are the unfused plan's.
 */
class FusedHopsReadAdjacencyInPlaceTest {
    /** Calls of the store that copy a value, and calls that hand out views, counted while a fused traversal runs. */
    private final AtomicInteger copiedAdjacency = new AtomicInteger();
    private final AtomicInteger viewBatches = new AtomicInteger();

    private GraphStore counting(final GraphStore store) {
        return (GraphStore) Proxy.newProxyInstance(GraphStore.class.getClassLoader(), new Class<?>[] {GraphStore.class},
            (proxy, method, args) -> {
                final String name = method.getName();
                if (name.equals("get") && isAdjacency((Long) args[0])) {
                    copiedAdjacency.incrementAndGet();
                } else if (name.equals("getAll")) {
                    copiedAdjacency.incrementAndGet();
                } else if (name.equals("getAllViews")) {
                    viewBatches.incrementAndGet();
                }
                try {
                    return method.invoke(store, args);
                } catch (InvocationTargetException e) {
                    throw e.getCause();
                }
            });
    }

    private static boolean isAdjacency(final long key) {
        return GraphKeys.kind(key) == GraphKeys.OUT || GraphKeys.kind(key) == GraphKeys.IN;
    }

    @Test
    void fusedHopsAndCountsCopyNoAdjacencyListAndMatchTheUnfusedPlan() throws Exception {
        try (PraghGraph graph = PraghGraph.open(TestGraphs.configuration(),
                counting(EmbeddedGraphStore.open(TestGraphs.configuration())))) {
            final List<Vertex> vs = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                vs.add(graph.addVertex(T.id, i));
            }
            for (int i = 0; i < 12; i++) {
                for (int j = 1; j <= i % 4 + 1; j++) {
                    vs.get(i).addEdge(j % 2 == 0 ? "a" : "b", vs.get((i + j * 5) % 12));
                }
            }
            final GraphTraversalSource unfused = graph.traversal().withoutStrategies(PraghHopStrategy.class);
            final GraphTraversalSource fused = graph.traversal();
            for (int start = 0; start < 12; start++) {
                final long expectedCount = unfused.V(start).out().out().count().next();
                final long expectedEdges = unfused.V(start).out().outE().count().next();
                final List<Object> expectedIds = unfused.V(start).both().in("a").id().toList();
                copiedAdjacency.set(0);
                viewBatches.set(0);
                assertEquals(expectedCount, fused.V(start).out().out().count().next(), "out().out().count()");
                assertEquals(expectedEdges, fused.V(start).out().outE().count().next(), "out().outE().count()");
                final List<Object> ids = fused.V(start).both().in("a").id().toList();
                assertEquals(sorted(expectedIds), sorted(ids), "both().in(a)");
                assertEquals(0, copiedAdjacency.get(), "adjacency lists copied by fused hops from vertex " + start);
                assertTrue(viewBatches.get() >= 6, "fused hops read adjacency as views: " + viewBatches.get());
            }
        }
    }

    private static List<String> sorted(final List<Object> ids) {
        final List<String> s = new ArrayList<>();
        ids.forEach(id -> s.add(String.valueOf(id)));
        s.sort(null);
        return s;
    }
}
