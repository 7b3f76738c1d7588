package io.pragh.gremlin.structure;

import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.Direction;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.structure.VertexProperty;
import org.apache.tinkerpop.gremlin.structure.util.GraphFactory;
import org.apache.tinkerpop.gremlin.util.iterator.IteratorUtils;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PraghGraphTest {
    @Test
    void graphFactoryOpensAPraghGraphFromConfiguration() throws Exception {
        try (PraghGraph graph = (PraghGraph) GraphFactory.open(TestGraphs.configuration())) {
            assertEquals(4, graph.store().machines());
        }
    }

    @Test
    void verticesEdgesAndPropertiesRoundTripThroughTheStore() throws Exception {
        try (PraghGraph graph = TestGraphs.open()) {
            final Vertex marko = graph.addVertex(T.id, 1, T.label, "person", "name", "marko", "age", 29);
            final Vertex lop = graph.addVertex(T.id, 3L, T.label, "software", "name", "lop");
            final Edge created = marko.addEdge("created", lop, T.id, 9, "weight", 0.4d);

            final Vertex read = graph.vertices(1).next();
            assertEquals("person", read.label());
            assertEquals(29, (int) read.value("age"));
            assertEquals(1L, read.id());
            assertEquals(List.of(lop), IteratorUtils.list(read.vertices(Direction.OUT, "created")));
            assertEquals(List.of(marko), IteratorUtils.list(lop.vertices(Direction.IN)));
            final Edge e = graph.edges("9").next();
            assertEquals(created, e);
            assertEquals(0.4d, (double) e.value("weight"));
            assertEquals(marko, e.outVertex());

            e.remove();
            assertFalse(graph.edges(9).hasNext());
            assertFalse(read.vertices(Direction.OUT).hasNext());
            assertFalse(lop.edges(Direction.IN).hasNext());
        }
    }

    @Test
    void numericIdsOfAnyTypeNameTheSameVertex() throws Exception {
        try (PraghGraph graph = TestGraphs.open()) {
            graph.addVertex(T.id, 7);
            for (final Object id : new Object[] {7, 7L, (short) 7, 7.0d, 7.0f, "7", java.math.BigInteger.valueOf(7)}) {
                assertEquals(7L, graph.vertices(id).next().id(), () -> "id " + id + " of " + id.getClass());
            }
            assertFalse(graph.vertices(7.5d).hasNext());
            assertThrows(IllegalArgumentException.class, () -> graph.addVertex(T.id, 7L));
            assertThrows(UnsupportedOperationException.class, () -> graph.addVertex(T.id, "seven"));
            assertThrows(IllegalArgumentException.class, () -> graph.addVertex(T.id, -1L));
            final Vertex next = graph.addVertex();
            assertTrue((long) next.id() > 7L, "assigned ids move past supplied ones");
        }
    }

    @Test
    void multiAndMetaPropertiesKeepTheirValuesAndIds() throws Exception {
        try (PraghGraph graph = TestGraphs.open()) {
            final Vertex v = graph.addVertex("name", "matthias");
            final VertexProperty<String> sf = v.property(VertexProperty.Cardinality.list, "location", "san francisco", "startTime", 1997);
            v.property(VertexProperty.Cardinality.list, "location", "santa cruz", "startTime", 2004);
            sf.property("endTime", 2004);
            assertEquals(2, IteratorUtils.count(v.properties("location")));
            assertEquals(Set.of("startTime", "endTime"), IteratorUtils.set(IteratorUtils.map(
                v.properties("location").next().properties(), p -> p.key())));
            sf.remove();
            assertEquals(List.of("santa cruz"), IteratorUtils.list(IteratorUtils.map(v.properties("location"), VertexProperty::value)));
            v.property("name", "m");
            assertEquals(1, IteratorUtils.count(v.properties("name")));
        }
    }

    @Test
    void removingAVertexRemovesItsEdgesFromItsNeighbours() throws Exception {
        try (PraghGraph graph = TestGraphs.open()) {
            final GraphTraversalSource g = graph.traversal();
            final Vertex a = graph.addVertex();
            final Vertex b = graph.addVertex();
            final Vertex c = graph.addVertex();
            a.addEdge("x", b);
            c.addEdge("y", a);
            a.addEdge("x", a);
            a.remove();
            assertEquals(0L, g.E().count().next());
            assertEquals(0L, g.V(b).inE().count().next());
            assertEquals(0L, g.V(c).outE().count().next());
            assertEquals(2L, g.V().count().next());
            assertThrows(IllegalStateException.class, () -> a.property("k", 1));
        }
    }
}
