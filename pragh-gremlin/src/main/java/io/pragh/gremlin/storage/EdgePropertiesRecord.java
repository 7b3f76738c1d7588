package io.pragh.gremlin.storage;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The value under an EDGE key (out-vertex, edge label): the properties of that vertex's outgoing edges of that label,
 * by edge id. Edges without properties have no entry. Layout: {@code count:u32, then per edge id:i64,
 * fieldCount:u16, fields} where a field is {@code key:u16, length:u32, value bytes}.
 *
 * <p>Example: {@code List<PropertyField> p = EdgePropertiesRecord.decode(bytes).edges.get(edgeId);}
 */
public final class EdgePropertiesRecord {
    public final Map<Long, List<PropertyField>> edges;

    public EdgePropertiesRecord(final Map<Long, List<PropertyField>> edges) {
        this.edges = edges;
    }

    public static EdgePropertiesRecord decode(final byte[] bytes) {
        final Map<Long, List<PropertyField>> edges = new LinkedHashMap<>();
        if (bytes == null) {
            return new EdgePropertiesRecord(edges);
        }
        final ByteReader r = new ByteReader(bytes);
        final int n = r.getInt();
        for (int i = 0; i < n; i++) {
            final long id = r.getLong();
            final int m = r.getShort();
            final List<PropertyField> fields = new ArrayList<>(m);
            for (int j = 0; j < m; j++) {
                fields.add(PropertyField.read(r));
            }
            edges.put(id, fields);
        }
        return new EdgePropertiesRecord(edges);
    }

    /** The encoded record, or null when no edge has properties (the key is then deleted). */
    public byte[] encode() {
        if (edges.isEmpty()) {
            return null;
        }
        final ByteWriter w = new ByteWriter(64);
        w.putInt(edges.size());
        for (final Map.Entry<Long, List<PropertyField>> e : edges.entrySet()) {
            w.putLong(e.getKey()).putShort(e.getValue().size());
            for (final PropertyField f : e.getValue()) {
                f.write(w);
            }
        }
        return w.toByteArray();
    }
}
