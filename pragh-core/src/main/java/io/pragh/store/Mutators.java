package io.pragh.store;

import io.pragh.PraghException;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * The registry of value mutators, shared by every machine of a cluster. Ids 0..15 are the core's; providers
 * register theirs from {@link #FIRST_PROVIDER_ID} up.
 *
 * <pre>{@code
 * Mutators mutators = Mutators.withBuiltins();
 * mutators.register(16, myMutator);
 * }</pre>
 */
public final class Mutators {
    /** Replace the value with the argument. */
    public static final int SET = 0;
    /** Append the argument to the value (an edge insert appends a neighbour id). */
    public static final int APPEND = 1;
    /** Remove every 8-byte word equal to the 8-byte argument (an edge delete). */
    public static final int REMOVE_LONG = 2;
    /** Delete the key. */
    public static final int DELETE = 3;
    // 4 was the benchmark's capped append, now a provider mutator of pragh-bench: free, never reused.
    public static final int FIRST_PROVIDER_ID = 16;
    public static final int MAX_ID = 255;

    private final ValueMutator[] byId = new ValueMutator[MAX_ID + 1];

    private Mutators() {
    }

    public static Mutators withBuiltins() {
        Mutators m = new Mutators();
        m.byId[SET] = new Set();
        m.byId[APPEND] = new Append();
        m.byId[REMOVE_LONG] = new RemoveLong();
        m.byId[DELETE] = new Delete();
        return m;
    }

    public synchronized Mutators register(int id, ValueMutator mutator) {
        if (id < FIRST_PROVIDER_ID || id > MAX_ID) {
            throw new IllegalArgumentException("mutator id " + id + " is outside the provider range "
                + FIRST_PROVIDER_ID + ".." + MAX_ID);
        }
        if (byId[id] != null && byId[id] != mutator) {
            throw new IllegalStateException("mutator id " + id + " is already registered");
        }
        byId[id] = mutator;
        return this;
    }

    /** Whether a mutator is registered under {@code id} (a request naming one from outside is checked first). */
    public boolean has(int id) {
        return id >= 0 && id <= MAX_ID && byId[id] != null;
    }

    public ValueMutator get(int id) {
        ValueMutator m = id >= 0 && id <= MAX_ID ? byId[id] : null;
        if (m == null) {
            throw new PraghException("unknown value mutator id " + id);
        }
        return m;
    }

    private static final class Set implements ValueMutator {
        @Override
        public int newLength(DirectBuffer cur, int curOff, int curLen, DirectBuffer arg, int argOff, int argLen) {
            return argLen;
        }

        @Override
        public void write(DirectBuffer cur, int curOff, int curLen, DirectBuffer arg, int argOff, int argLen,
                          MutableDirectBuffer dst, int dstOff) {
            dst.putBytes(dstOff, arg, argOff, argLen);
        }
    }

    private static final class Append implements ValueMutator {
        @Override
        public int newLength(DirectBuffer cur, int curOff, int curLen, DirectBuffer arg, int argOff, int argLen) {
            return Math.max(curLen, 0) + argLen;
        }

        @Override
        public void write(DirectBuffer cur, int curOff, int curLen, DirectBuffer arg, int argOff, int argLen,
                          MutableDirectBuffer dst, int dstOff) {
            if (curLen > 0) {
                dst.putBytes(dstOff, cur, curOff, curLen);
            }
            dst.putBytes(dstOff + Math.max(curLen, 0), arg, argOff, argLen);
        }

        @Override
        public int appendedLength(DirectBuffer arg, int argOff, int argLen) {
            return argLen;
        }

        @Override
        public void writeAppended(DirectBuffer arg, int argOff, int argLen, MutableDirectBuffer dst, int dstOff) {
            dst.putBytes(dstOff, arg, argOff, argLen);
        }
    }

    private static final class RemoveLong implements ValueMutator {
        @Override
        public int newLength(DirectBuffer cur, int curOff, int curLen, DirectBuffer arg, int argOff, int argLen) {
            if (argLen != 8) {
                throw new PraghException("REMOVE_LONG takes an 8-byte argument, got " + argLen + " bytes");
            }
            if (curLen < 0) {
                return DELETE;
            }
            long victim = arg.getLong(argOff);
            int kept = 0;
            for (int i = 0; i + 8 <= curLen; i += 8) {
                if (cur.getLong(curOff + i) != victim) {
                    kept += 8;
                }
            }
            return kept;
        }

        @Override
        public void write(DirectBuffer cur, int curOff, int curLen, DirectBuffer arg, int argOff, int argLen,
                          MutableDirectBuffer dst, int dstOff) {
            long victim = arg.getLong(argOff);
            int at = dstOff;
            for (int i = 0; i + 8 <= curLen; i += 8) {
                long v = cur.getLong(curOff + i);
                if (v != victim) {
                    dst.putLong(at, v);
                    at += 8;
                }
            }
        }
    }

    private static final class Delete implements ValueMutator {
        @Override
        public int newLength(DirectBuffer cur, int curOff, int curLen, DirectBuffer arg, int argOff, int argLen) {
            return DELETE;
        }

        @Override
        public void write(DirectBuffer cur, int curOff, int curLen, DirectBuffer arg, int argOff, int argLen,
                          MutableDirectBuffer dst, int dstOff) {
            throw new IllegalStateException("DELETE writes no value");
        }
    }
}
