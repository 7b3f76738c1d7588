package io.pragh.gremlin.structure;

import io.pragh.gremlin.storage.GraphKeys;
import io.pragh.gremlin.storage.GraphMutations;
import io.pragh.gremlin.storage.VertexRecord;
import org.apache.tinkerpop.gremlin.structure.Graph;
import org.apache.tinkerpop.gremlin.structure.Vertex;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The vertices of one {@link PraghGraph} in its store: adding one through the Structure API, finding them by id or
 * all of them, reading and editing a vertex record, removing one with its edges. It counts the vertices this graph
 * removes, so that handles it has seen exist can skip the read of their record before an edge is added to them
 * ({@link PraghVertex#knownAt}).
 *
 * <p>Example: {@code VertexRecord r = graph.vertexStore().record(1L);}
 */
final class Vertices {
    private final PraghGraph graph;
    private final NewElements newElements;
    private final Edges edges;
    /** Vertices removed through this graph. */
    private final AtomicLong removals = new AtomicLong();

    Vertices(final PraghGraph graph, final NewElements newElements, final Edges edges) {
        this.graph = graph;
        this.newElements = newElements;
        this.edges = edges;
    }

    /**
     * Adds a vertex with one acknowledged write; a supplied id is first checked to be free with one GET (an assigned
     * id is new to the whole store, {@link IdAllocator}).
     */
    PraghVertex add(final Object... keyValues) {
        final NewElements.NewVertex v = newElements.vertex(keyValues);
        final GraphStore store = graph.store();
        if (v.suppliedId() && store.get(GraphKeys.vertex(v.id())) != null) {
            throw Graph.Exceptions.vertexWithIdAlreadyExists(v.id());
        }
        final long epoch = removals();
        store.put(GraphKeys.vertex(v.id()), v.record());
        return PraghVertex.known(graph, v.id(), v.label(), epoch);
    }

    /** Every vertex, by a scan of the VERTEX keys of every machine. */
    void all(final List<Vertex> into) {
        final long epoch = removals();
        graph.store().forEachKey(GraphKeys.VERTEX, key -> into.add(PraghVertex.known(graph, GraphKeys.vid(key), null, epoch)));
    }

    /** The vertex an id names, or null when the id cannot be one or the vertex does not exist: one GET. */
    PraghVertex find(final Object id) {
        final long vid = Ids.toLongOrMissing(id);
        if (vid == Ids.MISSING) {
            return null;
        }
        final long epoch = removals();
        final byte[] record = graph.store().get(GraphKeys.vertex(vid));
        return record == null ? null
            : PraghVertex.known(graph, vid, graph.names().name(VertexRecord.decode(record).label), epoch);
    }

    /**
     * Removes a vertex, its edges and their entries in its neighbours' lists. Counted first, so that a handle seen to
     * exist before is read again before an edge is added to it.
     */
    void remove(final long vid) {
        removals.incrementAndGet();
        edges.removeAllOf(vid);
        graph.store().delete(GraphKeys.vertex(vid));
    }

    /** How many vertices this graph has removed: handles seen to exist at this count still exist (see the class). */
    long removals() {
        return removals.get();
    }

    /** The stored record of a vertex, or null when it does not exist (or was removed). */
    VertexRecord record(final long vid) {
        final byte[] bytes = graph.store().get(GraphKeys.vertex(vid));
        return bytes == null ? null : VertexRecord.decode(bytes);
    }

    /** Applies one {@link io.pragh.gremlin.storage.VertexOps} operation to the vertex record at its host. */
    void update(final long vid, final byte[] operation) {
        graph.store().update(GraphKeys.vertex(vid), GraphMutations.VERTEX, operation);
    }
}
