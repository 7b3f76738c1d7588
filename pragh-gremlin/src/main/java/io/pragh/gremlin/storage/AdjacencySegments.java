package io.pragh.gremlin.storage;

/**
 * Supernodes: an adjacency list above a threshold kept as <em>sealed segments</em> under keys of their own plus an
 * <em>open tail</em> under the list's own OUT or IN key. Appends keep going to the list's key (the store's APPEND, in
 * place), so an edge insert touches one value, the last segment, whatever the degree; a full tail is sealed into a
 * new segment by the writer that noticed ({@code SegmentSealer}); a hop reads the tail and then every sealed segment
 * of every segmented list of the frontier in one more batch. Every segment is a key of its own to the monitor and the
 * migrator, so a hot segment migrates alone, and no value outgrows the 32 MiB a migrated value may have.
 *
 * <pre>
 *   the tail (value under GraphKeys.out/in(vid, label)): head entries first, then body entries (16 bytes each)
 *   +--------------------------------+----------------------------+---------------------------------+
 *   | HEAD|tag : i64 | payload : i64 | ... more head entries ...  | neighbour >= 0 : i64 | edge : i64 | ...
 *   +--------------------------------+----------------------------+---------------------------------+
 *   tag SEGMENT    payload = slot of a sealed segment, in seal order: its key is GraphKeys.segment(vid, slot)
 *   tag TOMBSTONE  payload = number of an edge removed from a sealed segment (readers skip it there)
 *   tag SEALING    payload = token of the one writer sealing this list now or last, with its lease (SealLease)
 *
 *   a sealed segment (value under GraphKeys.segment(vid, slot)): a STAMP head entry naming the token that wrote it
 *   (SegmentStamp; absent in segments a bulk load wrote), then body entries exactly as an ordinary list
 *   the slot record (value under GraphKeys.segmentSlots(vid)): one i64 tag per slot, slot = index + 1,
 *   tag = kind:8 | label:16 | ordinal:32, so every list of the vertex has slots of its own
 * </pre>
 *
 * A head entry is told from an edge entry by its first long: vertex ids are never negative, head entries always
 * are. So an ordinary list, the common case, costs a reader one load and one branch, and no GET. Head entries also
 * carry bit 63 in their second long, so no head entry matches an edge number ({@link Adjacency}: bit 63 clear).
 *
 * <p>Example: {@code if (AdjacencySegments.headEntries(list) > 0) for (long slot : AdjacencySegments.slots(list)) read(GraphKeys.segment(vid, (int) slot));}
 */
public final class AdjacencySegments {
    /** Sealed segments of this many entries (1 MiB); a tail longer than it is sealed. */
    public static final int DEFAULT_SEGMENT_ENTRIES = 1 << 16;
    /**
     * The longest segment: its write is one logged mutator argument (token and entries), which the write-ahead log
     * takes up to 64 MiB, so 4M - 1 entries of 16 bytes.
     */
    public static final int MAX_SEGMENT_ENTRIES = (64 << 20) / Adjacency.ENTRY_BYTES - 1;
    /** Slots a vertex can give its segments (the label field of a key). */
    public static final int MAX_SLOTS = GraphKeys.MAX_LABEL;

    public static final int SEGMENT = 1;
    public static final int TOMBSTONE = 2;
    public static final int SEALING = 3;
    /** The head entry of a sealed segment: the token that wrote it ({@link SegmentStamp}). */
    public static final int STAMP = 4;
    private static final long HEAD = Long.MIN_VALUE;

    private AdjacencySegments() {
    }

    /** Whether an entry's first long (a neighbour id in a body entry) marks a head entry. */
    public static boolean isHead(final long first) {
        return first < 0;
    }

    public static int tag(final long first) {
        return (int) (first & 0xFF);
    }

    /** The payload of a head entry from its second long. */
    public static long payload(final long second) {
        return second & ~HEAD;
    }

    /** Writes a head entry at {@code offset}. */
    public static void putHead(final byte[] into, final int offset, final int tag, final long payload) {
        ByteWriter.putLongAt(into, offset, HEAD | tag);
        ByteWriter.putLongAt(into, offset + 8, HEAD | payload);
    }

    /** Leading head entries of a list value (0 for an ordinary list or null). */
    public static int headEntries(final byte[] list) {
        final int n = Adjacency.count(list);
        int h = 0;
        while (h < n && isHead(Adjacency.neighbour(list, h))) {
            h++;
        }
        return h;
    }

    /** The slots of the sealed segments, in seal order (empty for an ordinary list). */
    public static long[] slots(final byte[] list) {
        return payloads(list, SEGMENT);
    }

    /** The edge numbers removed from sealed segments. */
    public static long[] tombstones(final byte[] list) {
        return payloads(list, TOMBSTONE);
    }

    private static long[] payloads(final byte[] list, final int tag) {
        final int h = headEntries(list);
        int n = 0;
        final long[] out = new long[h];
        for (int i = 0; i < h; i++) {
            if (tag(Adjacency.neighbour(list, i)) == tag) {
                out[n++] = payload(Adjacency.edgeId(list, i));
            }
        }
        return java.util.Arrays.copyOf(out, n);
    }

    /** The tag a vertex's slot record holds for one segment of one list. */
    public static long slotTag(final int kind, final int label, final long ordinal) {
        return ((long) kind << 48) | ((long) label << 32) | (ordinal & 0xFFFF_FFFFL);
    }

    /** The slot {@code tag} has in a slot record, or -1 when it has none. */
    public static int slotOf(final byte[] slotRecord, final long tag) {
        for (int i = 0; slotRecord != null && i + 8 <= slotRecord.length; i += 8) {
            if (ByteReader.longAt(slotRecord, i) == tag) {
                return i / 8 + 1;
            }
        }
        return -1;
    }

    /** An order-sensitive hash of the first {@code entries} body entries after {@code from}: what a seal checks. */
    public static long checksum(final byte[] list, final int from, final int entries) {
        long h = 0x9E3779B97F4A7C15L;
        for (int i = from; i < from + entries; i++) {
            h = (h ^ Adjacency.edgeId(list, i)) * 0xBF58476D1CE4E5B9L;
            h = (h ^ Adjacency.neighbour(list, i)) * 0x94D049BB133111EBL;
        }
        return h ^ (h >>> 31);
    }

    // ---- mutators, run at the value's host (see GraphMutations) ----

    /**
     * REMOVE_EDGE: drops the edge's body entries; head entries stay. An edge a segmented list does not hold in its
     * tail was sealed (or never was): it gets a tombstone, once, which readers apply to the sealed segments. The key
     * is deleted only when nothing, head or body, is left.
     */
    static byte[] removeEdge(final byte[] cur, final byte[] arg) {
        if (cur == null) {
            return null;
        }
        final long edgeId = ByteReader.longAt(arg, 0);
        final int n = Adjacency.count(cur);
        final int h = headEntries(cur);
        boolean removed = false;
        boolean sealed = false;
        boolean tombstoned = false;
        final ByteWriter w = new ByteWriter(cur.length + Adjacency.ENTRY_BYTES);
        for (int i = 0; i < n; i++) {
            if (i < h) {
                final int tag = tag(Adjacency.neighbour(cur, i));
                sealed |= tag == SEGMENT;
                tombstoned |= tag == TOMBSTONE && payload(Adjacency.edgeId(cur, i)) == edgeId;
            } else if (Adjacency.edgeId(cur, i) == edgeId) {
                removed = true;
                continue;
            }
            w.putBytes(cur, i * Adjacency.ENTRY_BYTES, Adjacency.ENTRY_BYTES);
            if (i == h - 1 && sealed && !tombstoned && indexOfBody(cur, h, edgeId) < 0) {
                final byte[] tomb = new byte[Adjacency.ENTRY_BYTES];
                putHead(tomb, 0, TOMBSTONE, edgeId);
                w.putBytes(tomb);
            }
        }
        return w.position() == 0 ? null : w.toByteArray();
    }

    private static int indexOfBody(final byte[] list, final int from, final long edgeId) {
        for (int i = from, n = Adjacency.count(list); i < n; i++) {
            if (Adjacency.edgeId(list, i) == edgeId) {
                return i;
            }
        }
        return -1;
    }

    /**
     * SEAL_COMMIT, argument {@code token:i64, slot:i64, entries:i64, checksum:i64}: when this token holds the list
     * and its first {@code entries} body entries still hash to {@code checksum} (no removal ran since the sealer
     * copied them into the segment at {@code slot}), they leave the tail and the slot joins the head; the token is
     * let go either way (slot 0: only let go). A token that lost the list to a takeover ({@link SealLease}) changes
     * nothing: the taker's own seal of those entries, or its none, stands.
     */
    static byte[] sealCommit(final byte[] cur, final byte[] arg) {
        final long token = ByteReader.longAt(arg, 0);
        final long slot = ByteReader.longAt(arg, 8);
        final int entries = (int) ByteReader.longAt(arg, 16);
        final long checksum = ByteReader.longAt(arg, 24);
        if (cur == null || !SealLease.holds(cur, token)) {
            return cur;
        }
        final int h = headEntries(cur);
        final boolean commit = slot > 0 && Adjacency.count(cur) - h >= entries
            && checksum(cur, h, entries) == checksum;
        final ByteWriter w = new ByteWriter(cur.length);
        int lastSegment = -1;
        for (int i = 0; i < h; i++) {
            final int tag = tag(Adjacency.neighbour(cur, i));
            lastSegment = tag == SEGMENT ? i : lastSegment;
        }
        final byte[] entry = new byte[Adjacency.ENTRY_BYTES];
        if (commit && lastSegment < 0) {
            putHead(entry, 0, SEGMENT, slot);
            w.putBytes(entry);
        }
        for (int i = 0; i < h; i++) {
            putKept(w, cur, i, true);
            if (commit && i == lastSegment) {
                putHead(entry, 0, SEGMENT, slot);
                w.putBytes(entry);
            }
        }
        final int bodyFrom = (h + (commit ? entries : 0)) * Adjacency.ENTRY_BYTES;
        w.putBytes(cur, bodyFrom, cur.length - bodyFrom);
        return w.toByteArray();
    }

    /**
     * COMPACT_COMMIT, argument {@code token:i64, edgeNumber:i64...}: once the holder of {@code token} has rewritten
     * the sealed segments without these removed edges, their tombstones go, and the token is let go.
     */
    static byte[] compactCommit(final byte[] cur, final byte[] arg) {
        final long token = ByteReader.longAt(arg, 0);
        if (cur == null || !SealLease.holds(cur, token)) {
            return cur;
        }
        final java.util.Set<Long> applied = new java.util.HashSet<>();
        for (int at = 8; at + 8 <= arg.length; at += 8) {
            applied.add(ByteReader.longAt(arg, at));
        }
        final ByteWriter w = new ByteWriter(cur.length);
        final int h = headEntries(cur);
        for (int i = 0; i < h; i++) {
            final int tag = tag(Adjacency.neighbour(cur, i));
            putKept(w, cur, i, !(tag == TOMBSTONE && applied.contains(payload(Adjacency.edgeId(cur, i)))));
        }
        w.putBytes(cur, h * Adjacency.ENTRY_BYTES, cur.length - h * Adjacency.ENTRY_BYTES);
        return w.toByteArray();
    }

    /** Copies head entry {@code i} if {@code kept}; the SEALING entry always, as released (it keeps the last token). */
    private static void putKept(final ByteWriter w, final byte[] cur, final int i, final boolean kept) {
        if (tag(Adjacency.neighbour(cur, i)) == SEALING) {
            final byte[] released = new byte[Adjacency.ENTRY_BYTES];
            SealLease.putReleased(released, 0, cur, i);
            w.putBytes(released);
        } else if (kept) {
            w.putBytes(cur, i * Adjacency.ENTRY_BYTES, Adjacency.ENTRY_BYTES);
        }
    }

    /** Whether the list's head has an entry of {@code tag}. */
    public static boolean hasTag(final byte[] list, final int tag) {
        for (int i = 0, h = headEntries(list); i < h; i++) {
            if (tag(Adjacency.neighbour(list, i)) == tag) {
                return true;
            }
        }
        return false;
    }

    /** The token of the writer sealing the list, or 0 when none is ({@link SealLease#holder}). */
    public static long sealingToken(final byte[] list) {
        return SealLease.holder(list);
    }

    /** SEGMENT_SLOT, argument {@code tag:i64}: gives the tag a slot in the vertex's slot record, once. */
    static byte[] claimSlot(final byte[] cur, final byte[] arg) {
        final long tag = ByteReader.longAt(arg, 0);
        if (slotOf(cur, tag) > 0) {
            return cur;
        }
        final int used = cur == null ? 0 : cur.length / 8;
        if (used >= MAX_SLOTS) {
            throw new IllegalStateException("a vertex has " + MAX_SLOTS + " adjacency segments, all it can key");
        }
        final byte[] out = new byte[(used + 1) * 8];
        if (cur != null) {
            System.arraycopy(cur, 0, out, 0, cur.length);
        }
        ByteWriter.putLongAt(out, used * 8, tag);
        return out;
    }
}
