package io.pragh.linearizability;

import java.util.Arrays;

/**
 * The store's sequential specification of one key: a register of bytes that may be absent. PUT replaces it, DELETE
 * removes it, APPEND concatenates (an absent value counts as empty, so APPEND creates the key), GET returns it or
 * "no value", MIGRATE changes nothing a client sees.
 *
 * <p>Its {@linkplain #unknown unknown} state is a value nobody has read yet, of which only the bytes appended since
 * are known: a GET then fixes it to what it returned, provided that ends with those bytes.
 *
 * <pre>{@code
 * ValueModel.State s = ValueModel.INSTANCE.initial();                // no value
 * s = ValueModel.INSTANCE.step(s, Operation.append(1, key, id, t0, t1));
 * }</pre>
 */
public final class ValueModel implements Model<ValueModel.State> {
    public static final ValueModel INSTANCE = new ValueModel();
    private static final State ABSENT = new State(false, null);
    private static final State UNKNOWN = new State(true, new byte[0]);

    private ValueModel() {
    }

    /**
     * One state: a known value ({@code bytes}, null when absent), or an unknown one that ends with {@code bytes}.
     */
    public static final class State {
        private final boolean prefixUnknown;
        private final byte[] bytes;
        private final int bytesHash;
        private final int hash;

        private State(boolean prefixUnknown, byte[] bytes) {
            this(prefixUnknown, bytes, Arrays.hashCode(bytes));
        }

        /** With {@code bytesHash} = {@code Arrays.hashCode(bytes)}, already known. */
        private State(boolean prefixUnknown, byte[] bytes, int bytesHash) {
            this.prefixUnknown = prefixUnknown;
            this.bytes = bytes;
            this.bytesHash = bytesHash;
            this.hash = bytesHash * 31 + (prefixUnknown ? 1 : 0);
        }

        /**
         * The state after appending {@code more}. Its hash goes on from this one's over the appended bytes only
         * ({@code Arrays.hashCode} folds bytes in order from 1): a value a run appends to for long is not hashed
         * whole at every step of the search.
         */
        State append(byte[] more) {
            int h = bytes == null || bytes.length == 0 ? 1 : bytesHash;
            for (byte b : more) {
                h = 31 * h + b;
            }
            return new State(prefixUnknown, concat(bytes, more), h);
        }

        /** The value when it is known; null when absent or unknown. */
        public byte[] value() {
            return prefixUnknown ? null : bytes;
        }

        public boolean known() {
            return !prefixUnknown;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof State s && s.hash == hash && s.prefixUnknown == prefixUnknown
                && Arrays.equals(s.bytes, bytes);
        }

        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public String toString() {
            return prefixUnknown ? "unknown value ending in " + bytes.length + " known bytes"
                : bytes == null ? "no value" : bytes.length + " bytes";
        }
    }

    @Override
    public State initial() {
        return ABSENT;
    }

    @Override
    public State unknown() {
        return UNKNOWN;
    }

    @Override
    public State step(State s, Operation op) {
        return switch (op.kind()) {
            case PUT -> new State(false, op.input());
            case DELETE -> ABSENT;
            case APPEND -> s.append(op.input());
            case MIGRATE, REPLICATE -> s;
            case GET -> read(s, op.output());
        };
    }

    private static State read(State s, byte[] returned) {
        if (!s.prefixUnknown) {
            return Arrays.equals(s.bytes, returned) ? s : null;
        }
        if (s.bytes.length == 0) {
            return returned == null ? ABSENT : new State(false, returned);
        }
        if (returned == null || returned.length < s.bytes.length || !Arrays.equals(returned,
            returned.length - s.bytes.length, returned.length, s.bytes, 0, s.bytes.length)) {
            return null;
        }
        return new State(false, returned);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        if (a == null || a.length == 0) {
            return b;
        }
        byte[] c = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }
}
