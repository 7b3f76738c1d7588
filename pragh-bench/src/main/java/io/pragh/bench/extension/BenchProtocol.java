package io.pragh.bench.extension;

import io.pragh.bench.shard.ShardRecords;
import io.pragh.server.rpc.ClientProtocol;
import org.agrona.DirectBuffer;

/**
 * The wire format of the bench extension's operations, codes in the client protocol's extension range: requests
 * and answers are framed, authenticated and answered (OK, RETRY, ERROR with a reason) as every request of
 * {@link ClientProtocol} is; a server that does not run the extension answers ERROR.
 *
 * <pre>
 *  ADD_EDGE_CAPPED src vid (8), label (4), dst vid (8), cap (4) -> -   edge insert through {@link CappedAppend}:
 *                                                      appended below cap (>= 1) entries, else it overwrites the
 *                                                      list's last entry (the list never grows past cap)
 *  K_HOP_COUNT start vid (8), label (4), hops (4), fanout (4), batched (1: 0 or 1)
 *                                                   -> count (8): distinct vertices at exactly hops hops; batched 0
 *                                                      GETs one at a time (the paper's engine), 1 a hop per batch
 *
 *  The shard baseline (paper section 2.3; a machine without shard placement answers every one of these ERROR
 *  "machine N does not use shard placement"):
 *  SHARD_TRACK  on (1: 1 on, 0 off)                 -> -: on zeroes this machine's per-shard counts and counts every
 *                                                      access this machine makes, by shard; off stops counting and
 *                                                      puts back the access observer that was there before
 *  SHARD_COUNTS -                                   -> shards (4), count (8) x shards
 *  SHARD_EXPORT shard (4), cursor (8), max bytes (4) -> next cursor (8, or -1 at the end), records (4), then per
 *                                                      record key (8), version (8), length (4), value: this owner's
 *                                                      keys of the shard, at most max bytes of records (and never
 *                                                      more than the largest value) or one record when it alone is
 *                                                      larger; cursors as SCAN_KEYS
 *  SHARD_IMPORT records (4), then per record key (8), version (8), length (4), value
 *                                                   -> -: loaded as records local to this machine, or none of them
 *                                                      when the batch is malformed or a key is already here
 *  SHARD_ASSIGN (shard (4), owner (4)) x n, n >= 1  -> -: sets this machine's table entries, then drops its cached
 *                                                      addresses of those shards' keys (one walk of the cache)
 *  SHARD_UNLOAD shard (4)                           -> keys (8): removes this machine's keys of a shard it no longer
 *                                                      owns (ERROR while it owns it)
 * </pre>
 */
public final class BenchProtocol {
    public static final byte ADD_EDGE_CAPPED = ClientProtocol.FIRST_EXTENSION_OP;
    public static final byte K_HOP_COUNT = ClientProtocol.FIRST_EXTENSION_OP + 1;
    public static final byte SHARD_TRACK = ClientProtocol.FIRST_EXTENSION_OP + 2;
    public static final byte SHARD_COUNTS = ClientProtocol.FIRST_EXTENSION_OP + 3;
    public static final byte SHARD_EXPORT = ClientProtocol.FIRST_EXTENSION_OP + 4;
    public static final byte SHARD_IMPORT = ClientProtocol.FIRST_EXTENSION_OP + 5;
    public static final byte SHARD_ASSIGN = ClientProtocol.FIRST_EXTENSION_OP + 6;
    public static final byte SHARD_UNLOAD = ClientProtocol.FIRST_EXTENSION_OP + 7;

    /** Most record bytes one SHARD_EXPORT page may ask for (a page is also bounded by the largest value). */
    public static final int MAX_SHARD_PAGE_BYTES = 64 << 20;

    private static final String[] NAMES = {"ADD_EDGE_CAPPED", "K_HOP_COUNT", "SHARD_TRACK", "SHARD_COUNTS",
        "SHARD_EXPORT", "SHARD_IMPORT", "SHARD_ASSIGN", "SHARD_UNLOAD"};

    private BenchProtocol() {
    }

    /** Every code of the extension, in order. */
    static byte[] codes() {
        byte[] codes = new byte[NAMES.length];
        for (int i = 0; i < codes.length; i++) {
            codes[i] = (byte) (ADD_EDGE_CAPPED + i);
        }
        return codes;
    }

    /** The operation's name for errors; an op outside the extension is named by its number. */
    public static String name(byte op) {
        int i = op - ADD_EDGE_CAPPED;
        return i >= 0 && i < NAMES.length ? NAMES[i] : "op " + (op & 0xFF);
    }

    /** The exact request length an op needs, or -1 when its length varies. */
    private static int requestLength(byte op) {
        return switch (op) {
            case ADD_EDGE_CAPPED -> 25;
            case K_HOP_COUNT -> 22;
            case SHARD_TRACK -> 2;
            case SHARD_COUNTS -> 1;
            case SHARD_EXPORT -> 17;
            case SHARD_UNLOAD -> 5;
            default -> -1; // SHARD_IMPORT, SHARD_ASSIGN
        };
    }

    /** Why a request of the extension is malformed, or null when it is well formed. */
    static String check(DirectBuffer b, int len, int maxValueBytes) {
        byte op = b.getByte(0);
        int want = requestLength(op);
        if (want < 0) {
            return checkBatch(op, b, len, maxValueBytes);
        }
        if (len != want) {
            return name(op) + " of " + len + " bytes (expected " + want + ")";
        }
        return switch (op) {
            case ADD_EDGE_CAPPED -> {
                String problem = ClientProtocol.checkLabel(name(op), b.getInt(9));
                yield problem != null || b.getInt(21) >= 1 ? problem
                    : "ADD_EDGE_CAPPED with cap " + b.getInt(21) + " (must be >= 1)";
            }
            case K_HOP_COUNT -> {
                String problem = ClientProtocol.checkLabel(name(op), b.getInt(9));
                if (problem == null) {
                    problem = ClientProtocol.checkHops(name(op), b.getInt(13), b.getInt(17));
                }
                yield problem != null || b.getByte(21) == 0 || b.getByte(21) == 1 ? problem
                    : "K_HOP_COUNT with batched " + b.getByte(21) + " (0: one GET at a time, 1: batched)";
            }
            case SHARD_TRACK -> b.getByte(1) == 0 || b.getByte(1) == 1 ? null
                : "SHARD_TRACK with flag " + b.getByte(1) + " (1 on, 0 off)";
            case SHARD_EXPORT -> checkExport(b.getLong(5), b.getInt(13));
            default -> null;
        };
    }

    private static String checkExport(long cursor, int maxBytes) {
        if (cursor < ClientProtocol.SCAN_START) {
            return "SHARD_EXPORT from cursor " + cursor + " (a cursor is >= 0)";
        }
        return maxBytes >= 1 && maxBytes <= MAX_SHARD_PAGE_BYTES ? null
            : "SHARD_EXPORT of " + maxBytes + " bytes per page (1.." + MAX_SHARD_PAGE_BYTES + ")";
    }

    /** The variable-length ops: SHARD_IMPORT's record batch, SHARD_ASSIGN's (shard, owner) pairs. */
    private static String checkBatch(byte op, DirectBuffer b, int len, int maxValueBytes) {
        if (op == SHARD_ASSIGN) {
            return len >= 9 && (len - 1) % 8 == 0 ? null
                : "SHARD_ASSIGN of " + len + " bytes (expected 1 + 8 per (shard, owner) pair, at least one pair)";
        }
        String problem = ShardRecords.check(b, 1, len - 1, maxValueBytes);
        return problem == null ? null : "SHARD_IMPORT: " + problem;
    }
}
