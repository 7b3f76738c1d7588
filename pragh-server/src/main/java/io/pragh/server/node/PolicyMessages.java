package io.pragh.server.node;

import io.pragh.monitor.KeyRate;
import io.pragh.monitor.MonitorReport;
import java.util.ArrayList;
import java.util.List;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The wire format of the migration policy's messages between machines (message types of the store's extension
 * range, {@code io.pragh.store.StoreMessages#FIRST_EXTENSION_TYPE} and up): a machine's monitor REPORT to the
 * coordinator, and the coordinator's DECISION to a machine. Decoding checks every length and field and says what is
 * wrong rather than reading past a message.
 *
 * <pre>
 *  REPORT    | 18 (1) | instant (1: 0 or 1) | count (4) | instant rate (8, double, NaN: unknown) |
 *            | count x (key (8), host (4), rate (8, double), tracked (1)) |
 *  DECISION  | 19 (1) | kind (1: DecisionKind.code(), 0 migrate here, 1 track, 2 untrack) | key (8) |
 *  DECISION  | 19 (1) | kind (1: 3, replicate here) | key (8) | reads per second here (8, double) |
 * </pre>
 * Numbers are in the buffer's native order, as in the store's own messages: both ends are machines of one cluster.
 * The instant rate is the reporter's (the coordinator weighs a machine that has not reported a key at it).
 *
 * <pre>{@code
 * UnsafeBuffer msg = PolicyMessages.report(report, maxKeys);
 * MonitorReport back = PolicyMessages.readReport(from, msg, 0, msg.capacity(), machineCount);
 * }</pre>
 */
final class PolicyMessages {
    static final int REPORT = 18;
    static final int DECISION = 19;
    static final int REPORT_HEADER = 14;
    static final int KEY_RATE_BYTES = 21;
    static final int DECISION_LENGTH = 10;
    /** A replica offer: a DECISION followed by the holder's read rate of the key. */
    static final int OFFER_LENGTH = DECISION_LENGTH + 8;

    private PolicyMessages() {
    }

    /** How many keys a REPORT may name within {@code maxMessageBytes} (at least one). */
    static int maxKeysPerReport(int maxMessageBytes) {
        return Math.max(1, (maxMessageBytes - REPORT_HEADER) / KEY_RATE_BYTES);
    }

    /** A REPORT of the first {@code n} keys of {@code r}. */
    static UnsafeBuffer report(MonitorReport r, int n) {
        List<KeyRate> keys = r.keys();
        UnsafeBuffer msg = new UnsafeBuffer(new byte[REPORT_HEADER + n * KEY_RATE_BYTES]);
        msg.putByte(0, (byte) REPORT);
        msg.putByte(1, (byte) (r.instant() ? 1 : 0));
        msg.putInt(2, n);
        msg.putDouble(6, r.instantRate());
        for (int i = 0; i < n; i++) {
            KeyRate k = keys.get(i);
            int at = REPORT_HEADER + i * KEY_RATE_BYTES;
            msg.putLong(at, k.key());
            msg.putInt(at + 8, k.host());
            msg.putDouble(at + 12, k.rate());
            msg.putByte(at + 20, (byte) (k.tracked() ? 1 : 0));
        }
        return msg;
    }

    /**
     * The report machine {@code from} sent; an {@link IllegalArgumentException} saying what is wrong when its length
     * does not match its count or it names a host outside the {@code machines}.
     */
    static MonitorReport readReport(int from, DirectBuffer msg, int off, int len, int machines) {
        int n = len >= REPORT_HEADER ? msg.getInt(off + 2) : -1;
        if (n < 0 || len != REPORT_HEADER + (long) n * KEY_RATE_BYTES) {
            throw new IllegalArgumentException("a malformed REPORT");
        }
        List<KeyRate> keys = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int at = off + REPORT_HEADER + i * KEY_RATE_BYTES;
            int host = msg.getInt(at + 8);
            if (host < 0 || host >= machines) {
                throw new IllegalArgumentException("a REPORT naming machine " + host);
            }
            keys.add(new KeyRate(msg.getLong(at), host, msg.getDouble(at + 12), msg.getByte(at + 20) != 0));
        }
        return new MonitorReport(from, msg.getByte(off + 1) != 0, keys, msg.getDouble(off + 6));
    }

    /** A DECISION of {@code kind} on {@code key}. */
    static UnsafeBuffer decision(DecisionKind kind, long key) {
        UnsafeBuffer msg = new UnsafeBuffer(new byte[DECISION_LENGTH]);
        msg.putByte(0, (byte) DECISION);
        msg.putByte(1, kind.code());
        msg.putLong(2, key);
        return msg;
    }

    /** A DECISION offering a replica of {@code key}, read {@code readsPerSecond} at the machine it goes to. */
    static UnsafeBuffer replicaOffer(long key, double readsPerSecond) {
        UnsafeBuffer msg = new UnsafeBuffer(new byte[OFFER_LENGTH]);
        msg.putByte(0, (byte) DECISION);
        msg.putByte(1, DecisionKind.REPLICATE_HERE.code());
        msg.putLong(2, key);
        msg.putDouble(DECISION_LENGTH, readsPerSecond);
        return msg;
    }

    /** The kind a DECISION says, or null when it is malformed (wrong length for its kind, or a code no kind has). */
    static DecisionKind decisionKind(DirectBuffer msg, int off, int len) {
        if (len < DECISION_LENGTH) {
            return null;
        }
        DecisionKind kind = DecisionKind.of(msg.getByte(off + 1));
        int expected = kind == DecisionKind.REPLICATE_HERE ? OFFER_LENGTH : DECISION_LENGTH;
        return len == expected ? kind : null;
    }

    /** The read rate of a replica offer (a DECISION whose {@link #decisionKind} is REPLICATE_HERE). */
    static double offerRate(DirectBuffer msg, int off) {
        return msg.getDouble(off + DECISION_LENGTH);
    }

    /** The key of a DECISION whose {@link #decisionKind} is not null. */
    static long decisionKey(DirectBuffer msg, int off) {
        return msg.getLong(off + 2);
    }
}
