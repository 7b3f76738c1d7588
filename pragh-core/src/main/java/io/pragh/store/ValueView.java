package io.pragh.store;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A flyweight over the payload a {@link Session#get} copied: valid until that session's next call.
 *
 * <pre>{@code
 * ValueView v = session.get(key);
 * if (v != null) { long first = v.buffer().getLong(v.offset()); }
 * }</pre>
 */
public final class ValueView {
    private final UnsafeBuffer buffer = new UnsafeBuffer(0, 0);
    private int offset;
    private int length;
    private long version;

    void wrap(DirectBuffer source, int offset, int length, long version) {
        buffer.wrap(source);
        this.offset = offset;
        this.length = length;
        this.version = version;
    }

    /**
     * Makes this a view over a whole array, version 0: a value that came as bytes (a client port's GET), for a
     * reader that takes views. Valid until the next call.
     */
    public ValueView over(byte[] value) {
        buffer.wrap(value);
        this.offset = 0;
        this.length = value.length;
        this.version = 0;
        return this;
    }

    /** The value's version: orders the updates of one key (see {@code ValueRecord}). */
    public long version() {
        return version;
    }

    public DirectBuffer buffer() {
        return buffer;
    }

    public int offset() {
        return offset;
    }

    public int length() {
        return length;
    }

    public byte[] toBytes() {
        byte[] bytes = new byte[length];
        buffer.getBytes(offset, bytes);
        return bytes;
    }

    /** Number of 8-byte words, for values that are packed longs (adjacency lists). */
    public int longCount() {
        return length >>> 3;
    }

    public long getLong(int index) {
        return buffer.getLong(offset + (index << 3));
    }
}
