package io.pragh.gremlin.structure;

import io.pragh.gremlin.storage.Adjacency;
import io.pragh.gremlin.storage.EdgeIndexRecord;
import io.pragh.gremlin.storage.EdgeOps;
import io.pragh.gremlin.storage.GraphKeys;
import io.pragh.gremlin.storage.GraphMutations;
import io.pragh.gremlin.storage.NameDictionary;
import io.pragh.gremlin.storage.VertexRecord;
import org.apache.commons.configuration2.BaseConfiguration;
import org.apache.commons.configuration2.Configuration;
import org.apache.tinkerpop.gremlin.process.computer.GraphComputer;
import org.apache.tinkerpop.gremlin.process.traversal.TraversalStrategies;
import org.apache.tinkerpop.gremlin.structure.Direction;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.Graph;
import org.apache.tinkerpop.gremlin.structure.Transaction;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.structure.VertexProperty;
import org.apache.tinkerpop.gremlin.structure.util.StringFactory;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import io.pragh.store.Mutators;
import org.apache.tinkerpop.gremlin.structure.service.ServiceRegistry;

import io.pragh.gremlin.process.PraghHopStrategy;
import io.pragh.gremlin.process.PraghRoutingStrategy;

/**
 * A TinkerPop {@link Graph} whose vertices, edges and properties live in a Pragh split store, by default an embedded
 * cluster of {@value #DEFAULT_MACHINES} machines in this JVM. Ids are longs in 0..2^44-1, user-supplied or assigned;
 * any integral number or decimal string names the same element. Not transactional: each mutation is applied and
 * acknowledged by the store before the call returns (unless {@link #WRITE_BEHIND} buffers adds for a load; a load of
 * many elements has {@link #bulkLoader()} too).
 *
 * <p>Example:
 * <pre>{@code
 * PraghGraph graph = PraghGraph.open();          // or GraphFactory.open(conf) with gremlin.graph=io.pragh.gremlin.structure.PraghGraph
 * Vertex a = graph.addVertex(T.label, "person", "name", "marko");
 * Vertex b = graph.addVertex(T.label, "person", "name", "vadas");
 * a.addEdge("knows", b, "weight", 0.5d);
 * long n = graph.traversal().V(a.id()).out("knows").count().next();
 * graph.close();
 * }</pre>
 */
@Graph.OptIn(Graph.OptIn.SUITE_STRUCTURE_STANDARD)
@Graph.OptOut(test = "org.apache.tinkerpop.gremlin.structure.io.IoGraphTest", method = "shouldReadWriteModernToFileWithHelpers", specific = "gryo-v3",
    reason = PraghGraph.IDS_ARE_LONGS)
@Graph.OptOut(test = "org.apache.tinkerpop.gremlin.structure.io.IoGraphTest", method = "shouldReadWriteClassicToFileWithHelpers", specific = "gryo-v3",
    reason = PraghGraph.IDS_ARE_LONGS)
@Graph.OptOut(test = "org.apache.tinkerpop.gremlin.structure.io.IoGraphTest", method = "shouldReadWriteModern", specific = "gryo-v3",
    reason = PraghGraph.IDS_ARE_LONGS)
@Graph.OptOut(test = "org.apache.tinkerpop.gremlin.structure.io.IoGraphTest", method = "shouldReadWriteClassic", specific = "gryo-v3",
    reason = PraghGraph.IDS_ARE_LONGS)
@Graph.OptOut(test = "org.apache.tinkerpop.gremlin.structure.io.IoGraphTest", method = "shouldReadWriteCrew", specific = "gryo-v3",
    reason = PraghGraph.IDS_ARE_LONGS)
@Graph.OptOut(test = "org.apache.tinkerpop.gremlin.structure.io.IoGraphTest", method = "shouldMigrateModernGraph", specific = "gryo-v3",
    reason = PraghGraph.IDS_ARE_LONGS)
@Graph.OptOut(test = "org.apache.tinkerpop.gremlin.structure.io.IoGraphTest", method = "shouldMigrateClassicGraph", specific = "gryo-v3",
    reason = PraghGraph.IDS_ARE_LONGS)
@Graph.OptOut(test = "org.apache.tinkerpop.gremlin.structure.util.star.StarGraphTest", method = "shouldCopyFromGraphAToGraphB",
    reason = "needs user-supplied vertex property ids: TestHelper.validateVertexEquality matches copied vertex properties"
        + " by id, and PraghGraph assigns vertex property ids itself; the test's feature requirement names VertexFeatures"
        + " instead of VertexPropertyFeatures, so TinkerPop does not skip it as it does the other such tests")
public final class PraghGraph implements Graph {
    /** Why the Gryo round-trip tests are opted out: they expect the Integer ids of the file back. */
    static final String IDS_ARE_LONGS = "Pragh ids are always longs (44-bit keys); these tests expect the Integer ids"
        + " written in the Gryo file to come back as Integers";

    /** Configuration key: machines of the embedded cluster. */
    public static final String MACHINES = "pragh.machines";
    public static final int DEFAULT_MACHINES = 4;
    /**
     * Configuration key: 0 (default), every write is acknowledged before its call returns; a number of edges, {@code
     * addVertex} and {@code addEdge} return at once and are written in batches of that many edges (or before any
     * other operation of this graph), a round trip per batch instead of per element. Errors of a buffered element
     * (a taken id, an edge to a missing vertex) are then raised by the call that writes its batch; other graphs over
     * the store see it once written. For loading through the Structure API (TinkerPop IO readers, applications).
     */
    public static final String WRITE_BEHIND = "pragh.writeBehind";
    /** Configuration key: cardinality of {@code property(key, value)} without one, {@code single} (default) or {@code list}. */
    public static final String DEFAULT_CARDINALITY = "pragh.defaultCardinality";

    static {
        TraversalStrategies.GlobalCache.registerStrategies(PraghGraph.class,
            TraversalStrategies.GlobalCache.getStrategies(Graph.class).clone().addStrategies(PraghHopStrategy.instance(),
                PraghRoutingStrategy.instance()));
    }

    private final Configuration configuration;
    /** What the graph reads and writes through: the backing store, or one that writes {@link #writeBehind} first. */
    private final GraphStore store;
    private final GraphStore backing;
    /** Buffered adds, or null when every write is acknowledged before its call returns. */
    private final WriteBehind writeBehind;
    private final NameDictionary names;
    private final IdAllocator ids;
    private final TraversalRouter router;
    private final ServiceRegistry services = new ServiceRegistry();
    private final PraghFeatures features;
    private final NewElements newElements = new NewElements(this);
    private volatile boolean closed;

    PraghGraph(final Configuration configuration, final GraphStore store, final TraversalRouter router) {
        this.configuration = configuration;
        this.router = router;
        this.backing = store;
        this.names = store.names(); // the store's one dictionary, shared with every other graph over it
        this.ids = new IdAllocator(store); // ids need no buffered write: the backing store's own
        final int batchEdges = configuration.getInt(WRITE_BEHIND, 0);
        this.writeBehind = batchEdges == 0 ? null : new WriteBehind(this, store, newElements, batchEdges);
        this.store = writeBehind == null ? store : writeBehind.store();
        this.features = new PraghFeatures(VertexProperty.Cardinality.valueOf(configuration.getString(DEFAULT_CARDINALITY, "single")));
    }

    /** A graph on a new embedded cluster of {@value #DEFAULT_MACHINES} machines. */
    public static PraghGraph open() {
        return open(new BaseConfiguration());
    }

    /** A graph on a new embedded cluster configured by {@code configuration} ({@link #MACHINES}). */
    public static PraghGraph open(final Configuration configuration) {
        return new PraghGraph(configuration, EmbeddedGraphStore.open(configuration), null);
    }

    /** A graph over a store the caller built (and this graph will close). */
    public static PraghGraph open(final Configuration configuration, final GraphStore store) {
        return new PraghGraph(configuration, store, null);
    }

    /**
     * A graph over a store the caller built (and this graph will close), whose traversals that start at vertices of
     * one home machine run there, as {@code router} decides.
     */
    public static PraghGraph open(final Configuration configuration, final GraphStore store,
                                  final TraversalRouter router) {
        return new PraghGraph(configuration, store, router);
    }

    /** Where traversals that start at {@code V(ids)} run, or null when they all run here (an embedded store). */
    public TraversalRouter router() {
        return router;
    }

    /** Provider services callable with {@code g.call(name)}, such as a machine's routing counters. */
    @Override
    public ServiceRegistry getServiceRegistry() {
        return services;
    }

    /** The store this graph reads and writes through (with {@link #WRITE_BEHIND}, one that writes its buffer first). */
    public GraphStore store() {
        return store;
    }

    /**
     * The store under this graph without {@link #WRITE_BEHIND}'s buffering, for what needs the store itself (its
     * cluster's statistics): reading or writing the graph through it would miss buffered writes.
     */
    public GraphStore backingStore() {
        return backing;
    }

    public NameDictionary names() {
        return names;
    }

    // ------------------------------------------------------------------ vertices

    @Override
    public Vertex addVertex(final Object... keyValues) {
        if (writeBehind != null) {
            final NewElements.NewVertex v = writeBehind.addVertex(keyValues);
            return new PraghVertex(this, v.id(), v.label());
        }
        final NewElements.NewVertex v = newElements.vertex(keyValues);
        // An assigned id is new to the whole store (IdAllocator), so only a supplied one can already be taken.
        if (v.suppliedId() && store.get(GraphKeys.vertex(v.id())) != null) {
            throw Exceptions.vertexWithIdAlreadyExists(v.id());
        }
        store.put(GraphKeys.vertex(v.id()), v.record());
        return new PraghVertex(this, v.id(), v.label());
    }

    /**
     * A loader that adds vertices and edges in batches of {@value BulkLoader#DEFAULT_BATCH_EDGES} edges, a round trip
     * per batch rather than per element: for loading a graph (see {@link BulkLoader}).
     *
     * <pre>{@code
     * try (BulkLoader load = graph.bulkLoader()) {
     *     long a = load.addVertex(T.id, 1L);
     *     long b = load.addVertex(T.id, 2L);
     *     load.addEdge(a, "knows", b);
     * }
     * }</pre>
     */
    public BulkLoader bulkLoader() {
        return bulkLoader(BulkLoader.DEFAULT_BATCH_EDGES);
    }

    /**
     * Writes what {@link #WRITE_BEHIND} buffered and waits until it is acknowledged, raising the error of a buffered
     * element if there is one; nothing to do without write-behind. Any other operation of this graph does it too.
     *
     * <pre>{@code
     * for (long[] e : edges) graph.vertexHandle(e[0]).addEdge("knows", graph.vertexHandle(e[1]));
     * graph.flush();   // now every other graph and process sees them
     * }</pre>
     */
    public void flush() {
        checkOpen();
        if (writeBehind != null) {
            writeBehind.flush();
        }
    }

    /** A bulk load of property-less edges, written as whole values per home machine (see {@link io.pragh.gremlin.load.EdgeBulkLoad}). */
    public io.pragh.gremlin.load.EdgeBulkLoad edgeBulkLoad() {
        return io.pragh.gremlin.load.EdgeBulkLoad.into(this);
    }

    /** A {@link #bulkLoader()} whose batches hold {@code batchEdges} edges. */
    public BulkLoader bulkLoader(final int batchEdges) {
        checkOpen();
        return new BulkLoader(this, store, newElements, batchEdges);
    }

    @Override
    public Iterator<Vertex> vertices(final Object... vertexIds) {
        checkOpen();
        if (vertexIds.length == 0) {
            final List<Vertex> all = new ArrayList<>();
            store.forEachKey(GraphKeys.VERTEX, key -> all.add(new PraghVertex(this, GraphKeys.vid(key), null)));
            return all.iterator();
        }
        final List<Vertex> found = new ArrayList<>(vertexIds.length);
        for (final Object id : vertexIds) {
            if (id == null) {
                continue;
            }
            final long vid = Ids.toLongOrMissing(id);
            if (vid == Ids.MISSING) {
                continue;
            }
            final byte[] record = store.get(GraphKeys.vertex(vid));
            if (record != null) {
                found.add(new PraghVertex(this, vid, names.name(VertexRecord.decode(record).label)));
            }
        }
        return found.iterator();
    }

    void removeVertex(final long vid) {
        for (final int label : names.edgeLabels()) {
            final byte[] out = store.get(GraphKeys.out(vid, label));
            for (int i = 0, n = Adjacency.count(out); i < n; i++) {
                final long edge = Adjacency.edgeId(out, i);
                store.update(GraphKeys.in(Adjacency.neighbour(out, i), label), GraphMutations.REMOVE_EDGE, idArgument(edge));
                store.delete(GraphKeys.edgeIndex(edge));
            }
            if (out != null) {
                store.delete(GraphKeys.out(vid, label));
                store.delete(GraphKeys.edgeProperties(vid, label));
            }
            final byte[] in = store.get(GraphKeys.in(vid, label));
            for (int i = 0, n = Adjacency.count(in); i < n; i++) {
                final long edge = Adjacency.edgeId(in, i);
                final long from = Adjacency.neighbour(in, i);
                store.update(GraphKeys.out(from, label), GraphMutations.REMOVE_EDGE, idArgument(edge));
                store.update(GraphKeys.edgeProperties(from, label), GraphMutations.EDGE_PROPERTIES, EdgeOps.drop(edge));
                store.delete(GraphKeys.edgeIndex(edge));
            }
            if (in != null) {
                store.delete(GraphKeys.in(vid, label));
            }
        }
        store.delete(GraphKeys.vertex(vid));
    }

    /** A handle on the vertex with this id, without reading it (the caller knows it exists). */
    public Vertex vertexHandle(final long vid) {
        return new PraghVertex(this, vid, null);
    }

    /** The stored record of a vertex, or null when it does not exist (or was removed). */
    VertexRecord vertexRecord(final long vid) {
        final byte[] bytes = store.get(GraphKeys.vertex(vid));
        return bytes == null ? null : VertexRecord.decode(bytes);
    }

    void updateVertex(final long vid, final byte[] operation) {
        store.update(GraphKeys.vertex(vid), GraphMutations.VERTEX, operation);
    }

    // ------------------------------------------------------------------ edges

    /**
     * Adds an edge in two round trips, however many records it touches: one batched GET checks that both vertices
     * exist (and that a supplied edge id is free), then the edge's index record, its OUT and IN adjacency entries and
     * its properties are written by one {@link GraphStore#updateAll}, their acknowledgements awaited together.
     */
    Edge addEdge(final PraghVertex out, final String label, final Vertex in, final Object... keyValues) {
        if (in == null) {
            throw Graph.Exceptions.argumentCanNotBeNull("inVertex");
        }
        final long inVid = Ids.toLongOrMissing(in);
        if (writeBehind != null && inVid != Ids.MISSING) {
            final NewElements.NewEdge edge = writeBehind.addEdge(out.id, label, inVid, keyValues);
            return new PraghEdge(this, edge.id(), out.id, edge.label(), inVid);
        }
        final NewElements.NewEdge edge = newElements.edge(label, keyValues);
        if (inVid == Ids.MISSING) {
            throw PraghElement.removed(Vertex.class, in.id());
        }
        checkEndpoints(out.id, inVid, in, edge.suppliedId() ? edge.id() : -1);
        final UpdateBatch writes = new UpdateBatch(3 + edge.properties().size())
            .add(GraphKeys.out(out.id, edge.label()), Mutators.APPEND, Adjacency.entry(inVid, edge.id()))
            .add(GraphKeys.in(inVid, edge.label()), Mutators.APPEND, Adjacency.entry(out.id, edge.id()));
        newElements.addRecords(edge, out.id, inVid, writes);
        store.updateAll(writes);
        return new PraghEdge(this, edge.id(), out.id, edge.label(), inVid);
    }

    /**
     * One batched GET of both endpoints' vertex records and, for a supplied edge id ({@code suppliedEdgeId >= 0}),
     * its index record: an edge needs both vertices, and a supplied id must be free.
     */
    private void checkEndpoints(final long outVid, final long inVid, final Vertex in, final long suppliedEdgeId) {
        final long[] keys = suppliedEdgeId >= 0
            ? new long[] {GraphKeys.vertex(outVid), GraphKeys.vertex(inVid), GraphKeys.edgeIndex(suppliedEdgeId)}
            : new long[] {GraphKeys.vertex(outVid), GraphKeys.vertex(inVid)};
        final boolean[] present = new boolean[3];
        store.getAll(keys, keys.length, (i, value) -> present[i] = value != null);
        if (!present[0]) {
            throw PraghElement.removed(Vertex.class, outVid);
        }
        if (!present[1]) {
            throw PraghElement.removed(Vertex.class, in.id());
        }
        if (present[2]) {
            throw Exceptions.edgeWithIdAlreadyExists(suppliedEdgeId);
        }
    }

    @Override
    public Iterator<Edge> edges(final Object... edgeIds) {
        checkOpen();
        if (edgeIds.length == 0) {
            final List<Edge> all = new ArrayList<>();
            store.forEachKey(GraphKeys.OUT, key -> {
                final byte[] adjacency = store.get(key);
                final long from = GraphKeys.vid(key);
                final int label = GraphKeys.label(key);
                for (int i = 0, n = Adjacency.count(adjacency); i < n; i++) {
                    all.add(new PraghEdge(this, Adjacency.edgeId(adjacency, i), from, label, Adjacency.neighbour(adjacency, i)));
                }
            });
            return all.iterator();
        }
        final List<Edge> found = new ArrayList<>(edgeIds.length);
        for (final Object id : edgeIds) {
            if (id == null) {
                continue;
            }
            final long edgeId = Ids.toLongOrMissing(id);
            if (edgeId == Ids.MISSING) {
                continue;
            }
            final PraghEdge edge = edge(edgeId);
            if (edge != null) {
                found.add(edge);
            }
        }
        return found.iterator();
    }

    /** The edge with this id, or null. */
    PraghEdge edge(final long edgeId) {
        final byte[] index = store.get(GraphKeys.edgeIndex(edgeId));
        if (index == null) {
            return null;
        }
        final EdgeIndexRecord where = EdgeIndexRecord.decode(index);
        return new PraghEdge(this, edgeId, where.outVid, where.label, where.inVid);
    }

    void removeEdge(final PraghEdge edge) {
        final byte[] id = idArgument(edge.id);
        store.update(GraphKeys.out(edge.outVid, edge.label), GraphMutations.REMOVE_EDGE, id);
        store.update(GraphKeys.in(edge.inVid, edge.label), GraphMutations.REMOVE_EDGE, id);
        store.update(GraphKeys.edgeProperties(edge.outVid, edge.label), GraphMutations.EDGE_PROPERTIES, EdgeOps.drop(edge.id));
        store.delete(GraphKeys.edgeIndex(edge.id));
    }

    /** Edges of one vertex, in the given direction, for the given label ids (all edge labels when empty). */
    void collectEdges(final long vid, final Direction direction, final int[] labels, final List<Edge> into) {
        for (final int label : labels) {
            if (direction != Direction.IN) {
                final byte[] out = store.get(GraphKeys.out(vid, label));
                for (int i = 0, n = Adjacency.count(out); i < n; i++) {
                    into.add(new PraghEdge(this, Adjacency.edgeId(out, i), vid, label, Adjacency.neighbour(out, i)));
                }
            }
            if (direction != Direction.OUT) {
                final byte[] in = store.get(GraphKeys.in(vid, label));
                for (int i = 0, n = Adjacency.count(in); i < n; i++) {
                    into.add(new PraghEdge(this, Adjacency.edgeId(in, i), Adjacency.neighbour(in, i), label, vid));
                }
            }
        }
    }

    /** Neighbours of one vertex along its edges in the given direction and label ids, one per edge. */
    void collectNeighbours(final long vid, final Direction direction, final int[] labels, final List<Vertex> into) {
        for (final int label : labels) {
            if (direction != Direction.IN) {
                final byte[] out = store.get(GraphKeys.out(vid, label));
                for (int i = 0, n = Adjacency.count(out); i < n; i++) {
                    into.add(new PraghVertex(this, Adjacency.neighbour(out, i), null));
                }
            }
            if (direction != Direction.OUT) {
                final byte[] in = store.get(GraphKeys.in(vid, label));
                for (int i = 0, n = Adjacency.count(in); i < n; i++) {
                    into.add(new PraghVertex(this, Adjacency.neighbour(in, i), null));
                }
            }
        }
    }

    /** Label ids for label names, dropping names no edge ever carried; all edge labels when none are named. */
    public int[] edgeLabelIds(final String... labels) {
        if (labels.length == 0) {
            return names.edgeLabels();
        }
        final int[] ids = new int[labels.length];
        int n = 0;
        for (final String label : labels) {
            final int id = names.id(label);
            if (id > 0 && !contains(ids, n, id)) {
                ids[n++] = id;
            }
        }
        return n == ids.length ? ids : java.util.Arrays.copyOf(ids, n);
    }

    private static boolean contains(final int[] a, final int n, final int v) {
        for (int i = 0; i < n; i++) {
            if (a[i] == v) {
                return true;
            }
        }
        return false;
    }

    // ------------------------------------------------------------------ ids

    /** The long an id names (integral number, decimal string or element), or -1 when it cannot name anything. */
    public static long toVid(final Object id) {
        return Ids.toLongOrMissing(id);
    }

    /** A fresh id for a vertex, edge or vertex property. */
    long newId() {
        return ids.next();
    }

    long claimUserId(final Object supplied, final boolean vertex) {
        final long id = Ids.toLongOrMissing(supplied);
        if (id == Ids.MISSING && !(supplied instanceof Number)) {
            throw vertex ? Vertex.Exceptions.userSuppliedIdsOfThisTypeNotSupported()
                : Edge.Exceptions.userSuppliedIdsOfThisTypeNotSupported();
        }
        if (id == Ids.MISSING) {
            throw new IllegalArgumentException("id " + supplied + " (" + supplied.getClass().getSimpleName()
                + ") is not usable: Pragh ids are integers in 0.." + GraphKeys.MAX_ID + " (or their decimal strings)");
        }
        ids.reserve(id); // assigned ids never collide with supplied ones
        return id;
    }

    static byte[] idArgument(final long id) {
        return new io.pragh.gremlin.storage.ByteWriter(8).putLong(id).toByteArray();
    }

    // ------------------------------------------------------------------ the rest of Graph

    @Override
    public <C extends GraphComputer> C compute(final Class<C> graphComputerClass) {
        throw Exceptions.graphComputerNotSupported();
    }

    @Override
    public GraphComputer compute() {
        throw Exceptions.graphComputerNotSupported();
    }

    @Override
    public Transaction tx() {
        throw Exceptions.transactionsNotSupported();
    }

    @Override
    public Variables variables() {
        throw Exceptions.variablesNotSupported();
    }

    @Override
    public Configuration configuration() {
        return configuration;
    }

    @Override
    public Features features() {
        return features;
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            store.close();
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("this PraghGraph is closed");
        }
    }

    @Override
    public String toString() {
        return StringFactory.graphString(this, "machines:" + store.machines());
    }

    static <T> Iterator<T> none() {
        return Collections.emptyIterator();
    }
}
