package io.pragh.gremlin.events;

/**
 * Java handlers of view events, one interface per event kind (Concerto's six); a handler object may implement
 * several. Handlers run on the event pool of the machine the member lives on, never on a request's thread; they may
 * read the graph and write view properties through {@link ViewEvent#views}. One handler sees the events of one
 * member in update order, one at a time. A handler that throws is counted ({@link ViewEvents#failures}) and the
 * next event is delivered as usual.
 *
 * <p>Example:
 * <pre>{@code
 * events.handle("incidents", (ViewHandler.PropertyUpdate) e -> {
 *     if ("incident".equals(e.property())) e.views().property(e.view(), "lastIncident", e.vid());
 * });
 * }</pre>
 */
public interface ViewHandler {
    /** Whether this handler takes events of {@code kind}. */
    default boolean takes(final EventKind kind) {
        switch (kind) {
            case VERTEX_READ: return this instanceof VertexRead;
            case VERTEX_UPDATE: return this instanceof VertexUpdate;
            case EDGE_READ: return this instanceof EdgeRead;
            case EDGE_UPDATE: return this instanceof EdgeUpdate;
            case PROPERTY_READ: return this instanceof PropertyRead;
            default: return this instanceof PropertyUpdate;
        }
    }

    /** Hands {@code e} to the method of its kind. */
    default void deliver(final ViewEvent e) {
        switch (e.kind()) {
            case VERTEX_READ: ((VertexRead) this).onVertexRead(e); break;
            case VERTEX_UPDATE: ((VertexUpdate) this).onVertexUpdate(e); break;
            case EDGE_READ: ((EdgeRead) this).onEdgeRead(e); break;
            case EDGE_UPDATE: ((EdgeUpdate) this).onEdgeUpdate(e); break;
            case PROPERTY_READ: ((PropertyRead) this).onPropertyRead(e); break;
            default: ((PropertyUpdate) this).onPropertyUpdate(e); break;
        }
    }

    @FunctionalInterface
    interface VertexRead extends ViewHandler {
        void onVertexRead(ViewEvent e);
    }

    @FunctionalInterface
    interface VertexUpdate extends ViewHandler {
        void onVertexUpdate(ViewEvent e);
    }

    @FunctionalInterface
    interface EdgeRead extends ViewHandler {
        void onEdgeRead(ViewEvent e);
    }

    @FunctionalInterface
    interface EdgeUpdate extends ViewHandler {
        void onEdgeUpdate(ViewEvent e);
    }

    @FunctionalInterface
    interface PropertyRead extends ViewHandler {
        void onPropertyRead(ViewEvent e);
    }

    @FunctionalInterface
    interface PropertyUpdate extends ViewHandler {
        void onPropertyUpdate(ViewEvent e);
    }
}
