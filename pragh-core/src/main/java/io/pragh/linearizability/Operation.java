package io.pragh.linearizability;

import java.util.Objects;

/**
 * One client operation on one key, as a history records it: what was asked, when it was invoked and when it
 * answered (both on one monotonic clock, {@link System#nanoTime} in practice), and what it answered. An operation
 * that failed or never answered has {@link #UNKNOWN} as its response: a write then may or may not have taken
 * effect, at any time after its invocation, and a read tells nothing.
 *
 * <pre>{@code
 * Operation put = Operation.put(1, key, value, t0, t1);
 * Operation get = Operation.get(2, key, value, t2, t3);          // returned value; null for "no value"
 * Operation lost = Operation.failed(3, Operation.Kind.PUT, key, other, t4, "timed out");
 * }</pre>
 *
 * @param client   who issued it (a thread of the workload)
 * @param key      the key it acts on; the checker checks every key on its own
 * @param kind     what it is
 * @param invoke   when it was invoked
 * @param response when it answered, or {@link #UNKNOWN}
 * @param input    PUT: the value; APPEND: the bytes appended; MIGRATE: null; otherwise null
 * @param output   GET: the value returned, null when the key had none
 * @param target   MIGRATE: the machine the value was moved to; otherwise -1
 * @param error    why it failed, or null
 */
public record Operation(int client, long key, Kind kind, long invoke, long response, byte[] input, byte[] output,
                        int target, String error) {
    /** Response time of an operation whose outcome is unknown. */
    public static final long UNKNOWN = Long.MAX_VALUE;

    /** What an operation does to its key. */
    public enum Kind {
        /** Replaces the value. */
        PUT,
        /** Appends bytes to the value (creates it when absent). */
        APPEND,
        /** Removes the value. */
        DELETE,
        /** Reads the value. */
        GET,
        /** Moves the value between machines: no effect a client can see, recorded for context. */
        MIGRATE,
        /** Places a read replica of the value on a machine: no effect a client can see, recorded for context. */
        REPLICATE;

        /** Whether it changes the value. */
        public boolean writes() {
            return this == PUT || this == APPEND || this == DELETE;
        }
    }

    public Operation {
        Objects.requireNonNull(kind, "kind");
        if (response != UNKNOWN && response < invoke) {
            throw new IllegalArgumentException("operation answered (" + response + ") before it was invoked ("
                + invoke + ")");
        }
        if ((kind == Kind.PUT || kind == Kind.APPEND) && input == null) {
            throw new IllegalArgumentException(kind + " needs its input bytes");
        }
    }

    public static Operation put(int client, long key, byte[] value, long invoke, long response) {
        return new Operation(client, key, Kind.PUT, invoke, response, value, null, -1, null);
    }

    public static Operation append(int client, long key, byte[] appended, long invoke, long response) {
        return new Operation(client, key, Kind.APPEND, invoke, response, appended, null, -1, null);
    }

    public static Operation delete(int client, long key, long invoke, long response) {
        return new Operation(client, key, Kind.DELETE, invoke, response, null, null, -1, null);
    }

    public static Operation get(int client, long key, byte[] returned, long invoke, long response) {
        return new Operation(client, key, Kind.GET, invoke, response, null, returned, -1, null);
    }

    public static Operation migrate(int client, long key, int target, long invoke, long response) {
        return new Operation(client, key, Kind.MIGRATE, invoke, response, null, null, target, null);
    }

    public static Operation replicate(int client, long key, int target, long invoke, long response) {
        return new Operation(client, key, Kind.REPLICATE, invoke, response, null, null, target, null);
    }

    /** An operation that failed or never answered: outcome unknown. */
    public static Operation failed(int client, Kind kind, long key, byte[] input, int target, long invoke,
                                   String error) {
        return new Operation(client, key, kind, invoke, UNKNOWN, input, null, target, error);
    }

    /** Whether it answered, so that its outcome is known. */
    public boolean completed() {
        return response != UNKNOWN;
    }

    /** The same operation answered at {@code time} (a failed write a read saw must have taken effect by then). */
    Operation answeredAt(long time) {
        return new Operation(client, key, kind, invoke, time, input, output, target, error);
    }

    /** The same operation with its outcome unknown (its answer came after a history's cut). */
    Operation withUnknownOutcome() {
        return new Operation(client, key, kind, invoke, UNKNOWN, input, output, target, error);
    }

    @Override
    public boolean equals(Object o) {
        return this == o;
    }

    @Override
    public int hashCode() {
        return System.identityHashCode(this);
    }

    @Override
    public String toString() {
        return describe(ValueFormat.HEX, 0);
    }

    /** One line: kind, client, times relative to {@code origin} in microseconds, input and output. */
    public String describe(ValueFormat format, long origin) {
        StringBuilder b = new StringBuilder();
        b.append(kind).append(" by client ").append(client).append(" [").append(micros(invoke - origin))
            .append(" .. ").append(completed() ? micros(response - origin) + " us]" : "no answer]");
        switch (kind) {
            case PUT -> b.append(' ').append(format.describe(input));
            case APPEND -> b.append(" +").append(format.describe(input));
            case GET -> {
                if (completed()) {
                    b.append(" -> ").append(output == null ? "no value" : format.describe(output));
                }
            }
            case MIGRATE, REPLICATE -> b.append(" to machine ").append(target);
            default -> {
            }
        }
        if (error != null) {
            b.append(" (failed: ").append(error).append(')');
        }
        return b.toString();
    }

    private static String micros(long nanos) {
        return String.format(java.util.Locale.ROOT, "%.1f", nanos / 1_000.0 + 0.0);
    }

    /** Renders value bytes in reports; a workload with self-describing values says which write made them. */
    @FunctionalInterface
    public interface ValueFormat {
        /** Length and the first bytes in hex. */
        ValueFormat HEX = v -> v.length + " bytes " + hex(v);

        String describe(byte[] value);

        private static String hex(byte[] v) {
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < Math.min(v.length, 24); i++) {
                b.append(String.format(java.util.Locale.ROOT, "%02x", v[i]));
            }
            return b + (v.length > 24 ? "..." : "");
        }
    }
}
