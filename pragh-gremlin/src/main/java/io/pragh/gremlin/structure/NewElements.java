package io.pragh.gremlin.structure;

import io.pragh.gremlin.storage.EdgeIndexRecord;
import io.pragh.gremlin.storage.EdgeOps;
import io.pragh.gremlin.storage.GraphKeys;
import io.pragh.gremlin.storage.GraphMutations;
import io.pragh.gremlin.storage.PropertyField;
import io.pragh.gremlin.storage.ValueCodec;
import io.pragh.gremlin.storage.VertexRecord;
import io.pragh.store.Mutators;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.structure.util.ElementHelper;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Turns the arguments of {@code addVertex} and {@code addEdge} into what they store, validated and with their ids
 * claimed, but nothing written yet: {@link PraghGraph} writes one element at a time, {@link BulkLoader} many at once.
 *
 * <p>Example: {@code NewElements.Vertex v = graph.newElements().vertex(T.label, "person"); store.put(GraphKeys.vertex(v.id()), v.record());}
 */
final class NewElements {
    private final PraghGraph graph;

    NewElements(final PraghGraph graph) {
        this.graph = graph;
    }

    /** A vertex to store: its id, whether the caller supplied it (and so it may be taken), its label and record. */
    record NewVertex(long id, boolean suppliedId, String label, byte[] record) {
    }

    /**
     * An edge to store: its id (supplied, or a number from the id blocks), whether the caller supplied it, its label
     * id and properties (one value a key).
     */
    record NewEdge(long id, boolean suppliedId, int label, Map<String, Object> properties) {
        /** The edge number its adjacency entries carry: compact unless the id was supplied ({@link EdgeIds}). */
        long number() {
            return EdgeIds.number(id, suppliedId);
        }

        /** Its TinkerPop id. */
        Object tinkerPopId(final long outVid) {
            return EdgeIds.id(outVid, label, number());
        }
    }

    NewVertex vertex(final Object... keyValues) {
        ElementHelper.legalPropertyKeyValueArray(keyValues);
        final String label = ElementHelper.getLabelValue(keyValues).orElse(Vertex.DEFAULT_LABEL);
        ElementHelper.validateLabel(label);
        final Optional<Object> suppliedId = ElementHelper.getIdValue(keyValues);
        final long vid = suppliedId.map(id -> graph.claimUserId(id, true)).orElseGet(graph::newId);
        final VertexRecord record = VertexRecord.empty(graph.names().intern(label));
        for (int i = 0; i < keyValues.length; i += 2) {
            if (keyValues[i] instanceof T) {
                continue;
            }
            final String key = (String) keyValues[i];
            final Object value = keyValues[i + 1];
            if (value == null) {
                continue; // null values are not stored
            }
            ElementHelper.validateProperty(key, value);
            final int keyId = graph.names().intern(key);
            // Every value given to addVertex is kept, a key given twice gets two properties (list cardinality),
            // as TinkerGraph does and as addV().property(k, a).property(k, b) expects.
            record.properties.add(new VertexRecord.Entry(new PropertyField(keyId, ValueCodec.encode(value)),
                graph.newId(), new ArrayList<>(0)));
        }
        return new NewVertex(vid, suppliedId.isPresent(), label, record.encode());
    }

    /** The record of a vertex with the default label and no properties. */
    byte[] plainVertexRecord() {
        return VertexRecord.empty(graph.names().intern(Vertex.DEFAULT_LABEL)).encode();
    }

    NewEdge edge(final String label, final Object... keyValues) {
        ElementHelper.validateLabel(label);
        if (keyValues.length == 0) { // the common case of a load: nothing to validate, no map to fill
            return new NewEdge(graph.newId(), false, graph.names().internEdgeLabel(label), Map.of());
        }
        ElementHelper.legalPropertyKeyValueArray(keyValues);
        // Properties by key, the last value of a key given twice winning (as a later property(k, v) would), so the
        // edge's writes hold one update per field and may run in any order.
        final Map<String, Object> properties = new LinkedHashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            if (!(keyValues[i] instanceof T) && keyValues[i + 1] != null) {
                ElementHelper.validateProperty((String) keyValues[i], keyValues[i + 1]);
                properties.put((String) keyValues[i], keyValues[i + 1]);
            }
        }
        final Optional<Object> suppliedId = ElementHelper.getIdValue(keyValues);
        final long id = suppliedId.map(x -> graph.claimUserId(x, false)).orElseGet(graph::newId);
        return new NewEdge(id, suppliedId.isPresent(), graph.names().internEdgeLabel(label), properties);
    }

    /**
     * Adds an edge's index record (only a supplied id has one: a compact id is found from its out-vertex) and its
     * properties to {@code writes}; its adjacency entries are the caller's.
     */
    void addRecords(final NewEdge edge, final long outVid, final long inVid, final UpdateBatch writes) {
        if (edge.suppliedId()) {
            writes.add(GraphKeys.edgeIndex(edge.id()), Mutators.SET,
                new EdgeIndexRecord(outVid, edge.label(), inVid).encode());
        }
        for (final Map.Entry<String, Object> p : edge.properties().entrySet()) {
            final PropertyField field = new PropertyField(graph.names().intern(p.getKey()), ValueCodec.encode(p.getValue()));
            writes.add(GraphKeys.edgeProperties(outVid, edge.label()), GraphMutations.EDGE_PROPERTIES,
                EdgeOps.set(edge.number(), field));
        }
    }
}
