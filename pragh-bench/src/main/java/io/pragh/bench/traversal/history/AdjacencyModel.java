package io.pragh.bench.traversal.history;

import io.pragh.bench.extension.CappedAppend;
import io.pragh.linearizability.Model;
import io.pragh.linearizability.Operation;
import java.util.Objects;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The sequential specification of one adjacency key of the traversal benchmark, over {@linkplain AdjacencyDigest
 * digests}: PUT sets the list (the loader's value, its digest as input), APPEND is the benchmark's edge insert
 * (a capped append: its input is the store's update argument, {@link CappedAppend#argument}), GET returns the list's
 * digest or "no value", DELETE removes it, MIGRATE and REPLICATE change nothing a client sees.
 *
 * <p>Its {@linkplain #unknown unknown} state, for a window cut from the middle of a history, is a list nobody has
 * read yet, of which at most the last entry is known (an insert always leaves its neighbour last): the next GET
 * fixes it, provided it ends with that entry. Checking from it is sound, as the model interface requires.
 *
 * <pre>{@code
 * AdjacencyModel.State s = AdjacencyModel.INSTANCE.step(AdjacencyModel.INSTANCE.initial(),
 *     Operation.put(-1, key, AdjacencyDigest.ofEntries(7, 9).encode(), t0, t0));
 * }</pre>
 */
public final class AdjacencyModel implements Model<AdjacencyModel.State> {
    public static final AdjacencyModel INSTANCE = new AdjacencyModel();
    private static final State ABSENT = new State(true, null, false, 0);
    private static final State UNKNOWN = new State(false, null, false, 0);

    private AdjacencyModel() {
    }

    /**
     * One state: a known list ({@code value}, null when the key has none), or an unknown one that ends with
     * {@code endsWith} when {@code endKnown}.
     */
    public record State(boolean known, AdjacencyDigest value, boolean endKnown, long endsWith) {
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
            case PUT -> new State(true, AdjacencyDigest.decode(op.input()), false, 0);
            case APPEND -> insert(s, op.input());
            case DELETE -> ABSENT;
            case MIGRATE, REPLICATE -> s;
            case GET -> read(s, op.output() == null ? null : AdjacencyDigest.decode(op.output()));
        };
    }

    private static State insert(State s, byte[] argument) {
        if (argument.length != CappedAppend.ARGUMENT_BYTES) {
            throw new IllegalArgumentException("an edge insert's input has " + CappedAppend.ARGUMENT_BYTES
                + " bytes, got " + argument.length);
        }
        UnsafeBuffer buf = new UnsafeBuffer(argument);
        long neighbour = buf.getLong(0);
        long cap = buf.getLong(8);
        if (!s.known) {
            return new State(false, null, true, neighbour);
        }
        AdjacencyDigest before = s.value == null ? new AdjacencyDigest(0, 0, 0) : s.value;
        return new State(true, before.cappedAppend(neighbour, cap), false, 0);
    }

    private static State read(State s, AdjacencyDigest returned) {
        if (s.known) {
            return Objects.equals(s.value, returned) ? s : null;
        }
        if (s.endKnown && (returned == null || returned.length() < Long.BYTES || returned.last() != s.endsWith)) {
            return null;
        }
        return new State(true, returned, false, 0);
    }

    /** Renders a history's values: digests as entries, last entry and hash; insert inputs as the neighbour. */
    public static String describe(byte[] value) {
        if (value.length == CappedAppend.ARGUMENT_BYTES) {
            UnsafeBuffer buf = new UnsafeBuffer(value);
            return "neighbour " + buf.getLong(0) + " (cap " + buf.getLong(8) + ")";
        }
        return value.length == AdjacencyDigest.BYTES ? "[" + AdjacencyDigest.decode(value) + "]"
            : value.length + " bytes";
    }
}
