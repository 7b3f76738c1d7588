package io.pragh.server.rpc;

import java.nio.charset.StandardCharsets;
import org.agrona.DirectBuffer;

/**
 * The wire format of the client RPC. Every frame is a 4-byte big-endian length followed by that many bytes; one
 * request is answered before the next is read (one request in flight per connection).
 *
 * <pre>
 *  request:  | op (1) | operands (fixed per op, see below) |
 *  response: | status (1) | body |        status OK: op-specific body; ABSENT: empty; RETRY / ERROR: UTF-8 reason
 *
 *  PING     -                                       -> machine id (4), machine count (4), home keys (8),
 *                                                      values restored after peers' crashes (8)
 *  PUT      key (8), value (rest)                   -> -
 *  GET      key (8)                                 -> value (rest), or ABSENT
 *  DELETE   key (8)                                 -> -
 *  ADD_EDGE src vid (8), label (4), dst vid (8)     -> -
 *  K_HOP    start vid (8), label (4), hops (4), fanout (4)  -> count (4), vids (8 each, ascending)
 *  MIGRATE  key (8)                                 -> outcome ordinal (1) of io.pragh.migration.Migrator.Outcome
 *  SCAN_KEYS kind (4), cursor (8), max keys (4)     -> next cursor (8, or -1 at the end), count (4), keys (8 each):
 *                                                      home keys of one kind with a value, a page at a time
 * </pre>
 * A malformed request (unknown op, wrong length, out-of-range operand) gets an ERROR naming the fault and the
 * connection stays open; a frame longer than the server's limit closes the connection.
 */
public final class ClientProtocol {
    public static final byte PING = 1;
    public static final byte PUT = 2;
    public static final byte GET = 3;
    public static final byte DELETE = 4;
    public static final byte ADD_EDGE = 5;
    public static final byte K_HOP = 6;
    public static final byte MIGRATE = 7;
    public static final byte SCAN_KEYS = 8;

    public static final byte OK = 0;
    /** The key has no value (GET only). */
    public static final byte ABSENT = 1;
    /** The operation failed but may succeed later: a machine it needs is down or unreachable, or it timed out. */
    public static final byte RETRY = 2;
    /** The request is wrong in itself (malformed, too large, out of range). */
    public static final byte ERROR = 3;

    /** Bytes of the length prefix. */
    public static final int LENGTH_BYTES = 4;
    /** Largest hop count a K_HOP may ask for. */
    public static final int MAX_HOPS = 8;
    /** Labels are 16 bits of a key (io.pragh.keys.KeyLayout). */
    public static final int MAX_LABEL = 0xFFFF;
    /** Most keys one SCAN_KEYS page may ask for: a page stays far below any frame limit. */
    public static final int MAX_SCAN_KEYS = 8192;
    /** The cursor that starts a scan; a page answering it as its next cursor ends the scan. */
    public static final long SCAN_START = 0;
    public static final long SCAN_END = -1;

    private ClientProtocol() {
    }

    /** The exact request length an op needs, or -1 when its length varies (PUT: at least 9). */
    static int requestLength(byte op) {
        return switch (op) {
            case PING -> 1;
            case GET, DELETE, MIGRATE -> 9;
            case ADD_EDGE -> 21;
            case K_HOP -> 21;
            case SCAN_KEYS -> 17;
            case PUT -> -1;
            default -> 0;
        };
    }

    /** Why a request is malformed, or null when it is well formed. */
    static String check(DirectBuffer b, int off, int len, int maxValueBytes) {
        if (len < 1) {
            return "empty request";
        }
        byte op = b.getByte(off);
        int want = requestLength(op);
        if (want == 0) {
            return "unknown operation " + (op & 0xFF);
        }
        if (want < 0) {
            if (len < 9) {
                return "PUT of " + len + " bytes: needs a key (8 bytes) before the value";
            }
            if (len - 9 > maxValueBytes) {
                return "PUT value of " + (len - 9) + " bytes exceeds the " + maxValueBytes + "-byte limit";
            }
            return null;
        }
        if (len != want) {
            return name(op) + " of " + len + " bytes (expected " + want + ")";
        }
        if ((op == ADD_EDGE || op == K_HOP) && (b.getInt(off + 9) < 0 || b.getInt(off + 9) > MAX_LABEL)) {
            return name(op) + " with label " + b.getInt(off + 9) + " (0.." + MAX_LABEL + ")";
        }
        if (op == K_HOP) {
            int hops = b.getInt(off + 13);
            int fanout = b.getInt(off + 17);
            if (hops < 0 || hops > MAX_HOPS) {
                return "K_HOP of " + hops + " hops (0.." + MAX_HOPS + ")";
            }
            if (fanout < 1) {
                return "K_HOP with fanout " + fanout + " (must be >= 1)";
            }
        }
        if (op == SCAN_KEYS) {
            int kind = b.getInt(off + 1);
            int max = b.getInt(off + 13);
            if (kind < 1 || kind > io.pragh.keys.KeyLayout.MAX_KIND) {
                return "SCAN_KEYS of kind " + kind + " (1.." + io.pragh.keys.KeyLayout.MAX_KIND + ")";
            }
            if (b.getLong(off + 5) < SCAN_START) {
                return "SCAN_KEYS from cursor " + b.getLong(off + 5) + " (a cursor is >= 0)";
            }
            if (max < 1 || max > MAX_SCAN_KEYS) {
                return "SCAN_KEYS of " + max + " keys per page (1.." + MAX_SCAN_KEYS + ")";
            }
        }
        return null;
    }

    static String name(byte op) {
        return switch (op) {
            case PING -> "PING";
            case PUT -> "PUT";
            case GET -> "GET";
            case DELETE -> "DELETE";
            case ADD_EDGE -> "ADD_EDGE";
            case K_HOP -> "K_HOP";
            case MIGRATE -> "MIGRATE";
            case SCAN_KEYS -> "SCAN_KEYS";
            default -> "op " + (op & 0xFF);
        };
    }

    static byte[] text(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
