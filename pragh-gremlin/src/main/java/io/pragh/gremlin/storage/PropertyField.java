package io.pragh.gremlin.storage;

import java.util.Arrays;

/**
 * One property as stored: a dictionary id for its key and the {@link ValueCodec} bytes of its value, kept encoded so
 * that a record can be rewritten at its host without decoding values.
 *
 * <p>Example: {@code new PropertyField(dictionary.intern("since"), ValueCodec.encode(2009))}
 */
public final class PropertyField {
    public final int key;
    public final byte[] value;

    public PropertyField(final int key, final byte[] value) {
        this.key = key;
        this.value = value;
    }

    /** The decoded value. */
    public Object value() {
        return ValueCodec.decode(value);
    }

    void write(final ByteWriter w) {
        w.putShort(key).putInt(value.length).putBytes(value);
    }

    static PropertyField read(final ByteReader r) {
        final int key = r.getShort();
        return new PropertyField(key, r.getBytes(r.getInt()));
    }

    boolean sameValue(final byte[] other) {
        return Arrays.equals(value, other);
    }
}
