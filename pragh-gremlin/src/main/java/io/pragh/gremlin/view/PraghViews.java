package io.pragh.gremlin.view;

import io.pragh.gremlin.storage.GraphKeys;
import io.pragh.gremlin.storage.ViewRecords;
import io.pragh.gremlin.structure.GraphStore;
import io.pragh.gremlin.structure.PraghEdge;
import io.pragh.gremlin.structure.PraghGraph;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.Edge;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.LongBinaryOperator;

/**
 * Named views of one graph (Concerto's views: sets of vertex and edge ids): create, add and remove members, union / intersection /
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

    /**
     * Adds edges to view {@code name} as members of their own (Concerto's views hold vertex and edge ids): an edge
     * member is in the view whether or not its ends are; an edge between two member vertices is in it anyway.
     */
    public void addEdges(final String name, final Edge... edges) {
        edgeBits(name, 1, edges);
    }

    /** Removes edge members (an edge between two member vertices stays in the view through them). */
    public void removeEdges(final String name, final Edge... edges) {
        edgeBits(name, 0, edges);
    }

    private void edgeBits(final String name, final int op, final Edge... edges) {
        final long mask = 1L << id(name);
        for (final Edge edge : edges) {
            final PraghEdge e = (PraghEdge) edge;
            final byte[] arg = ViewRecords.edgeBits(op, e.labelId(), e.longId(), mask);
            store.update(ViewRecords.edgeMembers(e.outVid()), ViewRecords.EDGE_BITS, arg);
            store.update(ViewRecords.edgeEnds(e.inVid()), ViewRecords.EDGE_BITS, arg);
        }
    }

    /** Whether {@code edge} is an edge member of view number {@code view}: one GET, at the edge's home. */
    public boolean containsEdge(final int view, final Edge edge) {
        final PraghEdge e = (PraghEdge) edge;
        return (ViewRecords.edgeBitsOf(store.get(ViewRecords.edgeMembers(e.outVid())), e.longId()) & (1L << view)) != 0;
    }

    /**
     * Whether vertex {@code vid} is in view number {@code view} as a traversal under it sees it: a member, or an end
     * of an edge member (GETs at the vertex's home).
     */
    public boolean holdsVertex(final int view, final long vid) {
        final long bit = 1L << view;
        return contains(view, vid)
            || ((ViewRecords.allBitsOf(store.get(ViewRecords.edgeMembers(vid)))
                | ViewRecords.allBitsOf(store.get(ViewRecords.edgeEnds(vid)))) & bit) != 0;
    }

    /** Whether {@code edge} is in view number {@code view}: an edge member, or an edge between two members. */
    public boolean holdsEdge(final int view, final Edge edge) {
        final PraghEdge e = (PraghEdge) edge;
        return contains(view, e.outVid()) && contains(view, e.inVid()) || containsEdge(view, edge);
    }

    /** The TinkerPop ids of view {@code name}'s edge members, in no particular order: a scan of edge records. */
    public List<Object> edgeMembers(final String name) {
        final long mask = 1L << id(name);
        final List<Object> out = new ArrayList<>();
        forEachEdgeRecord(ViewRecords.EDGE_MEMBERS, (record, outVid) -> ViewRecords.forEachEdge(record,
            (label, number, bits) -> {
                if ((bits & mask) != 0) {
                    out.add(PraghEdge.idOf(outVid, label, number));
                }
            }));
        return out;
    }

    /** Every edge membership record with its out-vertex; keys first, values after (no GET inside the scan). */
    private void forEachEdgeRecord(final int label, final java.util.function.ObjLongConsumer<byte[]> visit) {
        final List<Long> keys = new ArrayList<>();
        store.forEachKey(ViewRecords.VIEW, key -> {
            if (io.pragh.keys.KeyLayout.label(key) == label) {
                keys.add(key);
            }
        });
        for (final long key : keys) {
            visit.accept(store.get(key), GraphKeys.vid(key));
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
        for (final int records : new int[] {ViewRecords.EDGE_MEMBERS, ViewRecords.EDGE_ENDS}) {
            final List<long[]> edges = new ArrayList<>();
            forEachEdgeRecord(records, (record, vid) -> ViewRecords.forEachEdge(record, (label, number, bits) -> {
                if ((bits & (1L << view)) != 0) {
                    edges.add(new long[] {vid, label, number});
                }
            }));
            for (final long[] e : edges) {
                store.update(io.pragh.keys.KeyLayout.key(e[0], records, ViewRecords.VIEW), ViewRecords.EDGE_BITS,
                    ViewRecords.edgeBits(0, (int) e[1], e[2], 1L << view));
            }
        }
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

    /** {@code g} constrained to view {@code name}: its member vertices, its edge members and edges between members. */
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
