package io.pragh.gremlin.view;

import io.pragh.gremlin.structure.PraghGraph;
import io.pragh.gremlin.structure.TestGraphs;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EdgeMembersTest {
    private static long vid(final Vertex v) {
        return PraghGraph.toVid(v.id());
    }

    @Test
    void anEdgeMemberIsInTheViewWithoutItsEndsAndLeavesWhenRemoved() throws Exception {
        try (PraghGraph graph = TestGraphs.open()) {
            final Vertex a = graph.addVertex();
            final Vertex b = graph.addVertex();
            final Vertex c = graph.addVertex();
            final Edge ab = a.addEdge("road", b);
            final Edge bc = b.addEdge("road", c);
            final Edge ac = a.addEdge("road", c);
            final PraghViews views = PraghViews.of(graph);
            final int v = views.create("v");
            views.addEdges("v", ab);
            assertTrue(views.containsEdge(v, ab));
            assertFalse(views.containsEdge(v, ac), "another edge of the same list is not a member");
            final GraphTraversalSource g = views.withView(graph.traversal(), "v");
            assertEquals(List.of(ab.id()), g.E().id().toList());
            assertEquals(0, views.members("v").length, "no vertex is a member");
            assertEquals(java.util.Set.of(a.id(), b.id()), new java.util.HashSet<>(g.V().id().toList()),
                "but a traversal under the view sees the edge member's ends");
            assertEquals(List.of(ab.id()), views.edgeMembers("v"));

            views.add("v", vid(b), vid(c));
            assertEquals(2L, views.withView(graph.traversal(), "v").E().count().next(), "ab, and bc between members");
            views.removeEdges("v", ab);
            assertEquals(List.of(bc.id()), views.withView(graph.traversal(), "v").E().id().toList());
            assertEquals(2L, views.withView(graph.traversal(), "v").V().count().next(), "b and c; a left with ab");
            assertEquals(List.of(), views.edgeMembers("v"));
        }
    }

    @Test
    void edgeMembersAreManagedFromGremlinAndGoWithADroppedView() throws Exception {
        try (PraghGraph graph = TestGraphs.open()) {
            final Vertex a = graph.addVertex();
            final Vertex b = graph.addVertex();
            final Edge ab = a.addEdge("road", b);
            final PraghViews views = PraghViews.of(graph);
            views.create("v");
            graph.traversal().call("pragh.view", Map.of("op", "addEdges", "name", "v", "ids", List.of(ab.id()))).next();
            final Map<?, ?> listed = (Map<?, ?>) graph.traversal()
                .call("pragh.view", Map.of("op", "edges", "name", "v")).next();
            assertEquals(List.of(String.valueOf(ab.id())), listed.get("edges"));
            views.drop("v");
            final int again = views.create("v");
            assertFalse(views.containsEdge(again, ab), "a dropped view's edge members went with it");
        }
    }
}
