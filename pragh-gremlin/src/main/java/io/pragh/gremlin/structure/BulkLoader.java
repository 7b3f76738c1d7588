package io.pragh.gremlin.structure;

import io.pragh.gremlin.storage.Adjacency;
import io.pragh.gremlin.storage.ByteWriter;
import io.pragh.gremlin.storage.GraphKeys;
import io.pragh.store.Mutators;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.collections.LongArrayList;
import org.agrona.collections.LongHashSet;
import org.apache.tinkerpop.gremlin.structure.Graph;

/**
 * Adds many vertices and edges to a {@link PraghGraph} at once: what it is given is buffered and written in batches
 * of {@link #batchEdges()} edges, each batch's adjacency entries grouped into one append per adjacency list and its
 * writes handed to their home machines together ({@link GraphStore#updateAll}), so a load pays a round trip per
 * batch, not per edge.
 *
 * <p>What it checks, it checks per batch, before writing any of it: that every edge's vertices exist (added through
 * this loader, or found in the graph) and that supplied ids are free. An error names the element; batches written
 * before it stay, and the loader stops (every later call says why). It remembers every vertex it added or found
 * (some 16 bytes of heap each), so that later edges to them are not checked again. Until a batch is written ({@link #flush}, or a full batch, or {@link #close}) its elements are not in
 * the graph: a loader is for loading, read the graph once it is closed. One loader is used by one thread.
 *
 * <p>Edges get compact ids (no index record, see {@link PraghGraph#edges}) unless their id is supplied.
 *
 * <p>Example:
 * <pre>{@code
 * try (BulkLoader load = graph.bulkLoader()) {
 *     long marko = load.addVertex(T.label, "person", "name", "marko");
 *     long vadas = load.addVertex(T.id, 2L, T.label, "person", "name", "vadas");
 *     load.addEdge(marko, "knows", vadas, "weight", 0.5d);
 * }   // writes what is left and waits for it
 * }</pre>
 */
public final class BulkLoader implements AutoCloseable {
    /**
     * Edges per batch unless the loader is opened with another size. Each batch appends once to every adjacency
     * list it touches, and an append copies the list, leaving the old copy to its reclaim lease: fewer, larger
     * batches leave less of that garbage in the value region (a property-less RMAT scale 16 load: 363 MB at 65,536
     * edges a batch, 93 MB at this size) for some 100 bytes of heap per buffered edge.
     */
    public static final int DEFAULT_BATCH_EDGES = 1 << 18;

    private final PraghGraph graph;
    private final GraphStore store;
    private final NewElements elements;
    private final int batchEdges;
    /** Vertex records, edge index records and edge properties of the batch. */
    private final UpdateBatch writes = new UpdateBatch(1024);
    /** The batch's adjacency entries by OUT or IN key: one append each. */
    private final Long2ObjectHashMap<ByteWriter> entries = new Long2ObjectHashMap<>();
    /** Vertices known to exist once the batch is written: added here, or found in the graph by an earlier batch. */
    private final LongHashSet known = new LongHashSet();
    /** Edge endpoints of the batch that are not known yet: looked up before the batch is written. */
    private final LongHashSet unverified = new LongHashSet();
    /** Vertices of the batch to add unless the graph has them (see {@link #ensureVertex}). */
    private final LongHashSet ensured = new LongHashSet();
    /** Supplied vertex and edge ids of the batch, which must not be taken already. */
    private final LongArrayList suppliedVertices = new LongArrayList();
    private final LongArrayList suppliedEdges = new LongArrayList();
    private int pendingEdges;
    private long vertices;
    private long edges;
    private boolean closed;
    private Throwable failure;
    /** Seals the lists a batch made long into segments (supernodes, see {@link SegmentSealer}). */
    private final SegmentSealer sealer;
    /** The batch's lists that may have grown past a segment: checked once the batch is written. */
    private final LongArrayList lengthened = new LongArrayList();

    BulkLoader(final PraghGraph graph, final GraphStore store, final NewElements elements, final int batchEdges) {
        if (batchEdges < 1) {
            throw new IllegalArgumentException("a bulk loader's batch needs at least 1 edge, got " + batchEdges);
        }
        this.graph = graph;
        this.store = store;
        this.elements = elements;
        this.batchEdges = batchEdges;
        this.sealer = SegmentSealer.of(graph, store);
    }

    /**
     * Adds a vertex as {@link Graph#addVertex} does ({@code T.id}, {@code T.label}, then property keys and values)
     * and returns its id.
     *
     * @throws IllegalArgumentException when a supplied id is already a vertex's (raised once its batch is checked)
     */
    public long addVertex(final Object... keyValues) {
        return add(keyValues).id();
    }

    NewElements.NewVertex add(final Object... keyValues) {
        checkOpen();
        final NewElements.NewVertex v = elements.vertex(keyValues);
        if (v.suppliedId()) {
            if (known.contains(v.id())) {
                throw Graph.Exceptions.vertexWithIdAlreadyExists(v.id());
            }
            suppliedVertices.addLong(v.id());
        }
        known.add(v.id());
        unverified.remove(v.id());
        writes.add(GraphKeys.vertex(v.id()), Mutators.SET, v.record());
        vertices++;
        return v;
    }

    /**
     * Makes sure vertex {@code vid} exists once the batch is written: it is added, with the default label and no
     * properties, unless the graph has it already. For loads of edge lists, whose vertices are only named by edges.
     */
    public void ensureVertex(final long vid) {
        checkOpen();
        checkVid(vid);
        if (known.add(vid)) {
            graph.claimUserId(vid, true); // ids the graph assigns later must not collide with it
            ensured.add(vid);
            unverified.remove(vid);
        }
    }

    /**
     * Adds an edge from vertex {@code outVid} to vertex {@code inVid} as {@link
     * org.apache.tinkerpop.gremlin.structure.Vertex#addEdge} does ({@code T.id}, then property keys and values) and
     * returns its id, as {@link org.apache.tinkerpop.gremlin.structure.Edge#id()} will give it: a compact id string
     * unless one was supplied (see {@link PraghGraph#edges}). Both vertices must exist once the batch is written:
     * added through this loader or already in the graph.
     *
     * @throws IllegalArgumentException when a vertex does not exist (raised once its batch is checked)
     */
    public Object addEdge(final long outVid, final String label, final long inVid, final Object... keyValues) {
        return add(outVid, label, inVid, keyValues).tinkerPopId(outVid);
    }

    NewElements.NewEdge add(final long outVid, final String label, final long inVid, final Object... keyValues) {
        checkOpen();
        checkVid(outVid);
        checkVid(inVid);
        final NewElements.NewEdge edge = elements.edge(label, keyValues);
        if (edge.suppliedId()) {
            suppliedEdges.addLong(edge.id());
        }
        for (final long vid : new long[] {outVid, inVid}) {
            if (!known.contains(vid)) {
                unverified.add(vid);
            }
        }
        elements.addRecords(edge, outVid, inVid, writes);
        append(GraphKeys.out(outVid, edge.label()), inVid, edge.number());
        append(GraphKeys.in(inVid, edge.label()), outVid, edge.number());
        edges++;
        if (++pendingEdges >= batchEdges) {
            flush();
        }
        return edge;
    }

    private void append(final long key, final long neighbour, final long edgeNumber) {
        ByteWriter w = entries.get(key);
        if (w == null) {
            w = new ByteWriter(4 * Adjacency.ENTRY_BYTES);
            entries.put(key, w);
        }
        w.putLong(neighbour).putLong(edgeNumber);
    }

    /** Checks and writes the batch so far, and waits until it is acknowledged. */
    public void flush() {
        checkOpen();
        try {
            check();
            entries.forEachLong((key, w) -> {
                writes.add(key, Mutators.APPEND, w.toByteArray());
                if (sealer.due(key, w.position() / Adjacency.ENTRY_BYTES)) {
                    lengthened.addLong(key);
                }
            });
            store.updateAll(writes);
            for (int i = 0; i < lengthened.size(); i++) {
                sealer.sealIfLong(lengthened.getLong(i));
            }
        } catch (RuntimeException | Error e) {
            // The error says which element; batches written before stay. The loader stops here: the vertices of the
            // failed batch count as known, and edges to them must not be accepted unchecked.
            failure = e;
            throw e;
        } finally {
            writes.clear();
            entries.clear();
            lengthened.clear();
            unverified.clear();
            ensured.clear();
            suppliedVertices.clear();
            suppliedEdges.clear();
            pendingEdges = 0;
        }
    }

    /**
     * One batched GET of the vertex records of the batch's unknown endpoints, its ensured vertices and supplied
     * vertex ids, and of its supplied edge ids' index records; adds the ensured vertices the graph does not have.
     */
    private void check() {
        final int n = unverified.size() + ensured.size() + suppliedVertices.size() + suppliedEdges.size();
        if (n == 0) {
            return;
        }
        final long[] keys = new long[n];
        int k = 0;
        for (final LongHashSet.LongIterator it = unverified.iterator(); it.hasNext(); ) {
            keys[k++] = GraphKeys.vertex(it.nextValue());
        }
        final int firstEnsured = k;
        for (final LongHashSet.LongIterator it = ensured.iterator(); it.hasNext(); ) {
            keys[k++] = GraphKeys.vertex(it.nextValue());
        }
        final int firstSuppliedVertex = k;
        for (int i = 0; i < suppliedVertices.size(); i++) {
            keys[k++] = GraphKeys.vertex(suppliedVertices.getLong(i));
        }
        final int firstSuppliedEdge = k;
        for (int i = 0; i < suppliedEdges.size(); i++) {
            keys[k++] = GraphKeys.edgeIndex(suppliedEdges.getLong(i));
        }
        final RuntimeException[] problem = new RuntimeException[1];
        final byte[] defaultVertex = elements.plainVertexRecord();
        store.getAll(keys, n, (i, value) -> {
            final long id = GraphKeys.vid(keys[i]);
            if (i < firstEnsured) {
                if (value == null && problem[0] == null) {
                    problem[0] = new IllegalArgumentException("an edge of this batch names vertex " + id + ", which"
                        + " does not exist (add it first, through the loader or the graph)");
                }
            } else if (i < firstSuppliedVertex) {
                if (value == null) {
                    writes.add(keys[i], Mutators.SET, defaultVertex);
                }
            } else if (value != null && problem[0] == null) {
                problem[0] = i < firstSuppliedEdge ? Graph.Exceptions.vertexWithIdAlreadyExists(id)
                    : Graph.Exceptions.edgeWithIdAlreadyExists(id);
            }
        });
        if (problem[0] != null) {
            throw problem[0];
        }
        for (final LongHashSet.LongIterator it = unverified.iterator(); it.hasNext(); ) {
            known.add(it.nextValue());
        }
    }

    private static void checkVid(final long vid) {
        if (vid < 0 || vid > GraphKeys.MAX_ID) {
            throw new IllegalArgumentException("vertex id " + vid + " is outside 0.." + GraphKeys.MAX_ID);
        }
    }

    /** Edges per batch. */
    public int batchEdges() {
        return batchEdges;
    }

    /** Vertices added so far (written or still in the batch). */
    public long vertices() {
        return vertices;
    }

    /** Edges added so far (written or still in the batch). */
    public long edges() {
        return edges;
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("this bulk loader is closed");
        }
        if (failure != null) {
            throw new IllegalStateException("this bulk loader stopped when a batch failed: " + failure.getMessage(),
                failure);
        }
    }

    /** Writes what is left and waits for it; the loader cannot be used after. */
    @Override
    public void close() {
        if (!closed && failure == null) {
            try {
                flush();
            } finally {
                closed = true;
            }
        }
    }

    @Override
    public String toString() {
        return "BulkLoader[" + graph + ", " + vertices + " vertices, " + edges + " edges]";
    }
}
