package io.pragh.gremlin.events;

import io.pragh.gremlin.view.PraghViews;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One event delivered to a handler: what happened ({@link #kind}), to which member ({@link #vid}) of which view,
 * the store key and version of the committed update (version 0 for reads), and, for a property set, its name and
 * value. {@link #views} gives the handler the graph to read and the view property space to write.
 * {@link #committedNanos} is the {@code System.nanoTime()} at which the update committed on this machine (or the
 * read happened): a handler's latency is measured from it. {@link #machine} and {@link #host} say where: a read
 * whose value was on another machine than its reader's was a remote read (what view-driven migration counts).
 *
 * <p>Example: {@code (ViewHandler.PropertyUpdate) e -> e.views().property(e.view(), "last", e.value())}
 */
public final class ViewEvent {
    private final EventKind kind;
    private final String view;
    private final long vid;
    private final long key;
    private final long version;
    private final String property;
    private final Object value;
    private final long committedNanos;
    private final int machine;
    private final int host;
    private final PraghViews views;

    ViewEvent(final EventKind kind, final String view, final long vid, final long key, final long version,
              final String property, final Object value, final long committedNanos, final int machine,
              final int host, final PraghViews views) {
        this.kind = kind;
        this.view = view;
        this.vid = vid;
        this.key = key;
        this.version = version;
        this.property = property;
        this.value = value;
        this.committedNanos = committedNanos;
        this.machine = machine;
        this.host = host;
        this.views = views;
    }

    public EventKind kind() {
        return kind;
    }

    public String view() {
        return view;
    }

    /** The member vertex (for an edge or an edge property: the edge's out-vertex). */
    public long vid() {
        return vid;
    }

    public long key() {
        return key;
    }

    /** The version the update gave the key (increasing per key); 0 for a read. */
    public long version() {
        return version;
    }

    /** The property set, or null (a removal, or an event that is not a property set). */
    public String property() {
        return property;
    }

    public Object value() {
        return value;
    }

    public long committedNanos() {
        return committedNanos;
    }

    /** The machine the event happened on: the one that read, or the one the update committed on. */
    public int machine() {
        return machine;
    }

    /**
     * The machine the value was on: for a read, where it was read from (not {@link #machine}: a remote read); for an
     * update, where it committed (the value's host).
     */
    public int host() {
        return host;
    }

    /** The graph's views: read the graph through {@code views().graph()}, write view properties through it. */
    public PraghViews views() {
        return views;
    }

    /** The event as a map of plain values, as a remote subscriber receives it. */
    public Map<String, Object> toMap() {
        final Map<String, Object> m = new LinkedHashMap<>();
        m.put("kind", kind.name());
        m.put("view", view);
        m.put("vid", vid);
        m.put("version", version);
        if (property != null) {
            m.put("property", property);
            m.put("value", value);
        }
        return m;
    }

    @Override
    public String toString() {
        return toMap().toString();
    }
}
