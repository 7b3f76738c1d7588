package io.pragh.gremlin.events;

/**
 * Concerto's six events on a view's members: a read or an update of a vertex, of an edge, of a property.
 *
 * <ul>
 *   <li>{@link #VERTEX_UPDATE}: a member vertex was written whole (created, replaced) or removed;</li>
 *   <li>{@link #PROPERTY_UPDATE}: a property of a member vertex, or of an edge out of a member, was set or
 *   removed;</li>
 *   <li>{@link #EDGE_UPDATE}: an edge between two members was added (or one out of a member removed);</li>
 *   <li>{@link #VERTEX_READ}, {@link #EDGE_READ}, {@link #PROPERTY_READ}: a GET of a member's vertex record, of its
 *   outgoing adjacency, of its outgoing edges' property record.</li>
 * </ul>
 *
 * <p>Example: {@code events.subscribe("incidents", "paloAlto", EventKind.PROPERTY_UPDATE);}
 */
public enum EventKind {
    VERTEX_READ, VERTEX_UPDATE, EDGE_READ, EDGE_UPDATE, PROPERTY_READ, PROPERTY_UPDATE;

    /** This kind's bit in a mask of kinds. */
    public int bit() {
        return 1 << ordinal();
    }

    public boolean isRead() {
        return this == VERTEX_READ || this == EDGE_READ || this == PROPERTY_READ;
    }

    /** The kind named {@code name}, or an error listing the names there are. */
    public static EventKind parse(final String name) {
        for (final EventKind k : values()) {
            if (k.name().equalsIgnoreCase(name)) {
                return k;
            }
        }
        throw new IllegalArgumentException("no event kind '" + name + "': kinds are "
            + java.util.Arrays.toString(values()));
    }
}
