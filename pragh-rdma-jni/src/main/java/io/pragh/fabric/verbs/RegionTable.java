package io.pragh.fabric.verbs;

import io.pragh.fabric.Region;
import io.pragh.memory.ChunkedRegion;
import java.util.function.ObjIntConsumer;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The messages in which a machine tells a peer where its registered memory is: for each region a HEADER (chunk
 * geometry) and CHUNKS messages (address and rkey of each chunk, as many per message as fit), then one END with
 * the probe word's address and rkey. They travel over the message connection the peer opened, before any user
 * message, and {@link Builder} reassembles them into a {@link RemoteMemory}. Every message starts with a type byte;
 * a user message has type {@link #USER} and its payload follows that byte.
 */
final class RegionTable {
    static final byte USER = 0;
    static final byte HEADER = 1;
    static final byte CHUNKS = 2;
    static final byte END = 3;
    /** Bytes before a user message's payload. */
    static final int USER_HEADER = 1;

    private static final int HEADER_BYTES = 24;
    private static final int CHUNKS_HEADER = 16;
    private static final int CHUNK_ENTRY = 16;
    private static final int END_BYTES = 16;

    private RegionTable() {
    }

    /** Emits the table of {@code local} as messages of at most {@code maxBytes}, each handed to {@code out}. */
    static void encode(LocalMemory local, int maxBytes, ObjIntConsumer<DirectBuffer> out) {
        UnsafeBuffer m = new UnsafeBuffer(new byte[maxBytes]);
        int perMessage = (maxBytes - CHUNKS_HEADER) / CHUNK_ENTRY;
        for (Region r : Region.values()) {
            ChunkedRegion region = local.memory().region(r);
            m.setMemory(0, HEADER_BYTES, (byte) 0);
            m.putByte(0, HEADER);
            m.putInt(4, r.ordinal());
            m.putInt(8, region.chunkShift());
            m.putInt(12, region.chunkCount());
            m.putLong(16, region.capacity());
            out.accept(m, HEADER_BYTES);
            for (int first = 0; first < region.chunkCount(); first += perMessage) {
                int count = Math.min(perMessage, region.chunkCount() - first);
                m.putByte(0, CHUNKS);
                m.putInt(4, r.ordinal());
                m.putInt(8, first);
                m.putInt(12, count);
                for (int i = 0; i < count; i++) {
                    Transport.Registration reg = local.chunk(r, first + i);
                    m.putLong(CHUNKS_HEADER + i * CHUNK_ENTRY, reg.address());
                    m.putInt(CHUNKS_HEADER + i * CHUNK_ENTRY + 8, reg.rkey());
                    m.putInt(CHUNKS_HEADER + i * CHUNK_ENTRY + 12, 0);
                }
                out.accept(m, CHUNKS_HEADER + count * CHUNK_ENTRY);
            }
        }
        m.setMemory(0, END_BYTES, (byte) 0);
        m.putByte(0, END);
        m.putInt(4, local.probe().rkey());
        m.putLong(8, local.probe().address());
        out.accept(m, END_BYTES);
    }

    /** Writes a user message's type byte; the payload goes at {@link #USER_HEADER}. */
    static void userHeader(MutableDirectBuffer buffer, int offset) {
        buffer.putByte(offset, USER);
    }

    /** Reassembles one peer's table; rejects anything malformed with a message naming the peer. */
    static final class Builder {
        private final int machine;
        private final RemoteMemory.RegionKeys[] regions = new RemoteMemory.RegionKeys[Region.values().length];
        private final int[] received = new int[Region.values().length];

        Builder(int machine) {
            this.machine = machine;
        }

        /** Consumes one table message; returns the finished table on END, null before. */
        RemoteMemory accept(DirectBuffer m, int offset, int length) {
            byte type = m.getByte(offset);
            switch (type) {
                case HEADER -> {
                    check(length >= HEADER_BYTES, "short HEADER");
                    int r = region(m.getInt(offset + 4));
                    int shift = m.getInt(offset + 8);
                    int count = m.getInt(offset + 12);
                    check(count > 0 && shift >= 6 && (shift <= 30
                            || (shift == ChunkedRegion.SINGLE_CHUNK_SHIFT && count == 1)),
                        "chunk geometry shift " + shift + " count " + count);
                    regions[r] = new RemoteMemory.RegionKeys(shift, m.getLong(offset + 16), new long[count],
                        new int[count]);
                    received[r] = 0;
                    return null;
                }
                case CHUNKS -> {
                    check(length >= CHUNKS_HEADER, "short CHUNKS");
                    int r = region(m.getInt(offset + 4));
                    RemoteMemory.RegionKeys keys = regions[r];
                    int first = m.getInt(offset + 8);
                    int count = m.getInt(offset + 12);
                    check(keys != null, "CHUNKS before HEADER of region " + Region.of(r));
                    check(first >= 0 && count >= 0 && first + count <= keys.addresses().length
                        && length >= CHUNKS_HEADER + count * CHUNK_ENTRY, "chunks " + first + "+" + count);
                    for (int i = 0; i < count; i++) {
                        keys.addresses()[first + i] = m.getLong(offset + CHUNKS_HEADER + i * CHUNK_ENTRY);
                        keys.rkeys()[first + i] = m.getInt(offset + CHUNKS_HEADER + i * CHUNK_ENTRY + 8);
                    }
                    received[r] += count;
                    return null;
                }
                case END -> {
                    check(length >= END_BYTES, "short END");
                    for (Region r : Region.values()) {
                        RemoteMemory.RegionKeys keys = regions[r.ordinal()];
                        check(keys != null && received[r.ordinal()] == keys.addresses().length,
                            "region " + r + " incomplete at END");
                    }
                    return new RemoteMemory(machine, regions, m.getLong(offset + 8), m.getInt(offset + 4));
                }
                default -> throw new IllegalArgumentException("machine " + machine + " sent region-table message "
                    + "of unknown type " + type);
            }
        }

        private int region(int ordinal) {
            check(ordinal >= 0 && ordinal < Region.values().length, "region ordinal " + ordinal);
            return ordinal;
        }

        private void check(boolean ok, String what) {
            if (!ok) {
                throw new IllegalArgumentException("machine " + machine + " sent a malformed region table: " + what);
            }
        }
    }
}
