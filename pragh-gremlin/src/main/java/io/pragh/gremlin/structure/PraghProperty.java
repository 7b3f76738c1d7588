package io.pragh.gremlin.structure;

import org.apache.tinkerpop.gremlin.structure.Element;
import org.apache.tinkerpop.gremlin.structure.Property;
import org.apache.tinkerpop.gremlin.structure.util.ElementHelper;
import org.apache.tinkerpop.gremlin.structure.util.StringFactory;

import java.util.NoSuchElementException;

/**
 * A key and value on an edge, or a meta-property on a vertex property, as read.
 *
 * <p>Example: {@code Property<Double> w = edge.property("weight"); w.remove();}
 */
public final class PraghProperty<V> implements Property<V> {
    private final Element element;
    private final String key;
    private final V value;

    PraghProperty(final Element element, final String key, final V value) {
        this.element = element;
        this.key = key;
        this.value = value;
    }

    @Override
    public String key() {
        return key;
    }

    @Override
    public V value() throws NoSuchElementException {
        return value;
    }

    @Override
    public boolean isPresent() {
        return true;
    }

    @Override
    public Element element() {
        return element;
    }

    @Override
    public void remove() {
        if (element instanceof PraghEdge) {
            ((PraghEdge) element).removeProperty(key);
        } else {
            ((PraghVertexProperty<?>) element).removeMeta(key);
        }
    }

    @Override
    public boolean equals(final Object other) {
        return ElementHelper.areEqual(this, other);
    }

    @Override
    public int hashCode() {
        return ElementHelper.hashCode(this);
    }

    @Override
    public String toString() {
        return StringFactory.propertyString(this);
    }
}
