package io.pragh.fabric.verbs;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * The 8 bytes a connecting machine sends as rdma_cm private data, so the accepting side knows who connects and
 * what for before it creates the queue pair: a message connection (two-sided, with receive buffers) or a lane
 * connection (the target of one posting thread's one-sided operations, which needs none).
 *
 * <pre>{@code
 * byte[] data = new ConnectionHeader(ConnectionHeader.Kind.LANE, 3, 0).encode();
 * ConnectionHeader h = ConnectionHeader.decode(data);
 * }</pre>
 */
public record ConnectionHeader(Kind kind, int machine, int lane) {
    static final int BYTES = 8;
    private static final byte MAGIC = 0x50; // 'P'

    public enum Kind {
        MESSAGES,
        LANE
    }

    public ConnectionHeader {
        if (machine < 0 || machine > 0xffff) {
            throw new IllegalArgumentException("machine id " + machine + " does not fit a connection header");
        }
    }

    public byte[] encode() {
        byte[] bytes = new byte[BYTES];
        UnsafeBuffer b = new UnsafeBuffer(bytes);
        b.putByte(0, MAGIC);
        b.putByte(1, (byte) kind.ordinal());
        b.putShort(2, (short) machine);
        b.putInt(4, lane);
        return bytes;
    }

    /** Decodes a header; anything that is not one of ours is an IllegalArgumentException naming what was wrong. */
    public static ConnectionHeader decode(byte[] bytes) {
        if (bytes == null || bytes.length < BYTES) {
            throw new IllegalArgumentException("connection request carried " + (bytes == null ? "no" : bytes.length
                + " bytes of") + " private data; a Pragh peer sends " + BYTES);
        }
        UnsafeBuffer b = new UnsafeBuffer(bytes);
        if (b.getByte(0) != MAGIC) {
            throw new IllegalArgumentException("connection request does not come from a Pragh verbs fabric (magic "
                + b.getByte(0) + ")");
        }
        int kind = b.getByte(1);
        if (kind < 0 || kind >= Kind.values().length) {
            throw new IllegalArgumentException("connection request of unknown kind " + kind);
        }
        return new ConnectionHeader(Kind.values()[kind], b.getShort(2) & 0xffff, b.getInt(4));
    }
}
