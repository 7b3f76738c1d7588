package io.pragh.gremlin.storage;

import java.util.ArrayList;
import java.util.List;

/**
 * The value under a vertex's VERTEX key: its label and every vertex property, each with its id, value and
 * meta-properties. Layout (little-endian): {@code label:u16, count:u32, then per property key:u16, id:i64,
 * length:u32, value bytes, metaCount:u16, then per meta-property key:u16, length:u32, value bytes}.
 *
 * <p>Example: {@code VertexRecord r = VertexRecord.decode(bytes); int label = r.label;}
 */
public final class VertexRecord {
    /** One vertex property: several may share a key (multi-properties), each has its own id. */
    public static final class Entry {
        public final PropertyField field;
        public final long id;
        public final List<PropertyField> metas;

        public Entry(final PropertyField field, final long id, final List<PropertyField> metas) {
            this.field = field;
            this.id = id;
            this.metas = metas;
        }
    }

    public final int label;
    public final List<Entry> properties;

    public VertexRecord(final int label, final List<Entry> properties) {
        this.label = label;
        this.properties = properties;
    }

    /** A record with a label and no properties yet. */
    public static VertexRecord empty(final int label) {
        return new VertexRecord(label, new ArrayList<>());
    }

    public static VertexRecord decode(final byte[] bytes) {
        final ByteReader r = new ByteReader(bytes);
        final int label = r.getShort();
        final int n = r.getInt();
        final List<Entry> props = new ArrayList<>(Math.min(n, 64));
        for (int i = 0; i < n; i++) {
            final PropertyField f = PropertyField.read(r);
            final long id = r.getLong();
            final int m = r.getShort();
            final List<PropertyField> metas = new ArrayList<>(m);
            for (int j = 0; j < m; j++) {
                metas.add(PropertyField.read(r));
            }
            props.add(new Entry(f, id, metas));
        }
        if (r.hasRemaining()) {
            throw new CorruptRecordException("vertex record has trailing bytes at " + r.position());
        }
        return new VertexRecord(label, props);
    }

    public byte[] encode() {
        final ByteWriter w = new ByteWriter(64);
        w.putShort(label).putInt(properties.size());
        for (final Entry e : properties) {
            e.field.write(w);
            w.putLong(e.id).putShort(e.metas.size());
            for (final PropertyField m : e.metas) {
                m.write(w);
            }
        }
        return w.toByteArray();
    }

    /** The property with this id, or null. */
    public Entry find(final long propertyId) {
        for (final Entry e : properties) {
            if (e.id == propertyId) {
                return e;
            }
        }
        return null;
    }
}
