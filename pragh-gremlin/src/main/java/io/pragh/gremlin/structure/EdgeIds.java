package io.pragh.gremlin.structure;

import io.pragh.gremlin.storage.Adjacency;
import io.pragh.gremlin.storage.GraphKeys;
import org.apache.tinkerpop.gremlin.structure.Element;

/**
 * Edge ids as TinkerPop sees them, and what they name in the store. An edge the graph numbered itself has a compact
 * id, the string {@code "outVid-label-number"} (label as its dictionary id): it names the OUT list that holds the
 * edge, so {@code g.E(id)} is one GET of that list and no per-edge index record is kept. An edge added with a
 * user-supplied id keeps that id, a {@code Long}, found through its EDGE_INDEX record as before. Both kinds carry a
 * store-wide unique edge number in their adjacency entries ({@link Adjacency}), which is what removal and the edge
 * properties record go by.
 *
 * <p>Example:
 * <pre>{@code
 * EdgeIds.Ref ref = EdgeIds.parse("7-1-1025");   // out vertex 7, label id 1, number 1025
 * byte[] out = store.get(GraphKeys.out(ref.outVid(), ref.label()));
 * int i = Adjacency.indexOf(out, ref.edgeNumber());
 * }</pre>
 */
final class EdgeIds {
    private static final char SEPARATOR = '-';

    private EdgeIds() {
    }

    /**
     * What an edge id names: the edge number its entries carry and, for a compact id, the out-vertex and label id
     * whose OUT list holds it ({@code outVid} is -1 for an indexed id: its index record says where it is).
     */
    record Ref(long outVid, int label, long edgeNumber) {
        boolean compact() {
            return Adjacency.isCompact(edgeNumber);
        }
    }

    /** The TinkerPop id of the edge whose adjacency entries carry {@code edgeNumber}. */
    static Object id(final long outVid, final int label, final long edgeNumber) {
        if (!Adjacency.isCompact(edgeNumber)) {
            return edgeNumber;
        }
        return Long.toString(outVid) + SEPARATOR + label + SEPARATOR + (edgeNumber & ~Adjacency.COMPACT);
    }

    /** The edge number of a new edge: a compact one unless its id was supplied (it then needs an index record). */
    static long number(final long id, final boolean supplied) {
        return supplied ? id : id | Adjacency.COMPACT;
    }

    /**
     * What {@code id} names (a compact id string, an integral number or its decimal string, an edge), or null when it
     * cannot name any edge of this graph (wrong type, out of range, malformed).
     */
    static Ref parse(final Object id) {
        if (id instanceof PraghEdge e) {
            return new Ref(e.outVid, e.label, e.id);
        }
        final Object raw = id instanceof Element ? ((Element) id).id() : id;
        if (raw instanceof String s && s.indexOf(SEPARATOR, 1) > 0) {
            return parseCompact(s.trim());
        }
        final long n = Ids.toLongOrMissing(raw);
        return n == Ids.MISSING ? null : new Ref(-1, 0, n);
    }

    private static Ref parseCompact(final String s) {
        final int a = s.indexOf(SEPARATOR);
        final int b = s.indexOf(SEPARATOR, a + 1);
        if (a <= 0 || b < 0 || s.indexOf(SEPARATOR, b + 1) >= 0) {
            return null;
        }
        try {
            final long outVid = Long.parseLong(s, 0, a, 10);
            final long label = Long.parseLong(s, a + 1, b, 10);
            final long number = Long.parseLong(s, b + 1, s.length(), 10);
            if (outVid < 0 || outVid > GraphKeys.MAX_ID || label < 1 || label > GraphKeys.MAX_LABEL
                || number < 0 || number > GraphKeys.MAX_ID) {
                return null;
            }
            return new Ref(outVid, (int) label, number | Adjacency.COMPACT);
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
