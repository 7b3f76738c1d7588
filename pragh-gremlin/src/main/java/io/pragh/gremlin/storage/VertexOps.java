package io.pragh.gremlin.storage;

import java.util.List;

/**
 * Builds the arguments of the {@link GraphMutations#VERTEX} mutator: add a vertex property (with its cardinality
 * rule applied at the host), remove one by id, set or remove one of its meta-properties.
 *
 * <p>Example: {@code store.update(key, GraphMutations.VERTEX, VertexOps.add(VertexOps.SINGLE, field, pid, List.of()));}
 */
public final class VertexOps {
    static final int ADD = 1;
    static final int REMOVE = 2;
    static final int SET_META = 3;
    static final int REMOVE_META = 4;

    /** Cardinality codes: single replaces every property of the key, list appends, set appends unless equal. */
    public static final int SINGLE = 0;
    public static final int LIST = 1;
    public static final int SET = 2;

    private VertexOps() {
    }

    public static byte[] add(final int cardinality, final PropertyField field, final long id, final List<PropertyField> metas) {
        final ByteWriter w = new ByteWriter(32 + field.value.length).putByte(ADD).putByte(cardinality);
        field.write(w);
        w.putLong(id).putShort(metas.size());
        for (final PropertyField m : metas) {
            m.write(w);
        }
        return w.toByteArray();
    }

    public static byte[] remove(final long propertyId) {
        return new ByteWriter(9).putByte(REMOVE).putLong(propertyId).toByteArray();
    }

    public static byte[] setMeta(final long propertyId, final PropertyField meta) {
        final ByteWriter w = new ByteWriter(16 + meta.value.length).putByte(SET_META).putLong(propertyId);
        meta.write(w);
        return w.toByteArray();
    }

    public static byte[] removeMeta(final long propertyId, final int key) {
        return new ByteWriter(11).putByte(REMOVE_META).putLong(propertyId).putShort(key).toByteArray();
    }

    /** The property an {@link #add} argument sets (for events that name it), or null for any other operation. */
    public static PropertyField added(final byte[] arg) {
        final ByteReader r = new ByteReader(arg);
        if (arg.length == 0 || r.getByte() != ADD) {
            return null;
        }
        r.getByte(); // cardinality
        return PropertyField.read(r);
    }
}
