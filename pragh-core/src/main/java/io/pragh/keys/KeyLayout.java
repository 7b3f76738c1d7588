package io.pragh.keys;

import io.pragh.LimitExceededException;

/**
 * How a 64-bit key names a piece of a graph, after Wukong's {@code vid | label | direction} split:
 * <pre>
 *  | vid: 44 bits | label: 16 bits | kind: 4 bits |
 * </pre>
 * The kind says what is asked of the vertex (its record, its OUT or IN adjacency of one label, an edge's or a
 * property's data). Placement hashes the vid only, so everything about a vertex shares one home machine and a
 * traversal that starts there reads its first hop locally. Kind 0 is never used, so no valid key is 0, which the key
 * region uses to mark an empty slot.
 *
 * <pre>{@code
 * long k = KeyLayout.key(42, 3, KeyLayout.OUT);   // vertex 42's out-edges labelled 3
 * long v = KeyLayout.vid(k);                       // 42
 * }</pre>
 */
public final class KeyLayout {
    public static final int KIND_BITS = 4;
    public static final int LABEL_BITS = 16;
    public static final int VID_BITS = 44;
    public static final long MAX_VID = (1L << VID_BITS) - 1;
    public static final int MAX_LABEL = (1 << LABEL_BITS) - 1;

    /** The vertex record (existence, label, properties). */
    public static final int VERTEX = 1;
    /** Out-adjacency of one label: packed neighbour ids. */
    public static final int OUT = 2;
    /** In-adjacency of one label. */
    public static final int IN = 3;
    /** Data of one edge. */
    public static final int EDGE = 4;
    /** A property value. */
    public static final int PROPERTY = 5;
    /** First kind free for providers (the Gremlin provider uses 6..15). */
    public static final int FIRST_PROVIDER_KIND = 6;
    public static final int MAX_KIND = (1 << KIND_BITS) - 1;

    private KeyLayout() {
    }

    public static long key(long vid, int label, int kind) {
        if (vid < 0 || vid > MAX_VID) {
            throw new LimitExceededException("vertex id " + vid + " is outside 0.." + MAX_VID + " (44-bit vid in a key)");
        }
        if (label < 0 || label > MAX_LABEL) {
            throw new LimitExceededException("label " + label + " is outside 0.." + MAX_LABEL + " (16-bit label in a key)");
        }
        if (kind < 1 || kind > MAX_KIND) {
            throw new IllegalArgumentException("key kind " + kind + " is outside 1.." + MAX_KIND);
        }
        return (vid << (LABEL_BITS + KIND_BITS)) | ((long) label << KIND_BITS) | kind;
    }

    public static long vid(long key) {
        return key >>> (LABEL_BITS + KIND_BITS);
    }

    public static int label(long key) {
        return (int) ((key >>> KIND_BITS) & MAX_LABEL);
    }

    public static int kind(long key) {
        return (int) (key & MAX_KIND);
    }

    public static boolean isValid(long key) {
        return kind(key) != 0;
    }

    public static String toString(long key) {
        return "Key[vid=" + vid(key) + ", label=" + label(key) + ", kind=" + kind(key) + "]";
    }
}
