package io.pragh.gremlin.view;

import io.pragh.gremlin.storage.GraphKeys;
import io.pragh.gremlin.storage.ViewRecords;
import io.pragh.gremlin.structure.GraphStore;
import io.pragh.gremlin.structure.PraghGraph;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.LongBinaryOperator;

/**
 * Named vertex views of one graph (Concerto's views): create, add and remove members, union / intersection /
 * difference into a new view, drop, and a property space per view and per member. Every change is an ordinary
 * store update ({@link ViewRecords}), so a durable cluster logs and recovers views with the rest of the graph.
 * A member's view lookup is one GET of the record homed with it. Installs the {@code pragh.view} service on the
 * graph.
 *
 * <p>Example:
 * <pre>{@code
 * PraghViews views = PraghViews.of(graph);
 * views.create("paloAlto");
 * views.add("paloAlto", 1L, 2L, 3L);
 * long n = views.withView(graph.traversal(), "paloAlto").V().count().next();   // 3
 * }</pre>
 */
public final class PraghViews {
    private final PraghGraph graph;
    private final GraphStore store;

    private PraghViews(final PraghGraph graph) {
        this.graph = graph;
        this.store = graph.store();
    }

    /** The views of {@code graph}, with its {@code pragh.view} service registered. */
    public static PraghViews of(final PraghGraph graph) {
        final PraghViews views = new PraghViews(graph);
        // Registering again replaces the earlier service: the latest handle serves the calls.
        graph.getServiceRegistry().registerService(new ViewService(views));
        return views;
    }

    public PraghGraph graph() {
        return graph;
    }

    /** View name to view number, as stored now. */
    public Map<String, Integer> names() {
        return ViewRecords.catalog(store.get(ViewRecords.catalog()));
    }

    /** Creates view {@code name} (no-op when it exists) and returns its number. */
    public int create(final String name) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("a view needs a non-empty name");
        }
        store.update(ViewRecords.catalog(), ViewRecords.CATALOG, ViewRecords.createView(name));
        final Integer view = names().get(name);
        if (view == null) {
            throw new IllegalStateException("cannot create view '" + name + "': a graph holds at most "
                + ViewRecords.MAX_VIEWS + " views; drop one first");
        }
        return view;
    }

    /** The number of view {@code name}, or an error naming it when there is no such view. */
    public int id(final String name) {
        final Integer view = names().get(name);
        if (view == null) {
            throw new IllegalArgumentException("no view '" + name + "': views are " + names().keySet());
        }
        return view;
    }

    public boolean exists(final String name) {
        return names().containsKey(name);
    }

    public void add(final String name, final long... vids) {
        final byte[] arg = ViewRecords.setBits(1L << id(name));
        for (final long vid : vids) {
            store.update(ViewRecords.members(vid), ViewRecords.BITS, arg);
        }
    }

    public void remove(final String name, final long... vids) {
        final int view = id(name);
        final byte[] arg = ViewRecords.clearBits(1L << view);
        for (final long vid : vids) {
            store.update(ViewRecords.members(vid), ViewRecords.BITS, arg);
            store.delete(ViewRecords.memberProperties(vid, view));
        }
    }

    /** Whether vertex {@code vid} is a member of view number {@code view}: one GET, at the vertex's home. */
    public boolean contains(final int view, final long vid) {
        return (ViewRecords.bits(store.get(ViewRecords.members(vid))) & (1L << view)) != 0;
    }

    public boolean contains(final String name, final long vid) {
        return contains(id(name), vid);
    }

    /** The members of view {@code name}, in no particular order: a scan of the membership records. */
    public long[] members(final String name) {
        final long mask = 1L << id(name);
        final List<Long> out = new ArrayList<>();
        forEachMembership((vid, bits) -> {
            if ((bits & mask) != 0) {
                out.add(vid);
            }
            return 0;
        });
        return out.stream().mapToLong(Long::longValue).toArray();
    }

    public int union(final String target, final String a, final String b) {
        return combine(target, a, b, (x, y) -> x | y);
    }

    public int intersection(final String target, final String a, final String b) {
        return combine(target, a, b, (x, y) -> x & y);
    }

    public int difference(final String target, final String a, final String b) {
        return combine(target, a, b, (x, y) -> x & ~y);
    }

    /** Makes {@code target} (created when absent) hold the vertices for which {@code op} of membership bits is 1. */
    private int combine(final String target, final String a, final String b, final LongBinaryOperator op) {
        final int va = id(a);
        final int vb = id(b);
        final int vt = create(target);
        final byte[] set = ViewRecords.setBits(1L << vt);
        final byte[] clear = ViewRecords.clearBits(1L << vt);
        final List<long[]> changes = new ArrayList<>();
        forEachMembership((vid, bits) -> {
            final long in = op.applyAsLong(bits >>> va, bits >>> vb) & 1L;
            if (in != ((bits >>> vt) & 1L)) {
                changes.add(new long[] {vid, in});
            }
            return 0;
        });
        for (final long[] c : changes) {
            store.update(ViewRecords.members(c[0]), ViewRecords.BITS, c[1] == 1 ? set : clear);
        }
        return vt;
    }

    /** Drops view {@code name}: its members leave it, its properties go, then its number is free again. */
    public void drop(final String name) {
        final int view = id(name);
        for (final long vid : members(name)) {
            store.update(ViewRecords.members(vid), ViewRecords.BITS, ViewRecords.clearBits(1L << view));
            store.delete(ViewRecords.memberProperties(vid, view));
        }
        store.delete(ViewRecords.viewProperties(view));
        store.update(ViewRecords.catalog(), ViewRecords.CATALOG, ViewRecords.dropView(name));
    }

    /** Sets (or, with a null value, removes) a property of view {@code name} itself. */
    public void property(final String name, final String key, final Object value) {
        store.update(ViewRecords.viewProperties(id(name)), ViewRecords.PROPERTY, ViewRecords.property(key, value));
    }

    public Map<String, Object> properties(final String name) {
        return ViewRecords.properties(store.get(ViewRecords.viewProperties(id(name))));
    }

    /** Sets (or removes) a property of member {@code vid} within view {@code name}; the vertex must be a member. */
    public void memberProperty(final String name, final long vid, final String key, final Object value) {
        final int view = id(name);
        if (!contains(view, vid)) {
            throw new IllegalArgumentException("vertex " + vid + " is not a member of view '" + name + "'");
        }
        store.update(ViewRecords.memberProperties(vid, view), ViewRecords.PROPERTY, ViewRecords.property(key, value));
    }

    public Map<String, Object> memberProperties(final String name, final long vid) {
        return ViewRecords.properties(store.get(ViewRecords.memberProperties(vid, id(name))));
    }

    /** {@code g} constrained to the members of view {@code name} (vertices, and edges between members). */
    public GraphTraversalSource withView(final GraphTraversalSource g, final String name) {
        return g.withStrategies(ViewStrategy.of(this, id(name)));
    }

    private void forEachMembership(final LongBinaryOperator visit) {
        // Keys first, values after: no GET runs inside the index scan.
        final List<Long> keys = new ArrayList<>();
        store.forEachKey(ViewRecords.VIEW, key -> {
            if (ViewRecords.isMembership(key)) {
                keys.add(key);
            }
        });
        for (final long key : keys) {
            visit.applyAsLong(GraphKeys.vid(key), ViewRecords.bits(store.get(key)));
        }
    }
}
