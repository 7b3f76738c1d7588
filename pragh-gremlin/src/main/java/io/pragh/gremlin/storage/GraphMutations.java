package io.pragh.gremlin.storage;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The provider's value mutators, registered with the store under ids from {@link #FIRST_ID} up (ids below are the
 * core's). Each one edits one record at the value's host, so two clients adding properties to one vertex, or edges
 * to one adjacency list, both get their change in; neither overwrites the other with a stale copy.
 *
 * <p>Example: {@code store.update(GraphKeys.vertex(v), GraphMutations.VERTEX, VertexOps.removeProperty(pid));}
 */
public final class GraphMutations {
    /**
     * The first mutator id of the graph provider: 16..31 are left to server-side mutators (a server machine
     * registers its crash-restore mutator at 16 and the provider's beside it).
     */
    public static final int FIRST_ID = 32;
    /**
     * Removes the adjacency entries of one edge id, or tombstones it in a segmented list's head when a sealed segment
     * holds it ({@link AdjacencySegments#removeEdge}); argument {@code edgeId:i64}.
     */
    public static final int REMOVE_EDGE = 32;
    /** Applies one {@link VertexOps} operation to a vertex record. */
    public static final int VERTEX = 33;
    /** Applies one {@link EdgeOps} operation to an edge properties record. */
    public static final int EDGE_PROPERTIES = 34;
    /** Adds one entry to the shared {@link DictionaryRecord}. */
    public static final int DICTIONARY = 35;
    /** Claims a block of ids from, or advances, the shared {@link IdBlocks} counter. */
    public static final int ID_BLOCKS = 36;
    /**
     * Takes a list for one sealer, or over from one whose lease ran out ({@link SealLease#begin}); argument
     * {@code token:i64, now:i64, leaseMillis:i64}.
     */
    public static final int SEAL_BEGIN = 37;
    /** Moves a tail's first entries into a sealed segment ({@link AdjacencySegments#sealCommit}). */
    public static final int SEAL_COMMIT = 38;
    /** Gives a segment a slot in its vertex's slot record ({@link AdjacencySegments#claimSlot}). */
    public static final int SEGMENT_SLOT = 39;
    /** Drops tombstones a compaction applied to the sealed segments ({@link AdjacencySegments#compactCommit}). */
    public static final int COMPACT_COMMIT = 40;
    /**
     * Writes a sealed segment stamped with its writer's token, unless a later holder of the list wrote it
     * ({@link SegmentStamp#write}); argument {@code token:i64} then the entries. (41..43 and 45 are {@link ViewRecords}'.)
     */
    public static final int SEGMENT_WRITE = FIRST_ID + 12;

    /** Every provider mutator, by id, for registration: {@code ids()[i]} runs {@code updates()[i]}. */
    public static int[] ids() {
        return new int[] {REMOVE_EDGE, VERTEX, EDGE_PROPERTIES, DICTIONARY, ID_BLOCKS, SEAL_BEGIN, SEAL_COMMIT,
            SEGMENT_SLOT, COMPACT_COMMIT, ViewRecords.BITS, ViewRecords.CATALOG, ViewRecords.PROPERTY, SEGMENT_WRITE,
            ViewRecords.EDGE_BITS};
    }

    public static RecordUpdate[] updates() {
        return new RecordUpdate[] {AdjacencySegments::removeEdge, GraphMutations::vertex, GraphMutations::edgeProperties,
            DictionaryRecord::add, IdBlocks::apply, SealLease::begin, AdjacencySegments::sealCommit,
            AdjacencySegments::claimSlot, AdjacencySegments::compactCommit, ViewRecords::applyBits,
            ViewRecords::applyCatalog, ViewRecords::applyProperty, SegmentStamp::write, ViewRecords::applyEdgeBits};
    }

    private GraphMutations() {
    }

    static byte[] vertex(final byte[] cur, final byte[] arg) {
        if (cur == null) {
            return null; // the vertex was removed: an edit must not resurrect it
        }
        final VertexRecord record = VertexRecord.decode(cur);
        final ByteReader r = new ByteReader(arg);
        final int op = r.getByte();
        switch (op) {
            case VertexOps.ADD: {
                final int cardinality = r.getByte();
                final PropertyField field = PropertyField.read(r);
                final long id = r.getLong();
                final int m = r.getShort();
                final List<PropertyField> metas = new ArrayList<>(m);
                for (int i = 0; i < m; i++) {
                    metas.add(PropertyField.read(r));
                }
                if (cardinality == VertexOps.SINGLE) {
                    record.properties.removeIf(e -> e.field.key == field.key);
                } else if (cardinality == VertexOps.SET) {
                    for (final VertexRecord.Entry e : record.properties) {
                        if (e.field.key == field.key && e.field.sameValue(field.value)) {
                            return cur;
                        }
                    }
                }
                record.properties.add(new VertexRecord.Entry(field, id, metas));
                break;
            }
            case VertexOps.REMOVE: {
                final long id = r.getLong();
                record.properties.removeIf(e -> e.id == id);
                break;
            }
            case VertexOps.SET_META: {
                final long id = r.getLong();
                final PropertyField meta = PropertyField.read(r);
                final VertexRecord.Entry e = record.find(id);
                if (e == null) {
                    return cur;
                }
                e.metas.removeIf(f -> f.key == meta.key);
                e.metas.add(meta);
                break;
            }
            case VertexOps.REMOVE_META: {
                final long id = r.getLong();
                final int key = r.getShort();
                final VertexRecord.Entry e = record.find(id);
                if (e == null) {
                    return cur;
                }
                e.metas.removeIf(f -> f.key == key);
                break;
            }
            default:
                throw new CorruptRecordException("unknown vertex operation " + op);
        }
        return record.encode();
    }

    static byte[] edgeProperties(final byte[] cur, final byte[] arg) {
        final EdgePropertiesRecord record = EdgePropertiesRecord.decode(cur);
        final ByteReader r = new ByteReader(arg);
        final int op = r.getByte();
        final long edgeId = r.getLong();
        switch (op) {
            case EdgeOps.SET: {
                final PropertyField field = PropertyField.read(r);
                final List<PropertyField> fields = record.edges.computeIfAbsent(edgeId, k -> new ArrayList<>(2));
                fields.removeIf(f -> f.key == field.key);
                fields.add(field);
                break;
            }
            case EdgeOps.REMOVE: {
                final int key = r.getShort();
                final List<PropertyField> fields = record.edges.get(edgeId);
                if (fields != null) {
                    for (final Iterator<PropertyField> it = fields.iterator(); it.hasNext(); ) {
                        if (it.next().key == key) {
                            it.remove();
                        }
                    }
                    if (fields.isEmpty()) {
                        record.edges.remove(edgeId);
                    }
                }
                break;
            }
            case EdgeOps.DROP:
                record.edges.remove(edgeId);
                break;
            default:
                throw new CorruptRecordException("unknown edge properties operation " + op);
        }
        return record.encode();
    }
}
