package io.pragh.gremlin.storage;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

class GraphMutationsTest {
    private static byte[] concat(final byte[] a, final byte[] b) {
        final byte[] out = new byte[(a == null ? 0 : a.length) + b.length];
        if (a != null) {
            System.arraycopy(a, 0, out, 0, a.length);
        }
        System.arraycopy(b, 0, out, out.length - b.length, b.length);
        return out;
    }

    private static byte[] id(final long id) {
        return new ByteWriter(8).putLong(id).toByteArray();
    }

    @Test
    void removeEdgeDropsOnlyThatEdgesEntriesAndDeletesAnEmptyList() {
        byte[] adjacency = concat(concat(Adjacency.entry(5, 100), Adjacency.entry(6, 101)), Adjacency.entry(5, 102));
        adjacency = AdjacencySegments.removeEdge(adjacency, id(101));
        assertEquals(2, Adjacency.count(adjacency));
        assertEquals(100, Adjacency.edgeId(adjacency, 0));
        assertEquals(102, Adjacency.edgeId(adjacency, 1));
        adjacency = AdjacencySegments.removeEdge(AdjacencySegments.removeEdge(adjacency, id(100)), id(102));
        assertNull(adjacency, "an empty adjacency list deletes its key");
    }

    @Test
    void vertexOperationsApplyCardinalityAtTheHost() {
        byte[] record = VertexRecord.empty(1).encode();
        final PropertyField a = new PropertyField(2, ValueCodec.encode("a"));
        final PropertyField b = new PropertyField(2, ValueCodec.encode("b"));
        record = GraphMutations.vertex(record, VertexOps.add(VertexOps.LIST, a, 10, List.of()));
        record = GraphMutations.vertex(record, VertexOps.add(VertexOps.LIST, b, 11, List.of()));
        assertEquals(2, VertexRecord.decode(record).properties.size());
        assertSame(record, GraphMutations.vertex(record, VertexOps.add(VertexOps.SET, a, 12, List.of())), "set keeps an equal value");
        record = GraphMutations.vertex(record, VertexOps.add(VertexOps.SINGLE, b, 13, List.of()));
        final VertexRecord r = VertexRecord.decode(record);
        assertEquals(1, r.properties.size());
        assertEquals(13, r.properties.get(0).id);

        record = GraphMutations.vertex(record, VertexOps.setMeta(13, new PropertyField(3, ValueCodec.encode(1997))));
        assertEquals(1997, VertexRecord.decode(record).find(13).metas.get(0).value());
        record = GraphMutations.vertex(record, VertexOps.removeMeta(13, 3));
        assertEquals(0, VertexRecord.decode(record).find(13).metas.size());
        record = GraphMutations.vertex(record, VertexOps.remove(13));
        assertEquals(0, VertexRecord.decode(record).properties.size());
        assertNull(GraphMutations.vertex(null, VertexOps.remove(13)), "an edit never resurrects a removed vertex");
    }

    @Test
    void edgePropertiesAreKeptPerEdgeAndTheRecordGoesAwayWithTheLastOne() {
        byte[] record = GraphMutations.edgeProperties(null, EdgeOps.set(7, new PropertyField(1, ValueCodec.encode(0.5d))));
        record = GraphMutations.edgeProperties(record, EdgeOps.set(8, new PropertyField(1, ValueCodec.encode(1.0d))));
        record = GraphMutations.edgeProperties(record, EdgeOps.set(7, new PropertyField(1, ValueCodec.encode(0.4d))));
        final EdgePropertiesRecord r = EdgePropertiesRecord.decode(record);
        assertEquals(0.4d, r.edges.get(7L).get(0).value());
        assertEquals(1.0d, r.edges.get(8L).get(0).value());
        record = GraphMutations.edgeProperties(record, EdgeOps.drop(8));
        record = GraphMutations.edgeProperties(record, EdgeOps.remove(7, 1));
        assertNull(record);
    }

    @Test
    void aVertexRecordWithMetaPropertiesRoundTrips() {
        final List<VertexRecord.Entry> props = new ArrayList<>();
        props.add(new VertexRecord.Entry(new PropertyField(4, ValueCodec.encode("santa fe")), 99,
            new ArrayList<>(List.of(new PropertyField(5, ValueCodec.encode(2005))))));
        final VertexRecord back = VertexRecord.decode(new VertexRecord(3, props).encode());
        assertEquals(3, back.label);
        assertEquals("santa fe", back.properties.get(0).field.value());
        assertEquals(99, back.properties.get(0).id);
        assertEquals(2005, back.properties.get(0).metas.get(0).value());
    }
}
