package io.pragh.gremlin.structure;

import org.apache.tinkerpop.gremlin.structure.Element;
import org.apache.tinkerpop.gremlin.structure.util.ElementHelper;

/**
 * What vertices and edges share: the graph they belong to and a number, a vertex's id or an edge's edge number (its
 * id is then made from it, see {@link EdgeIds}). Equality is TinkerPop's: same kind of element and equal ids.
 *
 * <p>Example: {@code long id = ((PraghElement) v).longId();}
 */
abstract class PraghElement implements Element {
    protected final PraghGraph graph;
    protected final long id;

    PraghElement(final PraghGraph graph, final long id) {
        this.graph = graph;
        this.id = id;
    }

    @Override
    public Object id() {
        return id;
    }

    /** A vertex's id without boxing; an edge's number (as its adjacency entries carry it). */
    public long longId() {
        return id;
    }

    @Override
    public PraghGraph graph() {
        return graph;
    }

    /** The error for using an element that was removed, worded as TinkerGraph words it. */
    static IllegalStateException removed(final Class<? extends Element> kind, final Object id) {
        return new IllegalStateException(kind.getSimpleName() + " with id " + id + " was removed.");
    }

    @Override
    public boolean equals(final Object other) {
        return ElementHelper.areEqual(this, other);
    }

    @Override
    public int hashCode() {
        return ElementHelper.hashCode(this);
    }
}
