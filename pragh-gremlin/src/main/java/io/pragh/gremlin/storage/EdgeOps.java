package io.pragh.gremlin.storage;

/**
 * Builds the arguments of the {@link GraphMutations#EDGE_PROPERTIES} mutator: set or remove one property of one
 * edge, or drop all of an edge's properties when the edge is removed.
 *
 * <p>Example: {@code store.update(GraphKeys.edgeProperties(out, label), GraphMutations.EDGE_PROPERTIES, EdgeOps.set(id, field));}
 */
public final class EdgeOps {
    static final int SET = 1;
    static final int REMOVE = 2;
    static final int DROP = 3;

    private EdgeOps() {
    }

    public static byte[] set(final long edgeId, final PropertyField field) {
        final ByteWriter w = new ByteWriter(16 + field.value.length).putByte(SET).putLong(edgeId);
        field.write(w);
        return w.toByteArray();
    }

    public static byte[] remove(final long edgeId, final int key) {
        return new ByteWriter(11).putByte(REMOVE).putLong(edgeId).putShort(key).toByteArray();
    }

    public static byte[] drop(final long edgeId) {
        return new ByteWriter(9).putByte(DROP).putLong(edgeId).toByteArray();
    }
}
