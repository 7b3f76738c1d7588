package io.pragh.gremlin.storage;

import io.pragh.keys.KeyLayout;

/**
 * The keys of a property graph: a vertex id plus what is asked of it, so every key of one vertex has the vertex's
 * home machine. VERTEX holds the {@link VertexRecord}; OUT and IN, per edge label, the {@link Adjacency}; EDGE, per
 * edge label, the {@link EdgePropertiesRecord} of the vertex's outgoing edges; EDGE_INDEX, keyed by a supplied edge
 * id, the {@link EdgeIndexRecord} that finds the edge (an edge the graph numbered needs none, see {@link Adjacency});
 * SEGMENT, the sealed segments of a supernode's lists ({@link AdjacencySegments}); SHARED, the dictionary and the id block counter every graph over the
 * store agrees on.
 *
 * <p>Example: {@code long k = GraphKeys.out(vid, dictionary.id("knows"));}
 */
public final class GraphKeys {
    public static final int VERTEX = KeyLayout.VERTEX;
    public static final int OUT = KeyLayout.OUT;
    public static final int IN = KeyLayout.IN;
    public static final int EDGE = KeyLayout.EDGE;
    public static final int EDGE_INDEX = KeyLayout.FIRST_PROVIDER_KIND;
    /** What every graph over one store shares: the name dictionary and the id block counter. */
    public static final int SHARED = KeyLayout.FIRST_PROVIDER_KIND + 1;
    /**
     * A sealed segment of a supernode's adjacency list, by slot, and the vertex's slot record at slot 0 (see
     * {@link AdjacencySegments}); the vid stays in the hashed part, so segments live at the vertex's home.
     * {@code FIRST_PROVIDER_KIND + 2..6} are pragh-rdf's.
     * {@code FIRST_PROVIDER_KIND + 8} holds graph views ({@link ViewRecords}).
     */
    public static final int SEGMENT = KeyLayout.FIRST_PROVIDER_KIND + 7;

    /** Largest vertex or edge id a key can carry (44 bits). */
    public static final long MAX_ID = KeyLayout.MAX_VID;
    /** Largest dictionary id a key can carry (16 bits). */
    public static final int MAX_LABEL = KeyLayout.MAX_LABEL;

    private GraphKeys() {
    }

    public static long vertex(final long vid) {
        return KeyLayout.key(vid, 0, VERTEX);
    }

    public static long out(final long vid, final int label) {
        return KeyLayout.key(vid, label, OUT);
    }

    public static long in(final long vid, final int label) {
        return KeyLayout.key(vid, label, IN);
    }

    public static long edgeProperties(final long outVid, final int label) {
        return KeyLayout.key(outVid, label, EDGE);
    }

    public static long edgeIndex(final long edgeId) {
        return KeyLayout.key(edgeId, 0, EDGE_INDEX);
    }

    /** Sealed segment {@code slot} (1..{@value AdjacencySegments#MAX_SLOTS}) of one of the vertex's lists. */
    public static long segment(final long vid, final int slot) {
        if (slot < 1) {
            throw new IllegalArgumentException("segment slot " + slot + " of vertex " + vid + ": slots start at 1");
        }
        return KeyLayout.key(vid, slot, SEGMENT);
    }

    /** Which slot each of the vertex's sealed segments has ({@link AdjacencySegments#slotOf}). */
    public static long segmentSlots(final long vid) {
        return KeyLayout.key(vid, 0, SEGMENT);
    }

    /** The {@link DictionaryRecord}. */
    public static long dictionary() {
        return KeyLayout.key(0, 0, SHARED);
    }

    /** The {@link IdBlocks} counter. */
    public static long idBlocks() {
        return KeyLayout.key(1, 0, SHARED);
    }

    public static long vid(final long key) {
        return KeyLayout.vid(key);
    }

    public static int label(final long key) {
        return KeyLayout.label(key);
    }

    /**
     * {@code kind} when a key can carry it (1..{@value KeyLayout#MAX_KIND}); otherwise an error naming it, the same
     * from every store (a cluster machine's client port refuses such a scan too).
     */
    public static int checkKind(final int kind) {
        if (kind < 1 || kind > KeyLayout.MAX_KIND) {
            throw new IllegalArgumentException("no key kind " + kind + ": kinds are 1.." + KeyLayout.MAX_KIND);
        }
        return kind;
    }

    public static int kind(final long key) {
        return KeyLayout.kind(key);
    }
}
