package io.pragh.bench.views;

import io.pragh.gremlin.storage.Adjacency;
import io.pragh.gremlin.storage.GraphKeys;
import io.pragh.gremlin.storage.VertexRecord;
import io.pragh.gremlin.structure.GraphStore;
import io.pragh.gremlin.structure.PraghGraph;
import io.pragh.gremlin.view.PraghViews;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.structure.Vertex;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The road network of Concerto's traffic case study, generated: a {@code width x height} grid of intersections
 * (vertex id {@code y * width + x}, a {@code speed} sensor property), a {@code road} edge each way between grid
 * neighbours, and {@value #MUNICIPALITIES} municipality views (vertical strips {@code m0..m9}) plus the view
 * {@code impacted}. {@link #analyse} is the incident work both the handler and the polling client do: mark the
 * incident's 2-hop neighbourhood impacted, then find the shortest detour (BFS) from the intersection three west of it
 * to the one three east of it that avoids every impacted intersection, and write its length as a property of the
 * municipality.
 *
 * <p>Example: {@code RoadNetwork roads = RoadNetwork.build(graph, 100, 100); roads.analyse(4242L);}
 */
final class RoadNetwork {
    static final int MUNICIPALITIES = 10;
    static final String SPEED = "speed";
    /** The detour search gives up beyond this many hops (an incident boxed in by others). */
    private static final int MAX_DETOUR = 64;

    final PraghGraph graph;
    final PraghViews views;
    final int width;
    final int height;
    final Vertex[] vertices;
    private final GraphStore store;
    private final int road;
    private volatile int impacted;

    private RoadNetwork(final PraghGraph graph, final int width, final int height, final Vertex[] vertices) {
        this.graph = graph;
        this.views = PraghViews.of(graph);
        this.width = width;
        this.height = height;
        this.vertices = vertices;
        this.store = graph.store();
        this.road = store.names().id("road");
        this.impacted = views.create("impacted");
    }

    static RoadNetwork build(final PraghGraph graph, final int width, final int height) {
        if (width < MUNICIPALITIES || height < 2) {
            throw new IllegalArgumentException("a road grid needs a width of at least " + MUNICIPALITIES
                + " (one strip per municipality) and a height of at least 2; got " + width + " x " + height);
        }
        final Vertex[] vs = new Vertex[width * height];
        for (int i = 0; i < vs.length; i++) {
            vs[i] = graph.addVertex(T.id, (long) i, T.label, "intersection", SPEED, 60);
        }
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                final Vertex v = vs[y * width + x];
                if (x + 1 < width) {
                    v.addEdge("road", vs[y * width + x + 1]);
                    vs[y * width + x + 1].addEdge("road", v);
                }
                if (y + 1 < height) {
                    v.addEdge("road", vs[(y + 1) * width + x]);
                    vs[(y + 1) * width + x].addEdge("road", v);
                }
            }
        }
        final RoadNetwork roads = new RoadNetwork(graph, width, height, vs);
        for (int m = 0; m < MUNICIPALITIES; m++) {
            roads.views.create(municipality(m));
            roads.views.add(municipality(m), roads.municipalityMembers(m));
        }
        return roads;
    }

    /**
     * The intersections of municipality {@code m} (its vertical strip of the grid), known from the grid itself: a
     * client outside the cluster cannot scan a view's members.
     */
    long[] municipalityMembers(final int m) {
        final List<Long> members = new ArrayList<>();
        for (int y = 0; y < height; y++) {
            for (int x = m * width / MUNICIPALITIES; x < (m + 1) * width / MUNICIPALITIES; x++) {
                members.add(vid(vertices[y * width + x]));
            }
        }
        return members.stream().mapToLong(Long::longValue).toArray();
    }

    static String municipality(final int m) {
        return "m" + m;
    }

    static long vid(final Vertex v) {
        return PraghGraph.toVid(v.id());
    }

    /** Empties the impacted view (between runs). */
    void clearImpacted() {
        views.drop("impacted");
        impacted = views.create("impacted");
    }

    /** The speed in a vertex record (-1 when it has none). */
    int speed(final byte[] record, final int speedKey) {
        if (record == null) {
            return -1;
        }
        for (final VertexRecord.Entry e : VertexRecord.decode(record).properties) {
            if (e.field.key == speedKey) {
                return ((Number) e.field.value()).intValue();
            }
        }
        return -1;
    }

    /** Incident at intersection {@code vid}: impact analysis, then the detour; returns the detour's hops or -1. */
    int analyse(final long vid) {
        final List<Long> hit = new ArrayList<>();
        hit.add(vid);
        for (final long n : neighbours(vid)) {
            hit.add(n);
            for (final long nn : neighbours(n)) {
                hit.add(nn);
            }
        }
        views.add("impacted", hit.stream().mapToLong(Long::longValue).distinct().toArray());
        final int x = (int) (vid % width);
        final int hops = detour(vid - Math.min(3, x), vid + Math.min(3, width - 1 - x));
        views.property(municipality(Math.min(MUNICIPALITIES - 1, x * MUNICIPALITIES / width)), "detour", hops);
        return hops;
    }

    private long[] neighbours(final long vid) {
        final byte[] adj = store.get(GraphKeys.out(vid, road));
        if (adj == null) {
            return new long[0];
        }
        final long[] out = new long[Adjacency.count(adj)];
        for (int i = 0; i < out.length; i++) {
            out[i] = Adjacency.neighbour(adj, i);
        }
        return out;
    }

    /** BFS from {@code from} to {@code to} over intersections outside the impacted view. */
    private int detour(final long from, final long to) {
        if (from == to) {
            return 0;
        }
        final java.util.HashMap<Long, Integer> depth = new java.util.HashMap<>();
        final ArrayDeque<Long> queue = new ArrayDeque<>();
        depth.put(from, 0);
        queue.add(from);
        while (!queue.isEmpty()) {
            final long v = queue.poll();
            final int d = depth.get(v);
            if (d >= MAX_DETOUR) {
                break;
            }
            for (final long n : neighbours(v)) {
                if (depth.containsKey(n) || views.contains(impacted, n)) {
                    continue;
                }
                if (n == to) {
                    return d + 1;
                }
                depth.put(n, d + 1);
                queue.add(n);
            }
        }
        return -1;
    }
}
