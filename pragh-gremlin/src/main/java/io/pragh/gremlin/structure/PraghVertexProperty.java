package io.pragh.gremlin.structure;

import io.pragh.gremlin.storage.PropertyField;
import io.pragh.gremlin.storage.ValueCodec;
import io.pragh.gremlin.storage.VertexOps;
import io.pragh.gremlin.storage.VertexRecord;
import org.apache.tinkerpop.gremlin.structure.Property;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.structure.VertexProperty;
import org.apache.tinkerpop.gremlin.structure.util.ElementHelper;
import org.apache.tinkerpop.gremlin.structure.util.StringFactory;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * One vertex property: key, value and id as read; its meta-properties are read from the vertex record on demand and
 * written by the vertex mutator at the record's host.
 *
 * <p>Example: {@code VertexProperty<String> p = v.property("location"); p.property("startTime", 1997);}
 */
public final class PraghVertexProperty<V> implements VertexProperty<V> {
    private final PraghVertex vertex;
    private final String key;
    private final V value;
    private final long id;

    PraghVertexProperty(final PraghVertex vertex, final String key, final V value, final long id) {
        this.vertex = vertex;
        this.key = key;
        this.value = value;
        this.id = id;
    }

    @SuppressWarnings("unchecked")
    PraghVertexProperty(final PraghVertex vertex, final String key, final VertexRecord.Entry entry) {
        this(vertex, key, (V) entry.field.value(), entry.id);
    }

    @Override
    public Object id() {
        return id;
    }

    @Override
    public String key() {
        return key;
    }

    @Override
    public V value() {
        return value;
    }

    @Override
    public boolean isPresent() {
        return true;
    }

    @Override
    public Vertex element() {
        return vertex;
    }

    @Override
    public <U> Property<U> property(final String metaKey, final U metaValue) {
        if (metaValue == null) {
            // Null values are not stored: setting one removes the key, as TinkerPop asks of such graphs.
            stored();
            removeMeta(metaKey);
            return Property.empty();
        }
        ElementHelper.validateProperty(metaKey, metaValue);
        stored();
        final PropertyField field = new PropertyField(vertex.graph().names().intern(metaKey), ValueCodec.encode(metaValue));
        vertex.graph().updateVertex(vertex.longId(), VertexOps.setMeta(id, field));
        return new PraghProperty<>(this, metaKey, metaValue);
    }

    @Override
    @SuppressWarnings("unchecked")
    public <U> Iterator<Property<U>> properties(final String... propertyKeys) {
        final VertexRecord record = vertex.graph().vertexRecord(vertex.longId());
        final VertexRecord.Entry entry = record == null ? null : record.find(id);
        if (entry == null) {
            return PraghGraph.none();
        }
        final List<Property<U>> out = new ArrayList<>(entry.metas.size());
        for (final PropertyField f : entry.metas) {
            final String name = vertex.graph().names().name(f.key);
            if (propertyKeys.length == 0 || ElementHelper.keyExists(name, propertyKeys)) {
                out.add(new PraghProperty<>(this, name, (U) f.value()));
            }
        }
        return out.iterator();
    }

    void removeMeta(final String metaKey) {
        final int keyId = vertex.graph().names().id(metaKey);
        if (keyId > 0) {
            vertex.graph().updateVertex(vertex.longId(), VertexOps.removeMeta(id, keyId));
        }
    }

    @Override
    public void remove() {
        final VertexRecord record = vertex.graph().vertexRecord(vertex.longId());
        if (record != null && record.find(id) != null) {
            vertex.graph().updateVertex(vertex.longId(), VertexOps.remove(id));
        }
    }

    private void stored() {
        final VertexRecord record = vertex.graph().vertexRecord(vertex.longId());
        if (record == null || record.find(id) == null) {
            throw PraghElement.removed(VertexProperty.class, id);
        }
    }

    @Override
    public boolean equals(final Object other) {
        return ElementHelper.areEqual(this, other);
    }

    @Override
    public int hashCode() {
        return ElementHelper.hashCode((org.apache.tinkerpop.gremlin.structure.Element) this);
    }

    @Override
    public String toString() {
        return StringFactory.propertyString(this);
    }
}
