package io.pragh.gremlin.storage;

/**
 * The value under a supplied edge id's EDGE_INDEX key: where the edge lives, so that {@code g.E(id)} finds it with one
 * GET. Edges whose id the graph assigned have none: their compact id names their out-vertex ({@link Adjacency}). Layout: {@code outVid:i64, label:u16, inVid:i64}.
 *
 * <p>Example: {@code EdgeIndexRecord e = EdgeIndexRecord.decode(store.get(GraphKeys.edgeIndex(id)));}
 */
public final class EdgeIndexRecord {
    public static final int BYTES = 18;

    public final long outVid;
    public final int label;
    public final long inVid;

    public EdgeIndexRecord(final long outVid, final int label, final long inVid) {
        this.outVid = outVid;
        this.label = label;
        this.inVid = inVid;
    }

    public byte[] encode() {
        return new ByteWriter(BYTES).putLong(outVid).putShort(label).putLong(inVid).toByteArray();
    }

    public static EdgeIndexRecord decode(final byte[] bytes) {
        if (bytes.length != BYTES) {
            throw new CorruptRecordException("edge index record is " + bytes.length + " bytes, expected " + BYTES);
        }
        final ByteReader r = new ByteReader(bytes);
        final long out = r.getLong();
        final int label = r.getShort();
        return new EdgeIndexRecord(out, label, r.getLong());
    }
}
