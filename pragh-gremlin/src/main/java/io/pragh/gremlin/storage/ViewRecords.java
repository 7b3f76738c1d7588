package io.pragh.gremlin.storage;

import io.pragh.keys.KeyLayout;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;

/**
 * The records of graph views (issue 17), as ordinary store values so the write-ahead log and recovery cover them:
 * a vertex's membership bits (bit {@code b} set: the vertex is a member of the view numbered {@code b}) under
 * {@code VIEW(vid, 0)}, homed with the vertex; a member's view properties under {@code VIEW(vid, 1 + b)}, homed
 * with the member too; a view's own properties under {@code VIEW(b, VIEW_PROPERTIES)}; and the catalog (name to
 * view number) under {@code SHARED(2)}; edge members, per out-vertex, under {@code VIEW(outVid, EDGE_MEMBERS)}: one
 * entry {@code label:i16 edgeNumber:i64 bits:i64} per member edge, homed with the edge's out-vertex (where its list
 * and its properties live), so "which views hold this edge" is one GET at the edge's home. Every change is a read-modify-write run at the value's host (the mutators
 * below), so two clients adding members, or properties, to one record never lose each other's change.
 *
 * <p>Example: {@code store.update(ViewRecords.members(vid), ViewRecords.BITS, ViewRecords.setBits(1L << b));}
 */
public final class ViewRecords {
    /** Key kind of view records: after pragh-rdf's kinds (+2..+6) and adjacency segments (+7). */
    public static final int VIEW = KeyLayout.FIRST_PROVIDER_KIND + 8;
    /** Most views one graph holds: one membership bit each in a 64-bit record. */
    public static final int MAX_VIEWS = 64;
    /** The key label of a view's own property record (above every member-property label {@code 1 + b}). */
    public static final int VIEW_PROPERTIES = 1 + MAX_VIEWS;
    /** The key label of an out-vertex's edge membership record. */
    public static final int EDGE_MEMBERS = 2 + MAX_VIEWS;
    /**
     * The key label of a vertex's record of the edge members it is the in-vertex of (entries as in an edge
     * membership record): a view holding an edge holds its ends in a traversal under the view.
     */
    public static final int EDGE_ENDS = 3 + MAX_VIEWS;
    /** Bytes of one entry of an edge membership record. */
    private static final int EDGE_ENTRY_BYTES = 18;

    /** Mutator: ORs or clears membership bits; argument {@code op:i8 mask:i64} (little-endian, as written). */
    public static final int BITS = GraphMutations.FIRST_ID + 9;
    /** Length of a {@link #BITS} argument. */
    public static final int BITS_ARG_BYTES = 9;
    /** Mutator: adds or drops a catalog entry; argument {@code op:i8 name:utf8}. */
    public static final int CATALOG = GraphMutations.FIRST_ID + 10;
    /** Mutator: sets or removes one property of a property record; argument {@code op:i8 name value}. */
    public static final int PROPERTY = GraphMutations.FIRST_ID + 11;

    /**
     * Mutator: sets or clears membership bits of one edge in its out-vertex's edge membership record; argument
     * {@code op:i8 label:i16 edgeNumber:i64 mask:i64}.
     */
    public static final int EDGE_BITS = GraphMutations.FIRST_ID + 13;
    /** Length of an {@link #EDGE_BITS} argument. */
    public static final int EDGE_BITS_ARG_BYTES = 19;

    private static final int REMOVE = 0;
    private static final int ADD = 1;

    private ViewRecords() {
    }

    public static long members(final long vid) {
        return KeyLayout.key(vid, 0, VIEW);
    }

    public static long memberProperties(final long vid, final int view) {
        return KeyLayout.key(vid, 1 + view, VIEW);
    }

    public static long viewProperties(final int view) {
        return KeyLayout.key(view, VIEW_PROPERTIES, VIEW);
    }

    public static long catalog() {
        return KeyLayout.key(2, 0, GraphKeys.SHARED);
    }

    public static long edgeMembers(final long outVid) {
        return KeyLayout.key(outVid, EDGE_MEMBERS, VIEW);
    }

    public static long edgeEnds(final long inVid) {
        return KeyLayout.key(inVid, EDGE_ENDS, VIEW);
    }

    public static boolean isEdgeEnds(final long key) {
        return KeyLayout.kind(key) == VIEW && KeyLayout.label(key) == EDGE_ENDS;
    }

    public static boolean isEdgeMembership(final long key) {
        return KeyLayout.kind(key) == VIEW && KeyLayout.label(key) == EDGE_MEMBERS;
    }

    public static boolean isMembership(final long key) {
        return KeyLayout.kind(key) == VIEW && KeyLayout.label(key) == 0;
    }

    /** The membership bits of a record (0 when absent). */
    public static long bits(final byte[] record) {
        return record == null ? 0L : ByteReader.longAt(record, 0);
    }

    public static byte[] setBits(final long mask) {
        return new ByteWriter(9).putByte(ADD).putLong(mask).toByteArray();
    }

    public static byte[] clearBits(final long mask) {
        return new ByteWriter(9).putByte(REMOVE).putLong(mask).toByteArray();
    }

    static byte[] applyBits(final byte[] cur, final byte[] arg) {
        final ByteReader r = new ByteReader(arg);
        final int op = r.getByte();
        final long mask = r.getLong();
        final long bits = bitsAfter(bits(cur), op, mask);
        if (bits == 0) {
            return null; // no view holds the vertex: no record, so a scan of memberships skips it
        }
        final byte[] out = new byte[8];
        ByteWriter.putLongAt(out, 0, bits);
        return out;
    }

    /**
     * The bits a {@link #BITS} update with argument {@code op:i8 mask:i64} leaves over {@code bits}: each bit of the
     * mask set (op 1) or cleared (op 0), whatever it was, so the update applied twice leaves what it left once.
     */
    public static long bitsAfter(final long bits, final int op, final long mask) {
        return op == ADD ? bits | mask : bits & ~mask;
    }

    /** Sets (op 1) or clears (op 0) the bits of {@code mask} for edge {@code edgeNumber} of label {@code label}. */
    public static byte[] edgeBits(final int op, final int label, final long edgeNumber, final long mask) {
        return new ByteWriter(19).putByte(op == ADD ? ADD : REMOVE).putShort(label).putLong(edgeNumber).putLong(mask)
            .toByteArray();
    }

    /** Sees one entry of an edge membership record. */
    @FunctionalInterface
    public interface EdgeEntry {
        void accept(int label, long edgeNumber, long bits);
    }

    /** Every entry of an edge membership record (none when absent). */
    public static void forEachEdge(final byte[] record, final EdgeEntry visit) {
        if (record == null) {
            return;
        }
        final ByteReader r = new ByteReader(record);
        for (int i = 0; i < record.length / EDGE_ENTRY_BYTES; i++) {
            visit.accept(r.getShort(), r.getLong(), r.getLong());
        }
    }

    /** The bits of edge {@code edgeNumber} in an edge membership record (0 when it is in no view). */
    public static long edgeBitsOf(final byte[] record, final long edgeNumber) {
        final long[] bits = {0};
        forEachEdge(record, (label, number, b) -> {
            if (number == edgeNumber) {
                bits[0] = b;
            }
        });
        return bits[0];
    }

    /** The views holding some edge of an edge membership (or edge ends) record, one bit each. */
    public static long allBitsOf(final byte[] record) {
        final long[] bits = {0};
        forEachEdge(record, (l, number, b) -> bits[0] |= b);
        return bits[0];
    }

    /** The views holding some edge of label {@code label} in an edge membership record, one bit each. */
    public static long labelBitsOf(final byte[] record, final int label) {
        final long[] bits = {0};
        forEachEdge(record, (l, number, b) -> {
            if (l == label) {
                bits[0] |= b;
            }
        });
        return bits[0];
    }

    static byte[] applyEdgeBits(final byte[] cur, final byte[] arg) {
        final ByteReader r = new ByteReader(arg);
        final int op = r.getByte();
        final int label = r.getShort();
        final long edgeNumber = r.getLong();
        final long mask = r.getLong();
        final ByteWriter w = new ByteWriter((cur == null ? 0 : cur.length) + EDGE_ENTRY_BYTES);
        final boolean[] seen = {false};
        final int[] n = {0};
        forEachEdge(cur, (l, number, b) -> {
            final long bits = number == edgeNumber ? bitsAfter(b, op, mask) : b;
            seen[0] |= number == edgeNumber;
            if (bits != 0) {
                w.putShort(l).putLong(number).putLong(bits);
                n[0]++;
            }
        });
        final long added = seen[0] ? 0 : bitsAfter(0, op, mask);
        if (added != 0) {
            w.putShort(label).putLong(edgeNumber).putLong(added);
            n[0]++;
        }
        return n[0] == 0 ? null : w.toByteArray();
    }

    /** The catalog, view name to view number (empty when absent). */
    public static Map<String, Integer> catalog(final byte[] record) {
        final Map<String, Integer> views = new TreeMap<>();
        if (record == null) {
            return views;
        }
        final ByteReader r = new ByteReader(record);
        final int n = r.getShort();
        for (int i = 0; i < n; i++) {
            final int view = r.getByte();
            views.put(new String(r.getBytes(r.getShort()), StandardCharsets.UTF_8), view);
        }
        return views;
    }

    public static byte[] createView(final String name) {
        return nameArg(ADD, name);
    }

    public static byte[] dropView(final String name) {
        return nameArg(REMOVE, name);
    }

    private static byte[] nameArg(final int op, final String name) {
        final byte[] utf = name.getBytes(StandardCharsets.UTF_8);
        return new ByteWriter(1 + utf.length).putByte(op).putBytes(utf).toByteArray();
    }

    /** Adds a name with the lowest free view number (unchanged when present or when all numbers are taken). */
    static byte[] applyCatalog(final byte[] cur, final byte[] arg) {
        final Map<String, Integer> views = catalog(cur);
        final ByteReader r = new ByteReader(arg);
        final int op = r.getByte();
        final String name = new String(r.getBytes(arg.length - 1), StandardCharsets.UTF_8);
        if (op == REMOVE) {
            views.remove(name);
        } else if (!views.containsKey(name)) {
            long used = 0;
            for (final int v : views.values()) {
                used |= 1L << v;
            }
            if (used == -1L) {
                return cur;
            }
            views.put(name, Long.numberOfTrailingZeros(~used));
        }
        if (views.isEmpty()) {
            return null;
        }
        final ByteWriter w = new ByteWriter(64).putShort(views.size());
        views.forEach((n, v) -> {
            final byte[] utf = n.getBytes(StandardCharsets.UTF_8);
            w.putByte(v).putShort(utf.length).putBytes(utf);
        });
        return w.toByteArray();
    }

    /** A property record, name to value (empty when absent). */
    public static Map<String, Object> properties(final byte[] record) {
        final Map<String, Object> props = new TreeMap<>();
        if (record == null) {
            return props;
        }
        final ByteReader r = new ByteReader(record);
        final int n = r.getShort();
        for (int i = 0; i < n; i++) {
            final String name = new String(r.getBytes(r.getShort()), StandardCharsets.UTF_8);
            props.put(name, ValueCodec.read(r));
        }
        return props;
    }

    /** Sets {@code name} to {@code value}, or removes it when {@code value} is null. */
    public static byte[] property(final String name, final Object value) {
        final byte[] utf = name.getBytes(StandardCharsets.UTF_8);
        final ByteWriter w = new ByteWriter(16 + utf.length).putByte(value == null ? REMOVE : ADD)
            .putShort(utf.length).putBytes(utf);
        if (value != null) {
            ValueCodec.write(w, value);
        }
        return w.toByteArray();
    }

    static byte[] applyProperty(final byte[] cur, final byte[] arg) {
        final Map<String, Object> props = properties(cur);
        final ByteReader r = new ByteReader(arg);
        final int op = r.getByte();
        final String name = new String(r.getBytes(r.getShort()), StandardCharsets.UTF_8);
        if (op == REMOVE) {
            props.remove(name);
        } else {
            props.put(name, ValueCodec.read(r));
        }
        if (props.isEmpty()) {
            return null;
        }
        final ByteWriter w = new ByteWriter(64).putShort(props.size());
        props.forEach((n, v) -> {
            final byte[] utf = n.getBytes(StandardCharsets.UTF_8);
            w.putShort(utf.length).putBytes(utf);
            ValueCodec.write(w, v);
        });
        return w.toByteArray();
    }
}
