package io.pragh.server.rpc;

import io.pragh.fabric.tcp.ClusterSecret;
import io.pragh.fabric.tcp.Handshake;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.agrona.DirectBuffer;

/**
 * The wire format of the client RPC. Every frame is a 4-byte big-endian length followed by that many bytes. Answers
 * come in the order of the requests; a client may send requests without waiting for answers (pipelining), and the
 * machine then runs several at once, but a keyed request (PUT, GET, DELETE, ADD_EDGE, ADD_EDGE_CAPPED) after the
 * earlier ones of its key, and any other request alone, after every earlier one ({@link #orderingKey}).
 *
 * <p>A connection opens with the cluster-secret handshake of the fabric ({@link Handshake#CLIENT_PORT}), before any
 * request is read; a frame that is not a valid AUTH, or a proof that is wrong, closes the connection:
 * <pre>
 *  server:  | HELLO (1) | machine id (4) | server nonce (16) |
 *  client:  | AUTH (1)  | client nonce (16) | proof (32) |      Handshake.CLIENT_PORT.clientProof(secret,
 *                                                                 serverNonce, clientNonce, CLIENT_ID, machine id)
 *  server:  | OK (1) | proof (32) |                             ...serverProof(...): the machine holds it too
 *           or | ERROR (1) | reason |, then the close
 * </pre>
 * With TLS configured the whole exchange runs inside mutual TLS.
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
 *  STATS    -                                       -> machine (4), fabric counts (8 each, FabricStats.Snapshot in
 *                                                      order: localOps, localBytes, remoteReads, remoteReadBytes,
 *                                                      remoteWrites, remoteWriteBytes, remoteAtomics, messages,
 *                                                      messageBytes), forwarded updates (8), migrations requested
 *                                                      (8), migrations done (8), values migrated (8), migration
 *                                                      bytes (8), approvals (8), coordinator (1: 0 or 1)
 *  MONITOR_START -                                  -> -   manual trigger only: a fresh monitoring interval starts
 *  END_INTERVAL  -                                  -> -   manual trigger only: the interval ends, its periodic
 *                                                      report goes to the coordinator
 *  DECIDE   timeout millis (8)                      -> approvals (4), track (4), untrack (4): on the coordinator
 *                                                      only, once it holds every live machine's periodic report
 *                                                      (or at the timeout, 0..MAX_DECIDE_MILLIS), decides and
 *                                                      carries the decisions out
 *  UPDATES  count (4), count x [key (8), mutator (4),  -> -   every update acknowledged (UpdatesFrame); a malformed
 *           length (4), argument (length)]                   frame or an unknown mutator: ERROR, none applied
 *  HOSTS    count (4), count x key (8)              -> count x host (4): the machine holding each key's value now,
 *                                                      read from the address word at the key's home (no cache), -1
 *                                                      when the key has no value; 1..MAX_BATCH_KEYS keys
 *  PLACE    count (4), count x [key (8), target (4)] -> placed (4): on the coordinator only (ERROR naming it
 *                                                      elsewhere): each move recorded as an approval (in ZooKeeper
 *                                                      with membership), the coordinator's host of the key set to
 *                                                      the target, and the target told to MIGRATE it (a decision,
 *                                                      not awaited: HOSTS tells when it moved); 1..MAX_BATCH_KEYS
 *
 *  FIRST_EXTENSION_OP (32) .. LAST_EXTENSION_OP (63): a server extension's operations (io.pragh.server.extension),
 *                                                      served only while the machine runs the extension that declares
 *                                                      them (its cluster file names it under extensions), each with
 *                                                      the operands and answer the extension defines; ERROR naming
 *                                                      the extensions it runs otherwise
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
    // 9, 10 and 15..20 were the benchmark's, now the bench extension's (pragh-bench): free, never reused.
    public static final byte STATS = 11;
    public static final byte MONITOR_START = 12;
    public static final byte END_INTERVAL = 13;
    public static final byte DECIDE = 14;
    /** Many updates in one frame ({@link UpdatesFrame}): a bulk load's batched APPENDs. */
    public static final byte UPDATES = 21;
    /** Where many keys' values are now (view-driven hotspot migration reads its members' hosts with it). */
    public static final byte HOSTS = 22;
    /** Moves decided outside the migration policy, handed to the coordinator (view-driven hotspot migration). */
    public static final byte PLACE = 23;

    /**
     * The codes server extensions' operations may take ({@code io.pragh.server.extension}): a server serves one only
     * while it runs the extension that declares it, and refuses it otherwise like any operation it does not know.
     */
    public static final byte FIRST_EXTENSION_OP = 32;
    public static final byte LAST_EXTENSION_OP = 63;

    /** First frame of the client in the handshake; far from the request ops so that new ops do not meet it. */
    public static final byte AUTH = 64;
    /** The server's greeting (a frame of the server, never a request). */
    public static final byte HELLO = 65;
    public static final int HELLO_LENGTH = 1 + 4 + Handshake.NONCE_BYTES;
    public static final int AUTH_LENGTH = 1 + Handshake.NONCE_BYTES + Handshake.MAC_BYTES;
    /** The frame limit (after the length) until the client proved the secret: an unauthenticated peer cannot make
     * the server buffer. */
    public static final int HANDSHAKE_MAX_FRAME = AUTH_LENGTH;

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
    /** Most keys one HOSTS or PLACE request may name. */
    public static final int MAX_BATCH_KEYS = 8192;
    /** The cursor that starts a scan; a page answering it as its next cursor ends the scan. */
    public static final long SCAN_START = 0;
    public static final long SCAN_END = -1;
    /** Longest a DECIDE may wait for reports: an hour, far past any monitoring interval. */
    public static final long MAX_DECIDE_MILLIS = 3_600_000;

    private ClientProtocol() {
    }

    /** Whether {@code op} is in the extensions' range. */
    public static boolean isExtension(byte op) {
        return op >= FIRST_EXTENSION_OP && op <= LAST_EXTENSION_OP;
    }

    /** The exact request length an op needs, or -1 when its length varies (PUT: at least 9). */
    static int requestLength(byte op) {
        return switch (op) {
            case PING -> 1;
            case GET, DELETE, MIGRATE -> 9;
            case ADD_EDGE -> 21;
            case K_HOP -> 21;
            case SCAN_KEYS -> 17;
            case PUT, UPDATES, HOSTS, PLACE -> -1;
            case STATS, MONITOR_START, END_INTERVAL -> 1;
            case DECIDE -> 9;
            default -> 0;
        };
    }

    /** What {@link #orderingKey} returns for a request that runs alone. */
    public static final long NO_KEY = Long.MIN_VALUE;

    /**
     * The key a request is ordered by among the pipelined requests of its connection: the key of a PUT, GET or DELETE,
     * the out-adjacency key of an edge insert; {@link #NO_KEY} for every other request (an extension's included), and
     * for a malformed one.
     */
    static long orderingKey(DirectBuffer b, int len) {
        if (len < 9) {
            return NO_KEY;
        }
        byte op = b.getByte(0);
        if (op == PUT || (op == GET || op == DELETE) && len == 9) {
            return b.getLong(1);
        }
        if (op == ADD_EDGE && len == requestLength(op)) {
            long src = b.getLong(1);
            int label = b.getInt(9);
            if (src >= 0 && src <= io.pragh.keys.KeyLayout.MAX_VID && label >= 0 && label <= MAX_LABEL) {
                return io.pragh.keys.KeyLayout.key(src, label, io.pragh.keys.KeyLayout.OUT);
            }
        }
        return NO_KEY;
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
        if (op == UPDATES) {
            return UpdatesFrame.check(b, off, len, maxValueBytes);
        }
        if (op == HOSTS || op == PLACE) {
            return checkBatch(b, off, len, op == HOSTS ? 8 : 12);
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
        if (op == ADD_EDGE || op == K_HOP) {
            String problem = checkLabel(name(op), b.getInt(off + 9));
            if (problem != null) {
                return problem;
            }
        }
        if (op == K_HOP) {
            String problem = checkHops(name(op), b.getInt(off + 13), b.getInt(off + 17));
            if (problem != null) {
                return problem;
            }
        }
        if (op == DECIDE && (b.getLong(off + 1) < 0 || b.getLong(off + 1) > MAX_DECIDE_MILLIS)) {
            return "DECIDE with timeout " + b.getLong(off + 1) + " ms (0.." + MAX_DECIDE_MILLIS + ")";
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

    /** Why a HOSTS or PLACE request of {@code entryBytes} per key is malformed, or null. */
    private static String checkBatch(DirectBuffer b, int off, int len, int entryBytes) {
        String op = name(b.getByte(off));
        if (len < 5) {
            return op + " of " + len + " bytes: needs a count (4 bytes)";
        }
        int count = b.getInt(off + 1);
        if (count < 1 || count > MAX_BATCH_KEYS) {
            return op + " of " + count + " keys (1.." + MAX_BATCH_KEYS + ")";
        }
        if (len != 5 + (long) count * entryBytes) {
            return op + " of " + count + " keys in " + len + " bytes (expected " + (5 + (long) count * entryBytes) + ")";
        }
        return null;
    }

    /** Why {@code label} is not an edge label, or null: for ops of this protocol and extensions' that take one. */
    public static String checkLabel(String op, int label) {
        return label < 0 || label > MAX_LABEL ? op + " with label " + label + " (0.." + MAX_LABEL + ")" : null;
    }

    /** Why a traversal's hops and fanout are out of range, or null: for K_HOP and extensions' traversals. */
    public static String checkHops(String op, int hops, int fanout) {
        if (hops < 0 || hops > MAX_HOPS) {
            return op + " of " + hops + " hops (0.." + MAX_HOPS + ")";
        }
        return fanout < 1 ? op + " with fanout " + fanout + " (must be >= 1)" : null;
    }

    /** Why a frame is not a HELLO of a client port, or null when it is one. */
    public static String checkHello(byte[] hello) {
        return hello.length == HELLO_LENGTH && hello[0] == HELLO ? null
            : "a frame of " + hello.length + " bytes instead of a client port's greeting (HELLO)";
    }

    /** The machine id a HELLO names. */
    public static int helloMachine(byte[] hello) {
        return ((hello[1] & 0xff) << 24) | ((hello[2] & 0xff) << 16) | ((hello[3] & 0xff) << 8) | (hello[4] & 0xff);
    }

    /** The AUTH frame that answers {@code hello} with a fresh nonce and a proof under {@code secret}. */
    public static byte[] auth(ClusterSecret secret, byte[] hello) {
        byte[] serverNonce = Arrays.copyOfRange(hello, 5, HELLO_LENGTH);
        byte[] clientNonce = Handshake.nonce();
        byte[] proof = Handshake.CLIENT_PORT.clientProof(secret, serverNonce, clientNonce, Handshake.CLIENT_ID,
            helloMachine(hello));
        byte[] auth = new byte[AUTH_LENGTH];
        auth[0] = AUTH;
        System.arraycopy(clientNonce, 0, auth, 1, clientNonce.length);
        System.arraycopy(proof, 0, auth, 1 + clientNonce.length, proof.length);
        return auth;
    }

    /** Whether the server's answer to {@code auth} is OK with the machine's own proof of {@code secret}. */
    public static boolean serverProved(ClusterSecret secret, byte[] hello, byte[] auth, byte[] answer) {
        if (answer.length != 1 + Handshake.MAC_BYTES || answer[0] != OK) {
            return false;
        }
        byte[] expected = Handshake.CLIENT_PORT.serverProof(secret, Arrays.copyOfRange(hello, 5, HELLO_LENGTH),
            Arrays.copyOfRange(auth, 1, 1 + Handshake.NONCE_BYTES), Handshake.CLIENT_ID, helloMachine(hello));
        return Handshake.matches(Arrays.copyOfRange(answer, 1, answer.length), expected);
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
            case AUTH -> "AUTH";
            case SCAN_KEYS -> "SCAN_KEYS";
            case STATS -> "STATS";
            case MONITOR_START -> "MONITOR_START";
            case END_INTERVAL -> "END_INTERVAL";
            case DECIDE -> "DECIDE";
            case UPDATES -> "UPDATES";
            case HOSTS -> "HOSTS";
            case PLACE -> "PLACE";
            default -> "op " + (op & 0xFF);
        };
    }

    static byte[] text(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
