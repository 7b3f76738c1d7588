package io.pragh.server.node;

/**
 * What a coordinator's DECISION message tells a machine to do with a key, and the one byte that says it on the wire
 * ({@link PolicyMessages}). The codes are the wire format between machines of one cluster: never renumbered, a new
 * kind takes a new code.
 *
 * <pre>{@code
 * msg.putByte(1, DecisionKind.TRACK.code());
 * DecisionKind kind = DecisionKind.of(msg.getByte(1));   // null for a code no kind has
 * }</pre>
 */
enum DecisionKind {
    /** The machine MIGRATEs the key's value to itself: the coordinator approved the move. */
    MIGRATE_HERE(0),
    /** The machine starts counting its local accesses of the key (so the coordinator can weigh it as a host). */
    TRACK(1),
    /** The machine stops counting them. */
    UNTRACK(2),
    /**
     * The machine places (or keeps) a read replica of the key's value, which it read at the rate the message carries
     * (docs/replicas.md): the replica policy offered it one.
     */
    REPLICATE_HERE(3);

    private static final DecisionKind[] BY_CODE = {MIGRATE_HERE, TRACK, UNTRACK, REPLICATE_HERE};

    private final byte code;

    DecisionKind(int code) {
        this.code = (byte) code;
    }

    byte code() {
        return code;
    }

    /** The kind {@code code} says, or null when it says none (a malformed or newer message). */
    static DecisionKind of(byte code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
