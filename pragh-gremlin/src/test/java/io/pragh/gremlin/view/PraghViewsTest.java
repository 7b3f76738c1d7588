package io.pragh.gremlin.view;

import io.pragh.gremlin.structure.PraghGraph;
import io.pragh.gremlin.structure.TestGraphs;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PraghViewsTest {
    private static long[] vertices(final PraghGraph graph, final int n) {
        final long[] vids = new long[n];
        for (int i = 0; i < n; i++) {
            vids[i] = PraghGraph.toVid(graph.addVertex().id());
        }
        return vids;
    }

    private static Set<Long> set(final long... vids) {
        return Arrays.stream(vids).boxed().collect(Collectors.toSet());
    }

    @Test
    void membersAddedAndRemovedAreWhatTheViewHolds() {
        try (PraghGraph graph = TestGraphs.open()) {
            final long[] v = vertices(graph, 5);
            final PraghViews views = PraghViews.of(graph);
            views.create("a");
            views.add("a", v[0], v[1], v[2]);
            views.remove("a", v[1]);
            assertEquals(set(v[0], v[2]), set(views.members("a")));
            assertTrue(views.contains("a", v[0]));
            assertFalse(views.contains("a", v[1]));
            assertFalse(views.contains("a", v[3]));
        }
    }

    @Test
    void setOperationsCombineMembershipIntoANewView() {
        try (PraghGraph graph = TestGraphs.open()) {
            final long[] v = vertices(graph, 5);
            final PraghViews views = PraghViews.of(graph);
            views.create("a");
            views.create("b");
            views.add("a", v[0], v[1], v[2]);
            views.add("b", v[2], v[3]);
            views.union("u", "a", "b");
            views.intersection("i", "a", "b");
            views.difference("d", "a", "b");
            assertEquals(set(v[0], v[1], v[2], v[3]), set(views.members("u")));
            assertEquals(set(v[2]), set(views.members("i")));
            assertEquals(set(v[0], v[1]), set(views.members("d")));
            views.difference("d", "b", "a"); // an existing target is replaced, not merged
            assertEquals(set(v[3]), set(views.members("d")));
        }
    }

    @Test
    void dropRemovesMembershipAndPropertiesAndFreesTheName() {
        try (PraghGraph graph = TestGraphs.open()) {
            final long[] v = vertices(graph, 2);
            final PraghViews views = PraghViews.of(graph);
            views.create("a");
            views.add("a", v[0]);
            views.property("a", "owner", "ops");
            views.memberProperty("a", v[0], "speed", 42);
            views.drop("a");
            assertFalse(views.exists("a"));
            views.create("a");
            assertEquals(0, views.members("a").length);
            assertEquals(Map.of(), views.properties("a"));
            assertEquals(Map.of(), views.memberProperties("a", v[0]));
        }
    }

    @Test
    void viewAndMemberPropertiesAreKeptPerViewAndPerMember() {
        try (PraghGraph graph = TestGraphs.open()) {
            final long[] v = vertices(graph, 2);
            final PraghViews views = PraghViews.of(graph);
            views.create("a");
            views.add("a", v[0], v[1]);
            views.property("a", "city", "Palo Alto");
            views.memberProperty("a", v[0], "speed", 42);
            views.memberProperty("a", v[1], "speed", 7);
            views.memberProperty("a", v[1], "speed", null);
            assertEquals(Map.of("city", "Palo Alto"), views.properties("a"));
            assertEquals(Map.of("speed", 42), views.memberProperties("a", v[0]));
            assertEquals(Map.of(), views.memberProperties("a", v[1]));
            assertThrows(IllegalArgumentException.class, () -> views.memberProperty("a", 999_999L, "x", 1));
        }
    }

    @Test
    void unknownViewIsAnErrorNamingIt() {
        try (PraghGraph graph = TestGraphs.open()) {
            final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PraghViews.of(graph).add("nowhere", 1L));
            assertTrue(e.getMessage().contains("nowhere"), e.getMessage());
        }
    }

    @Test
    void withViewConstrainsVerticesAndHopsToMembers() {
        try (PraghGraph graph = TestGraphs.open()) {
            final Vertex a = graph.addVertex();
            final Vertex b = graph.addVertex();
            final Vertex c = graph.addVertex();
            final Vertex d = graph.addVertex();
            a.addEdge("road", b);
            a.addEdge("road", c);
            b.addEdge("road", d);
            c.addEdge("road", d);
            final PraghViews views = PraghViews.of(graph);
            views.create("v");
            views.add("v", PraghGraph.toVid(a.id()), PraghGraph.toVid(b.id()), PraghGraph.toVid(d.id()));
            final GraphTraversalSource g = views.withView(graph.traversal(), "v");
            assertEquals(3L, g.V().count().next());
            assertEquals(List.of(b.id()), g.V(a.id()).out("road").id().toList());
            assertEquals(List.of(d.id()), g.V(a.id()).out("road").out("road").id().toList());
            assertEquals(2L, g.E().count().next());
            // without the view, both two-hop paths reach d
            assertEquals(2L, graph.traversal().V(a.id()).out("road").out("road").count().next());
        }
    }

    @Test
    void viewServiceManagesViewsFromGremlin() {
        try (PraghGraph graph = TestGraphs.open()) {
            final long[] v = vertices(graph, 3);
            PraghViews.of(graph);
            final GraphTraversalSource g = graph.traversal();
            g.call("pragh.view", Map.of("op", "create", "name", "x")).iterate();
            final Map<?, ?> added = (Map<?, ?>) g.call("pragh.view",
                Map.of("op", "add", "name", "x", "ids", List.of(v[0], v[2]))).next();
            assertEquals(2, added.get("members"));
            final Map<?, ?> members = (Map<?, ?>) g.call("pragh.view", Map.of("op", "members", "name", "x")).next();
            assertEquals(Arrays.stream(v).filter(x -> x != v[1]).sorted().boxed().toList(), members.get("members"));
            final Exception e = assertThrows(Exception.class,
                () -> g.call("pragh.view", Map.of("op", "explode")).next());
            assertTrue(String.valueOf(e.getMessage()).contains("ops are"), e.getMessage());
        }
    }
}
