package io.pragh.linearizability;

/**
 * The sequential specification of one key: what each operation does to the key's state and whether what it
 * answered is possible from a state. States must be immutable and implement {@code equals} and {@code hashCode}:
 * the search remembers the (operations linearized, state) pairs it has explored.
 *
 * <pre>{@code
 * Model<ValueModel.State> m = ValueModel.INSTANCE;
 * ValueModel.State s = m.step(m.initial(), Operation.put(1, key, value, t0, t1));
 * }</pre>
 *
 * @param <S> the state type
 */
public interface Model<S> {
    /** The state of a key before any operation. */
    S initial();

    /**
     * A state about which nothing is known yet, for a history that starts in the middle of a run: the first read
     * fixes it. Checking from it is sound: a history that has no linearization from it has none from any state.
     */
    S unknown();

    /** The state after {@code op}, or null when {@code op} cannot have answered what it did in {@code state}. */
    S step(S state, Operation op);
}
