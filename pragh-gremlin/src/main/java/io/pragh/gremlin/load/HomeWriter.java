package io.pragh.gremlin.load;

import io.pragh.embedded.Machine;
import io.pragh.gremlin.storage.Adjacency;
import io.pragh.gremlin.storage.AdjacencySegments;
import io.pragh.gremlin.storage.ByteWriter;
import io.pragh.gremlin.storage.GraphMutations;
import io.pragh.gremlin.storage.EdgeIndexRecord;
import io.pragh.gremlin.storage.GraphKeys;
import io.pragh.keys.Placement;
import io.pragh.store.BulkInsert;
import io.pragh.store.Mutators;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.LongAdder;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Writes everything of a bulk load that one machine is home to: the vertex records of its vertices, their OUT and IN
 * adjacency values whole (every entry of a vertex and label in one record) and, were edges indexed, the index
 * records of the edges whose id it is home to, through one {@link BulkInsert}, on the calling thread. A value whose key exists already (the
 * graph had edges of that vertex and label) is appended through the update protocol instead; a vertex that exists
 * keeps its record.
 *
 * <p>Example: {@code long written = new HomeWriter(index, machine, ...).call();}
 */
final class HomeWriter implements Callable<Long> {
    private static final int PROGRESS_EVERY = 4096;
    /**
     * Whether each edge gets an EDGE_INDEX record: only an edge with a supplied id needs one, and a bulk load assigns
     * its edges compact ids ({@link #edgeNumber}), found from their out-vertex's OUT list. The records' writing stays
     * for loads that will keep supplied edge ids.
     */
    static final boolean EDGE_INDEX_RECORDS = false;

    private final AdjacencyIndex index;
    private final Machine machine;
    private final Placement placement;
    private final int[] labelIds;
    private final long firstEdgeNumber;
    /** A list longer than this is written as sealed segments of this many entries and a tail. */
    private final int segmentEntries;
    private final byte[] vertexRecord;
    /** Adjacency entries written, for the progress bar. */
    private final LongAdder entriesWritten;
    private UnsafeBuffer scratch = new UnsafeBuffer(new byte[4096]);
    private final List<Object[]> appends = new ArrayList<>();

    HomeWriter(final AdjacencyIndex index, final Machine machine, final Placement placement, final int[] labelIds,
               final long firstEdgeNumber, final int segmentEntries, final byte[] vertexRecord,
               final LongAdder entriesWritten) {
        this.index = index;
        this.machine = machine;
        this.placement = placement;
        this.labelIds = labelIds;
        this.firstEdgeNumber = firstEdgeNumber;
        this.segmentEntries = segmentEntries;
        this.vertexRecord = vertexRecord;
        this.entriesWritten = entriesWritten;
    }

    /** Writes this machine's part; returns the keys it installed. */
    @Override
    public Long call() {
        final BulkInsert insert = new BulkInsert(machine.store());
        final byte me = (byte) machine.id();
        final UnsafeBuffer vertex = new UnsafeBuffer(vertexRecord);
        final EdgeBuffer edges = index.edges;
        int sinceProgress = 0;
        for (int v = 0; v < index.vertexCount; v++) {
            if (index.home[v] != me) {
                continue;
            }
            final long vid = index.vid(v);
            insert.insert(GraphKeys.vertex(vid), vertex, 0, vertexRecord.length); // false: it exists, and stays
            for (int l = 0; l < index.labels(); l++) {
                sinceProgress += adjacency(insert, GraphKeys.out(vid, labelIds[l]), index.out(l), v, true, edges);
                sinceProgress += adjacency(insert, GraphKeys.in(vid, labelIds[l]), index.in(l), v, false, edges);
            }
            if (sinceProgress >= PROGRESS_EVERY) {
                entriesWritten.add(sinceProgress);
                sinceProgress = 0;
            }
        }
        entriesWritten.add(sinceProgress);
        if (EDGE_INDEX_RECORDS) {
            edgeIndexRecords(insert, edges, me);
        }
        for (final Object[] a : appends) {
            machine.update((Long) a[0], Mutators.APPEND, (byte[]) a[1]);
        }
        insert.durable().join();
        return insert.inserted();
    }

    /** The number edge {@code e}'s adjacency entries carry: compact, so its id is {@code "outVid-label-number"}. */
    private long edgeNumber(final int e) {
        return (firstEdgeNumber + e) | Adjacency.COMPACT;
    }

    /** Writes one adjacency value whole; returns its entries. */
    private int adjacency(final BulkInsert insert, final long key, final AdjacencyIndex.Rows rows, final int v,
                          final boolean outgoing, final EdgeBuffer edges) {
        final int degree = rows.degree(v);
        if (degree == 0) {
            return 0;
        }
        final int bytes = degree * Adjacency.ENTRY_BYTES;
        if (scratch.capacity() < bytes) {
            scratch = new UnsafeBuffer(new byte[Math.max(bytes, scratch.capacity() * 2)]);
        }
        final int[] sorted = rows.edges();
        for (int i = 0, at = rows.start()[v]; i < degree; i++, at++) {
            final int e = sorted[at];
            scratch.putLong(i * Adjacency.ENTRY_BYTES, outgoing ? edges.in(e) : edges.out(e), ByteOrder.LITTLE_ENDIAN);
            scratch.putLong(i * Adjacency.ENTRY_BYTES + 8, edgeNumber(e), ByteOrder.LITTLE_ENDIAN);
        }
        if (degree > segmentEntries && machine.view(key) == null) {
            segmented(insert, key, degree);
            return degree;
        }
        if (!insert.insert(key, scratch, 0, bytes)) {
            final byte[] copy = new byte[bytes];
            scratch.getBytes(0, copy);
            appends.add(new Object[] {key, copy});
        }
        return degree;
    }

    /**
     * Writes the {@code degree} entries in {@link #scratch} as a supernode ({@link AdjacencySegments}): whole sealed
     * segments of {@link #segmentEntries} under slots claimed in the vertex's slot record, then the tail (their slots
     * in its head, the last 1..segmentEntries entries in its body), so a reader never meets a slot without its
     * segment, and the tail has room for appends before the next seal.
     */
    private void segmented(final BulkInsert insert, final long key, final int degree) {
        final int sealed = (degree - 1) / segmentEntries;
        final long vid = GraphKeys.vid(key);
        final long slotsKey = GraphKeys.segmentSlots(vid);
        final int segmentBytes = segmentEntries * Adjacency.ENTRY_BYTES;
        final int bodyFrom = sealed * segmentBytes;
        final int bodyBytes = degree * Adjacency.ENTRY_BYTES - bodyFrom;
        final byte[] tail = new byte[sealed * Adjacency.ENTRY_BYTES + bodyBytes];
        for (int s = 0; s < sealed; s++) {
            final long tag = AdjacencySegments.slotTag(GraphKeys.kind(key), GraphKeys.label(key), s);
            machine.update(slotsKey, GraphMutations.SEGMENT_SLOT, new ByteWriter(8).putLong(tag).toByteArray());
            final int slot = AdjacencySegments.slotOf(machine.get(slotsKey), tag);
            final long segmentKey = GraphKeys.segment(vid, slot);
            if (!insert.insert(segmentKey, scratch, s * segmentBytes, segmentBytes)) {
                final byte[] copy = new byte[segmentBytes];
                scratch.getBytes(s * segmentBytes, copy);
                machine.put(segmentKey, copy);
            }
            AdjacencySegments.putHead(tail, s * Adjacency.ENTRY_BYTES, AdjacencySegments.SEGMENT, slot);
        }
        scratch.getBytes(bodyFrom, tail, sealed * Adjacency.ENTRY_BYTES, bodyBytes);
        if (!insert.insert(key, new UnsafeBuffer(tail), 0, tail.length)) {
            // Written meanwhile by someone else: append to it as to any existing list (the segments go unused).
            final byte[] copy = new byte[degree * Adjacency.ENTRY_BYTES];
            scratch.getBytes(0, copy);
            appends.add(new Object[] {key, copy});
        }
    }

    /**
     * The keys of lists that existed before the load and got its entries appended, once {@link #call} returned: the
     * load seals those that may have grown past a segment.
     */
    List<Long> appendedKeys() {
        final List<Long> keys = new ArrayList<>(appends.size());
        for (final Object[] a : appends) {
            keys.add((Long) a[0]);
        }
        return keys;
    }

    /** Entries appended to the list of {@link #appendedKeys} index {@code i}. */
    int appendedEntries(final int i) {
        return ((byte[]) appends.get(i)[1]).length / Adjacency.ENTRY_BYTES;
    }

    /** The index records of the edges whose id this machine is home to (an edge is found by id through them). */
    private void edgeIndexRecords(final BulkInsert insert, final EdgeBuffer edges, final byte me) {
        final UnsafeBuffer record = new UnsafeBuffer(new byte[EdgeIndexRecord.BYTES]);
        for (int e = 0, n = edges.size(); e < n; e++) {
            final long key = GraphKeys.edgeIndex(firstEdgeNumber + e);
            if (placement.home(key) != me) {
                continue;
            }
            record.putLong(0, edges.out(e), ByteOrder.LITTLE_ENDIAN);
            record.putShort(8, (short) labelIds[edges.label(e)], ByteOrder.LITTLE_ENDIAN);
            record.putLong(10, edges.in(e), ByteOrder.LITTLE_ENDIAN);
            if (!insert.insert(key, record, 0, EdgeIndexRecord.BYTES)) {
                throw new IllegalStateException("edge id " + (firstEdgeNumber + e) + " claimed for this load has an"
                    + " index record already: the store's id counter was not respected");
            }
        }
    }
}
