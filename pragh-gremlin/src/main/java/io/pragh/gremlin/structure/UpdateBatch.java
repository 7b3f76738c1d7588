package io.pragh.gremlin.structure;

import java.util.Arrays;

/**
 * Updates to run together through {@link GraphStore#updateAll}: each a key, a registered mutator and its argument.
 * The store issues them all before waiting for any, so their round trips overlap. They may take effect in any order:
 * a batch holds at most one update of a key, or only updates that commute (appends, edits of different fields).
 * Reusable: {@link #clear} empties it and keeps its arrays.
 *
 * <p>Example:
 * <pre>{@code
 * UpdateBatch batch = new UpdateBatch();
 * batch.add(GraphKeys.out(a, label), Mutators.APPEND, Adjacency.entry(b, edgeId));
 * batch.add(GraphKeys.in(b, label), Mutators.APPEND, Adjacency.entry(a, edgeId));
 * store.updateAll(batch);
 * }</pre>
 */
public final class UpdateBatch {
    private long[] keys;
    private int[] mutators;
    private byte[][] arguments;
    private int size;

    public UpdateBatch() {
        this(8);
    }

    public UpdateBatch(final int capacity) {
        final int c = Math.max(1, capacity);
        keys = new long[c];
        mutators = new int[c];
        arguments = new byte[c][];
    }

    /** Adds one update; returns this batch. */
    public UpdateBatch add(final long key, final int mutatorId, final byte[] argument) {
        if (size == keys.length) {
            final int c = size * 2;
            keys = Arrays.copyOf(keys, c);
            mutators = Arrays.copyOf(mutators, c);
            arguments = Arrays.copyOf(arguments, c);
        }
        keys[size] = key;
        mutators[size] = mutatorId;
        arguments[size] = argument;
        size++;
        return this;
    }

    public int size() {
        return size;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    public long key(final int i) {
        return keys[i];
    }

    public int mutator(final int i) {
        return mutators[i];
    }

    public byte[] argument(final int i) {
        return arguments[i];
    }

    /** The backing arrays, for a store that hands the batch on whole: only their first {@link #size} entries count. */
    public long[] keys() {
        return keys;
    }

    public int[] mutators() {
        return mutators;
    }

    public byte[][] arguments() {
        return arguments;
    }

    /** Empties the batch, dropping its arguments so they can be collected. */
    public void clear() {
        Arrays.fill(arguments, 0, size, null);
        size = 0;
    }
}
