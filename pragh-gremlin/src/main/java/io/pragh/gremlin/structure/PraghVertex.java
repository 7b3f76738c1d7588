package io.pragh.gremlin.structure;

import io.pragh.gremlin.storage.PropertyField;
import io.pragh.gremlin.storage.ValueCodec;
import io.pragh.gremlin.storage.VertexOps;
import io.pragh.gremlin.storage.VertexRecord;
import org.apache.tinkerpop.gremlin.structure.Direction;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.structure.VertexProperty;
import org.apache.tinkerpop.gremlin.structure.util.ElementHelper;
import org.apache.tinkerpop.gremlin.structure.util.StringFactory;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;

/**
 * A vertex handle: its id and (once known) its label. Properties are read from the vertex record on every call and
 * written by mutators at the record's host; edges and neighbours are read from the OUT and IN keys of each label.
 *
 * <p>Example: {@code Vertex v = graph.vertices(1L).next(); v.property("age", 29); v.edges(Direction.OUT, "knows");}
 */
public final class PraghVertex extends PraghElement implements Vertex {
    private volatile String label;
    /**
     * The graph's {@link PraghGraph#vertexRemovals} count when this handle was last seen to exist (added or read by
     * this graph), or -1: while that count has not moved, {@code addEdge} need not read the vertex record to know the
     * vertex exists. A removal through another graph over the store goes unseen, as it would between a read and the
     * write that follows it.
     */
    private volatile long knownAt = -1;

    PraghVertex(final PraghGraph graph, final long id, final String label) {
        super(graph, id);
        this.label = label;
    }

    /** A handle on a vertex this graph has just seen exist, at removal count {@code epoch}. */
    static PraghVertex known(final PraghGraph graph, final long id, final String label, final long epoch) {
        final PraghVertex v = new PraghVertex(graph, id, label);
        v.knownAt = epoch;
        return v;
    }

    boolean knownAt(final long epoch) {
        return knownAt == epoch;
    }

    void markKnown(final long epoch) {
        knownAt = epoch;
    }

    @Override
    public String label() {
        String l = label;
        if (l == null) {
            l = graph.names().name(record().label);
            label = l;
        }
        return l;
    }

    @Override
    public Edge addEdge(final String label, final Vertex inVertex, final Object... keyValues) {
        return graph.addEdge(this, label, inVertex, keyValues);
    }

    @Override
    public <V> VertexProperty<V> property(final String key) {
        final VertexRecord record = graph.vertexRecord(id);
        if (record == null) {
            throw PraghElement.removed(Vertex.class, id);
        }
        final int keyId = graph.names().id(key);
        VertexRecord.Entry found = null;
        for (final VertexRecord.Entry e : record.properties) {
            if (e.field.key == keyId) {
                if (found != null) {
                    throw Vertex.Exceptions.multiplePropertiesExistForProvidedKey(key);
                }
                found = e;
            }
        }
        return found == null ? VertexProperty.empty() : new PraghVertexProperty<>(this, key, found);
    }

    @Override
    public <V> VertexProperty<V> property(final VertexProperty.Cardinality cardinality, final String key, final V value,
                                          final Object... keyValues) {
        ElementHelper.legalPropertyKeyValueArray(keyValues);
        if (value == null) {
            // Null values are not stored: a single-valued null removes the key, a list or set one adds nothing.
            if (cardinality == VertexProperty.Cardinality.single) {
                properties(key).forEachRemaining(VertexProperty::remove);
            }
            return VertexProperty.empty();
        }
        ElementHelper.validateProperty(key, value);
        if (ElementHelper.getIdValue(keyValues).isPresent()) {
            throw VertexProperty.Exceptions.userSuppliedIdsNotSupported();
        }
        if (graph.vertexRecord(id) == null) {
            throw PraghElement.removed(Vertex.class, id);
        }
        if (cardinality == VertexProperty.Cardinality.set) {
            final Optional<VertexProperty<V>> existing = ElementHelper.stageVertexProperty(this, cardinality, key, value, keyValues);
            if (existing.isPresent()) {
                return existing.get();
            }
        }
        final List<PropertyField> metas = new ArrayList<>(keyValues.length / 2);
        for (int i = 0; i < keyValues.length; i += 2) {
            if (keyValues[i] instanceof T || keyValues[i + 1] == null) {
                continue;
            }
            ElementHelper.validateProperty((String) keyValues[i], keyValues[i + 1]);
            metas.add(new PropertyField(graph.names().intern((String) keyValues[i]), ValueCodec.encode(keyValues[i + 1])));
        }
        final PropertyField field = new PropertyField(graph.names().intern(key), ValueCodec.encode(value));
        final long propertyId = graph.newId();
        final int code = cardinality == VertexProperty.Cardinality.single ? VertexOps.SINGLE
            : cardinality == VertexProperty.Cardinality.set ? VertexOps.SET : VertexOps.LIST;
        graph.updateVertex(id, VertexOps.add(code, field, propertyId, metas));
        return new PraghVertexProperty<>(this, key, value, propertyId);
    }

    @Override
    @SuppressWarnings("unchecked")
    public <V> Iterator<VertexProperty<V>> properties(final String... propertyKeys) {
        final VertexRecord record = graph.vertexRecord(id);
        if (record == null) {
            return PraghGraph.none();
        }
        final List<VertexProperty<V>> out = new ArrayList<>(record.properties.size());
        for (final VertexRecord.Entry e : record.properties) {
            final String key = graph.names().name(e.field.key);
            if (propertyKeys.length == 0 || ElementHelper.keyExists(key, propertyKeys)) {
                out.add(new PraghVertexProperty<>(this, key, e));
            }
        }
        return out.iterator();
    }

    @Override
    public Iterator<Edge> edges(final Direction direction, final String... edgeLabels) {
        final List<Edge> out = new ArrayList<>();
        graph.edgeStore().collect(id, direction, graph.edgeLabelIds(edgeLabels), out);
        return out.iterator();
    }

    @Override
    public Iterator<Vertex> vertices(final Direction direction, final String... edgeLabels) {
        final List<Vertex> out = new ArrayList<>();
        graph.edgeStore().collectNeighbours(id, direction, graph.edgeLabelIds(edgeLabels), out);
        return out.iterator();
    }

    @Override
    public void remove() {
        if (graph.vertexRecord(id) == null) {
            throw PraghElement.removed(Vertex.class, id);
        }
        graph.removeVertex(id);
    }

    VertexRecord record() {
        final VertexRecord r = graph.vertexRecord(id);
        if (r == null) {
            throw PraghElement.removed(Vertex.class, id);
        }
        return r;
    }

    @Override
    public String toString() {
        return StringFactory.vertexString(this);
    }
}
