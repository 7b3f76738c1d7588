package io.pragh.gremlin.structure;

import io.pragh.gremlin.storage.EdgeOps;
import io.pragh.gremlin.storage.EdgePropertiesRecord;
import io.pragh.gremlin.storage.GraphKeys;
import io.pragh.gremlin.storage.GraphMutations;
import io.pragh.gremlin.storage.PropertyField;
import io.pragh.gremlin.storage.ValueCodec;
import org.apache.tinkerpop.gremlin.structure.Direction;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.Property;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.structure.util.ElementHelper;
import org.apache.tinkerpop.gremlin.structure.util.StringFactory;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;

/**
 * An edge handle: its edge number (as its adjacency entries carry it, see {@link EdgeIds}), both endpoint ids and its
 * label id, all immutable. Its properties live in the EDGE record of its out-vertex and label, by edge number, so they
 * share the out-vertex's home machine. Its id is compact ({@code "outVid-label-number"}) unless it was supplied.
 *
 * <p>Example: {@code Edge e = a.addEdge("knows", b, "weight", 0.5d); double w = e.value("weight");}
 */
public final class PraghEdge extends PraghElement implements Edge {
    final long outVid;
    final int label;
    final long inVid;
    /** {@link #id()}, made on first use (a compact id is a string); racy but idempotent. */
    private Object tinkerPopId;

    PraghEdge(final PraghGraph graph, final long edgeNumber, final long outVid, final int label, final long inVid) {
        super(graph, edgeNumber);
        this.outVid = outVid;
        this.label = label;
        this.inVid = inVid;
    }

    @Override
    public Object id() {
        Object i = tinkerPopId;
        if (i == null) {
            i = EdgeIds.id(outVid, label, id);
            tinkerPopId = i;
        }
        return i;
    }

    @Override
    public String label() {
        return graph.names().name(label);
    }

    @Override
    public Vertex outVertex() {
        return new PraghVertex(graph, outVid, null);
    }

    @Override
    public Vertex inVertex() {
        return new PraghVertex(graph, inVid, null);
    }

    @Override
    public Iterator<Vertex> vertices(final Direction direction) {
        switch (direction) {
            case OUT: return Collections.singletonList(outVertex()).iterator();
            case IN: return Collections.singletonList(inVertex()).iterator();
            default: return List.of(outVertex(), inVertex()).iterator();
        }
    }

    @Override
    public <V> Property<V> property(final String key, final V value) {
        if (value == null) {
            // Null values are not stored: setting one removes the key, as TinkerPop asks of such graphs.
            checkExists();
            removeProperty(key);
            return Property.empty();
        }
        ElementHelper.validateProperty(key, value);
        checkExists();
        final PropertyField field = new PropertyField(graph.names().intern(key), ValueCodec.encode(value));
        graph.store().update(propertiesKey(), GraphMutations.EDGE_PROPERTIES, EdgeOps.set(id, field));
        return new PraghProperty<>(this, key, value);
    }

    @Override
    @SuppressWarnings("unchecked")
    public <V> Iterator<Property<V>> properties(final String... propertyKeys) {
        final List<PropertyField> fields = EdgePropertiesRecord.decode(graph.store().get(propertiesKey())).edges.get(id);
        if (fields == null) {
            return PraghGraph.none();
        }
        final List<Property<V>> out = new ArrayList<>(fields.size());
        for (final PropertyField f : fields) {
            final String key = graph.names().name(f.key);
            if (propertyKeys.length == 0 || ElementHelper.keyExists(key, propertyKeys)) {
                out.add(new PraghProperty<>(this, key, (V) f.value()));
            }
        }
        return out.iterator();
    }

    void removeProperty(final String key) {
        final int keyId = graph.names().id(key);
        if (keyId > 0) {
            graph.store().update(propertiesKey(), GraphMutations.EDGE_PROPERTIES, EdgeOps.remove(id, keyId));
        }
    }

    @Override
    public void remove() {
        checkExists();
        graph.edgeStore().remove(this);
    }

    private void checkExists() {
        if (!graph.edgeStore().exists(this)) {
            throw PraghElement.removed(Edge.class, id());
        }
    }

    private long propertiesKey() {
        return GraphKeys.edgeProperties(outVid, label);
    }

    /** Out-vertex id, label id and in-vertex id, for code that walks edges without handles. */
    public long outVid() {
        return outVid;
    }

    public long inVid() {
        return inVid;
    }

    /** The dictionary id of the edge's label. */
    public int labelId() {
        return label;
    }

    /** The TinkerPop id of the edge of label id {@code label} out of {@code outVid} whose entries carry {@code number}. */
    public static Object idOf(final long outVid, final int label, final long number) {
        return EdgeIds.id(outVid, label, number);
    }

    @Override
    public String toString() {
        return StringFactory.edgeString(this);
    }
}
