package io.pragh.gremlin.structure;

import io.pragh.gremlin.storage.Adjacency;
import io.pragh.gremlin.storage.ByteWriter;
import io.pragh.gremlin.storage.EdgeIndexRecord;
import io.pragh.gremlin.storage.EdgeOps;
import io.pragh.gremlin.storage.GraphKeys;
import io.pragh.gremlin.storage.GraphMutations;
import io.pragh.store.Mutators;
import org.apache.tinkerpop.gremlin.structure.Direction;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.Graph;
import org.apache.tinkerpop.gremlin.structure.Vertex;

import java.util.ArrayList;
import java.util.List;

/**
 * The edges of one {@link PraghGraph} in its store: adding one through the Structure API, finding one by id, listing
 * a vertex's, removing one or all of a vertex's. An edge is its two adjacency entries, an EDGE properties record entry
 * when it has properties, and an index record only when its id was supplied ({@link EdgeIds}).
 *
 * <p>Example: {@code PraghEdge e = graph.edgeStore().find("7-1-1025");}
 */
final class Edges {
    private static final byte[] NO_BYTES = new byte[0];

    private final PraghGraph graph;
    private final NewElements newElements;
    private SegmentSealer sealer;

    Edges(final PraghGraph graph, final NewElements newElements) {
        this.graph = graph;
        this.newElements = newElements;
    }

    /**
     * Adds an edge in one round of writes: its OUT and IN entries (and properties, and the index record of a supplied
     * id) sent by one {@link GraphStore#updateAll}, their acknowledgements awaited together. Before it, one batched
     * GET only for what is not known already: an endpoint whose handle has not been seen to exist since this graph
     * last removed a vertex ({@link PraghVertex#knownAt}), and a supplied edge id, which must be free. A load through
     * {@code addVertex} handles therefore writes each edge in one round trip.
     */
    Edge add(final PraghVertex out, final String label, final Vertex in, final Object... keyValues) {
        final NewElements.NewEdge edge = newElements.edge(label, keyValues);
        final long inVid = Ids.toLongOrMissing(in);
        if (inVid == Ids.MISSING) {
            throw PraghElement.removed(Vertex.class, in.id());
        }
        checkEndpoints(out, inVid, in, edge);
        final long number = edge.number();
        final UpdateBatch writes = new UpdateBatch(3 + edge.properties().size())
            .add(GraphKeys.out(out.id, edge.label()), Mutators.APPEND, Adjacency.entry(inVid, number))
            .add(GraphKeys.in(inVid, edge.label()), Mutators.APPEND, Adjacency.entry(out.id, number));
        newElements.addRecords(edge, out.id, inVid, writes);
        graph.store().updateAll(writes);
        sealer().afterAppend(GraphKeys.out(out.id, edge.label()), GraphKeys.in(inVid, edge.label()));
        return new PraghEdge(graph, number, out.id, edge.label(), inVid);
    }

    /**
     * One batched GET of what must be checked: the vertex record of each endpoint not known to exist, and a supplied
     * edge id's index record (it must be free); none when there is nothing to check. Endpoints found are known from
     * then on, until this graph removes a vertex.
     */
    private void checkEndpoints(final PraghVertex out, final long inVid, final Vertex in, final NewElements.NewEdge edge) {
        final long epoch = graph.vertexRemovals();
        final PraghVertex inHandle = in instanceof PraghVertex v && v.graph() == graph ? v : null;
        final boolean checkOut = !out.knownAt(epoch);
        final boolean checkIn = inHandle == null || !inHandle.knownAt(epoch);
        if (!checkOut && !checkIn && !edge.suppliedId()) {
            return;
        }
        final long[] keys = new long[3];
        int n = 0;
        final int outAt = checkOut ? n++ : -1;
        final int inAt = checkIn ? n++ : -1;
        final int edgeAt = edge.suppliedId() ? n++ : -1;
        if (checkOut) {
            keys[outAt] = GraphKeys.vertex(out.id);
        }
        if (checkIn) {
            keys[inAt] = GraphKeys.vertex(inVid);
        }
        if (edgeAt >= 0) {
            keys[edgeAt] = GraphKeys.edgeIndex(edge.id());
        }
        final boolean[] present = new boolean[3];
        graph.store().getAll(keys, n, (i, value) -> present[i] = value != null);
        if (checkOut && !present[outAt]) {
            throw PraghElement.removed(Vertex.class, out.id);
        }
        if (checkIn && !present[inAt]) {
            throw PraghElement.removed(Vertex.class, in.id());
        }
        if (edgeAt >= 0 && present[edgeAt]) {
            throw Graph.Exceptions.edgeWithIdAlreadyExists(edge.id());
        }
        out.markKnown(epoch);
        if (inHandle != null) {
            inHandle.markKnown(epoch);
        }
    }

    /** The edge an id names (see {@link EdgeIds#parse}), or null when there is none. */
    PraghEdge find(final Object id) {
        final EdgeIds.Ref ref = EdgeIds.parse(id);
        if (ref == null) {
            return null;
        }
        if (ref.compact()) {
            final long in = SegmentedLists.neighbourOf(graph.store(), GraphKeys.out(ref.outVid(), ref.label()),
                ref.edgeNumber());
            return in < 0 ? null : new PraghEdge(graph, ref.edgeNumber(), ref.outVid(), ref.label(), in);
        }
        final byte[] index = graph.store().get(GraphKeys.edgeIndex(ref.edgeNumber()));
        if (index == null) {
            return null;
        }
        final EdgeIndexRecord where = EdgeIndexRecord.decode(index);
        return new PraghEdge(graph, ref.edgeNumber(), where.outVid, where.label, where.inVid);
    }

    /**
     * Whether the edge is still in the graph: one GET of its out-vertex's OUT list (and one batch of its segments, for
     * a supernode's edge not in the tail), or of its index record.
     */
    boolean exists(final PraghEdge edge) {
        if (Adjacency.isCompact(edge.id)) {
            return SegmentedLists.neighbourOf(graph.store(), GraphKeys.out(edge.outVid, edge.label), edge.id) >= 0;
        }
        return graph.store().get(GraphKeys.edgeIndex(edge.id)) != null;
    }

    /** Removes an edge: both entries, its properties and its index record, if any, in one round of writes. */
    void remove(final PraghEdge edge) {
        final byte[] number = numberArgument(edge.id);
        final UpdateBatch writes = new UpdateBatch(4)
            .add(GraphKeys.out(edge.outVid, edge.label), GraphMutations.REMOVE_EDGE, number)
            .add(GraphKeys.in(edge.inVid, edge.label), GraphMutations.REMOVE_EDGE, number)
            .add(GraphKeys.edgeProperties(edge.outVid, edge.label), GraphMutations.EDGE_PROPERTIES, EdgeOps.drop(edge.id));
        if (!Adjacency.isCompact(edge.id)) {
            writes.add(GraphKeys.edgeIndex(edge.id), Mutators.DELETE, NO_BYTES);
        }
        graph.store().updateAll(writes);
        sealer().afterRemove(GraphKeys.out(edge.outVid, edge.label), GraphKeys.in(edge.inVid, edge.label));
    }

    /** Removes every edge of a vertex, in and out, and its own adjacency (segments too) and edge property records. */
    void removeAllOf(final long vid) {
        final GraphStore store = graph.store();
        final int[] labels = graph.names().edgeLabels();
        // Both lists of every label in one batched GET, and the neighbours' entries removed in one batch: a graph
        // with many edge labels would otherwise pay two round trips per label for a vertex that has few of them.
        final long[] keys = new long[2 * labels.length];
        for (int l = 0; l < labels.length; l++) {
            keys[2 * l] = GraphKeys.out(vid, labels[l]);
            keys[2 * l + 1] = GraphKeys.in(vid, labels[l]);
        }
        final byte[][] lists = getAll(keys);
        final UpdateBatch neighbours = new UpdateBatch();
        final List<Long> indexEntries = new ArrayList<>();
        for (int l = 0; l < labels.length; l++) {
            final int label = labels[l];
            final byte[] out = lists[2 * l];
            for (int i = 0, n = Adjacency.count(out); i < n; i++) {
                final long number = Adjacency.edgeId(out, i);
                neighbours.add(GraphKeys.in(Adjacency.neighbour(out, i), label), GraphMutations.REMOVE_EDGE,
                    numberArgument(number));
                indexEntries.add(number);
            }
            final byte[] in = lists[2 * l + 1];
            for (int i = 0, n = Adjacency.count(in); i < n; i++) {
                final long number = Adjacency.edgeId(in, i);
                final long from = Adjacency.neighbour(in, i);
                // Removals of different edges from one list commute, as UpdateBatch asks.
                neighbours.add(GraphKeys.out(from, label), GraphMutations.REMOVE_EDGE, numberArgument(number));
                neighbours.add(GraphKeys.edgeProperties(from, label), GraphMutations.EDGE_PROPERTIES,
                    EdgeOps.drop(number));
                indexEntries.add(number);
            }
        }
        if (!neighbours.isEmpty()) {
            store.updateAll(neighbours);
        }
        for (final long number : indexEntries) {
            deleteIndex(store, number);
        }
        for (int l = 0; l < labels.length; l++) {
            if (lists[2 * l] != null) {
                store.delete(GraphKeys.out(vid, labels[l]));
                store.delete(GraphKeys.edgeProperties(vid, labels[l]));
            }
            if (lists[2 * l + 1] != null) {
                store.delete(GraphKeys.in(vid, labels[l]));
            }
        }
        SegmentedLists.deleteSegmentsOf(store, vid);
    }

    private static void deleteIndex(final GraphStore store, final long number) {
        if (!Adjacency.isCompact(number)) {
            store.delete(GraphKeys.edgeIndex(number));
        }
    }

    /** Every edge of the graph, by a scan of the OUT keys of every machine. */
    void all(final List<Edge> into) {
        final GraphStore store = graph.store();
        store.forEachKey(GraphKeys.OUT, key -> {
            final byte[] adjacency = SegmentedLists.get(store, key);
            final long from = GraphKeys.vid(key);
            final int label = GraphKeys.label(key);
            for (int i = 0, n = Adjacency.count(adjacency); i < n; i++) {
                into.add(new PraghEdge(graph, Adjacency.edgeId(adjacency, i), from, label, Adjacency.neighbour(adjacency, i)));
            }
        });
    }

    /** Edges of one vertex, in the given direction, for the given label ids: one batched GET of their lists. */
    void collect(final long vid, final Direction direction, final int[] labels, final List<Edge> into) {
        final long[] keys = listKeys(vid, direction, labels);
        final byte[][] lists = getAll(keys);
        for (int k = 0; k < keys.length; k++) {
            final int label = GraphKeys.label(keys[k]);
            final boolean out = GraphKeys.kind(keys[k]) == GraphKeys.OUT;
            final byte[] list = lists[k];
            for (int i = 0, n = Adjacency.count(list); i < n; i++) {
                final long other = Adjacency.neighbour(list, i);
                into.add(out ? new PraghEdge(graph, Adjacency.edgeId(list, i), vid, label, other)
                    : new PraghEdge(graph, Adjacency.edgeId(list, i), other, label, vid));
            }
        }
    }

    /** Neighbours of one vertex along its edges in the given direction and label ids, one per edge. */
    void collectNeighbours(final long vid, final Direction direction, final int[] labels, final List<Vertex> into) {
        final byte[][] lists = getAll(listKeys(vid, direction, labels));
        for (final byte[] list : lists) {
            for (int i = 0, n = Adjacency.count(list); i < n; i++) {
                into.add(new PraghVertex(graph, Adjacency.neighbour(list, i), null));
            }
        }
    }

    /** The lists under {@code keys} (null where a key has none), supernodes' segments joined, in the keys' order. */
    private byte[][] getAll(final long[] keys) {
        return SegmentedLists.getAll(graph.store(), keys);
    }

    /**
     * Seals supernodes' tails as appends lengthen them; made on first use, once the graph's configuration is read (two
     * threads may make one each, which only splits its counts).
     */
    private SegmentSealer sealer() {
        if (sealer == null) {
            sealer = SegmentSealer.of(graph);
        }
        return sealer;
    }

    /** The keys of a vertex's lists in the given direction, label by label (OUT before IN for BOTH). */
    private static long[] listKeys(final long vid, final Direction direction, final int[] labels) {
        final boolean out = direction != Direction.IN;
        final boolean in = direction != Direction.OUT;
        final long[] keys = new long[(out && in ? 2 : 1) * labels.length];
        int k = 0;
        for (final int label : labels) {
            if (out) {
                keys[k++] = GraphKeys.out(vid, label);
            }
            if (in) {
                keys[k++] = GraphKeys.in(vid, label);
            }
        }
        return keys;
    }

    /** The argument of {@link GraphMutations#REMOVE_EDGE}: the edge number. */
    private static byte[] numberArgument(final long number) {
        final byte[] argument = new byte[8];
        ByteWriter.putLongAt(argument, 0, number);
        return argument;
    }
}
