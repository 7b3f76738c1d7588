package io.pragh.server.rpc;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The UPDATES request of {@link ClientProtocol}: many updates, each a key, a value mutator and its argument, in one
 * frame, so a bulk load pays one round trip per batch rather than per value. Layout (big-endian, as every frame):
 * <pre>
 *  | UPDATES (1) | count (4) | count x [ key (8) | mutator (4) | length (4) | argument (length) ] |
 * </pre>
 * The mutator is a {@code io.pragh.store.Mutators} id: {@code APPEND} (1) appends the argument to the value,
 * {@code SET}, {@code DELETE} and the ids front ends register (the Gremlin provider's) run as they do for the store.
 * {@link #check} names the first fault of a malformed frame (a count out of range, an entry cut short or running past
 * the frame, an argument over the value limit, bytes left over); the machine then refuses the whole frame and applies
 * none of it.
 *
 * <pre>{@code
 * byte[] request = UpdatesFrame.encode(keys, mutators, arguments, 0, n);
 * }</pre>
 */
public final class UpdatesFrame {
    /** Most updates one frame may carry. */
    public static final int MAX_UPDATES = 65_536;
    /** Bytes of an entry before its argument. */
    public static final int ENTRY_HEADER = 8 + 4 + 4;
    /** Bytes before the first entry. */
    public static final int HEADER = 1 + 4;

    /** One frame's updates, decoded. */
    public record Updates(long[] keys, int[] mutators, byte[][] arguments) {
        public int count() {
            return keys.length;
        }
    }

    private UpdatesFrame() {
    }

    /** The frame's length for updates {@code from..from+count} of these arguments. */
    public static long length(byte[][] arguments, int from, int count) {
        long bytes = HEADER;
        for (int i = from; i < from + count; i++) {
            bytes += ENTRY_HEADER + arguments[i].length;
        }
        return bytes;
    }

    /** The UPDATES request for updates {@code from..from+count}. */
    public static byte[] encode(long[] keys, int[] mutators, byte[][] arguments, int from, int count) {
        long bytes = length(arguments, from, count);
        if (bytes > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("UPDATES of " + bytes + " bytes: split it into smaller frames");
        }
        UnsafeBuffer u = new UnsafeBuffer(new byte[(int) bytes]);
        u.putByte(0, ClientProtocol.UPDATES);
        u.putInt(1, count);
        int at = HEADER;
        for (int i = from; i < from + count; i++) {
            u.putLong(at, keys[i]);
            u.putInt(at + 8, mutators[i]);
            u.putInt(at + 12, arguments[i].length);
            u.putBytes(at + ENTRY_HEADER, arguments[i]);
            at += ENTRY_HEADER + arguments[i].length;
        }
        return u.byteArray();
    }

    /** Why an UPDATES frame of {@code len} bytes at {@code off} is malformed, or null when it is well formed. */
    static String check(DirectBuffer b, int off, int len, int maxValueBytes) {
        if (len < HEADER) {
            return "UPDATES of " + len + " bytes: needs a count (4 bytes)";
        }
        int count = b.getInt(off + 1);
        if (count < 1 || count > MAX_UPDATES) {
            return "UPDATES of " + count + " updates (1.." + MAX_UPDATES + ")";
        }
        long at = HEADER;
        for (int i = 0; i < count; i++) {
            if (at + ENTRY_HEADER > len) {
                return "UPDATES entry " + i + " of " + count + " is cut short at byte " + at + " of " + len;
            }
            int mutator = b.getInt(off + (int) at + 8);
            if (mutator < 0 || mutator > io.pragh.store.Mutators.MAX_ID) {
                return "UPDATES entry " + i + " names mutator " + mutator + " (0.." + io.pragh.store.Mutators.MAX_ID
                    + ")";
            }
            int argument = b.getInt(off + (int) at + 12);
            if (argument < 0) {
                return "UPDATES entry " + i + " has an argument of " + argument + " bytes";
            }
            if (argument > maxValueBytes) {
                return "UPDATES entry " + i + ": argument of " + argument + " bytes exceeds the " + maxValueBytes
                    + "-byte limit";
            }
            at += ENTRY_HEADER + (long) argument;
            if (at > len) {
                return "UPDATES entry " + i + "'s argument of " + argument + " bytes runs past the frame's " + len
                    + " bytes";
            }
        }
        return at == len ? null : "UPDATES of " + count + " updates leaves " + (len - at) + " bytes over";
    }

    /** The updates of a frame {@link #check} passed. */
    static Updates decode(DirectBuffer b, int off) {
        int count = b.getInt(off + 1);
        long[] keys = new long[count];
        int[] mutators = new int[count];
        byte[][] arguments = new byte[count][];
        int at = off + HEADER;
        for (int i = 0; i < count; i++) {
            keys[i] = b.getLong(at);
            mutators[i] = b.getInt(at + 8);
            arguments[i] = new byte[b.getInt(at + 12)];
            b.getBytes(at + ENTRY_HEADER, arguments[i]);
            at += ENTRY_HEADER + arguments[i].length;
        }
        return new Updates(keys, mutators, arguments);
    }
}
