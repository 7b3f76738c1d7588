package io.pragh.gremlin.structure;

import io.pragh.embedded.OffHeapUse;
import io.pragh.gremlin.storage.NameDictionary;
import io.pragh.store.ValueView;

import java.util.concurrent.Callable;
import java.util.function.LongConsumer;

/**
 * What {@link PraghGraph} needs of a key-value store: GET, PUT, DELETE, an append and named read-modify-writes run at
 * the value's host, a scan of stored keys of one kind, and a way to run work on the home machine of a key.
 *
 * <p>Example: {@code byte[] record = store.get(GraphKeys.vertex(1));}
 */
public interface GraphStore extends AutoCloseable {
    /** The value under {@code key}, or null when the key has none. */
    byte[] get(long key);

    /** Whether {@code key} has a value: a GET that copies nothing. */
    default boolean contains(long key) {
        return get(key) != null;
    }

    /**
     * GETs {@code keys[0..count)} together (one round trip for the lookups, one for the values, however many keys)
     * and hands each value, or null, to {@code visitor} with its index. Copies every value; a reader that only looks
     * at them (counts, hops) takes {@link #getAllViews} instead.
     */
    default void getAll(long[] keys, int count, IndexedValues visitor) {
        getAllViews(keys, count, (index, value) -> visitor.accept(index, value == null ? null : value.toBytes()));
    }

    /** Receives the values of {@link #getAll}. */
    @FunctionalInterface
    interface IndexedValues {
        void accept(int index, byte[] value);
    }

    /**
     * {@link #getAll} without the copies: each value reaches {@code visitor} as a flyweight over the buffer the GET
     * read it into, valid only during that call (null when the key has none), so an adjacency list is counted or
     * walked where it lies.
     *
     * <p>Example: {@code store.getAllViews(keys, n, (i, v) -> degrees[i] = v == null ? 0 : v.length() / 16);}
     */
    void getAllViews(long[] keys, int count, IndexedViews visitor);

    /** Receives the values of {@link #getAllViews}: a view valid only during the call, or null. */
    @FunctionalInterface
    interface IndexedViews {
        void accept(int index, ValueView value);
    }

    /** Stores {@code value} under {@code key}; returns once acknowledged. */
    void put(long key, byte[] value);

    /** Appends {@code bytes} to the value under {@code key} (creating it), at the value's host. */
    void append(long key, byte[] bytes);

    /** Runs the mutator registered as {@code mutatorId} on the value under {@code key} at its host. */
    void update(long key, int mutatorId, byte[] argument);

    /**
     * Runs every update of {@code batch} at once (see {@link UpdateBatch} for the order they may take effect in) and
     * returns once all are acknowledged; when one fails, the first failure is thrown once the others are done.
     */
    void updateAll(UpdateBatch batch);

    void delete(long key);

    /**
     * Calls {@code action} with every stored key of this kind, machine by machine, each once. A kind no key can
     * carry (outside 1..15) is refused with an {@link IllegalArgumentException} naming it.
     */
    void forEachKey(int kind, LongConsumer action);

    /**
     * Calls {@code action} with every stored key of this kind homed on the machines this process runs: all of them
     * for an embedded store, one cluster machine's for that machine's store, none for a client's. A duty every
     * process of a cluster runs over its own keys (the supernode sweep) visits each key once cluster-wide this way.
     */
    default void forEachHomeKey(int kind, LongConsumer action) {
        forEachKey(kind, action);
    }

    /** Runs {@code work} on the home machine of {@code key} and waits for its result. */
    <T> T callOnHome(long key, Callable<T> work);

    /**
     * The name dictionary of every graph over this store: one object per store, built with it, so that graphs (and
     * the machines their work runs on) that share the store in this process share its cache too. The store decides
     * whether the dictionary must read the record again to see names added elsewhere ({@link NameDictionary#shared},
     * when other processes write the store) or is the record's only writer ({@link NameDictionary#soleWriter}).
     */
    NameDictionary names();

    /**
     * Off-heap memory of the machines this store runs (every machine of an embedded cluster, this process's own in a
     * multi-process one): reserved, and used by keys, values and garbage. JVM memory pools do not see it.
     */
    OffHeapUse offHeapUse();

    /**
     * The stores of the machines this process runs (every machine of an embedded cluster, this process's own in a
     * multi-process one): where per-machine observers, such as view event taps, are installed.
     */
    default java.util.List<io.pragh.store.MachineStore> localMachines() {
        return java.util.List.of();
    }

    /** Number of machines behind this store. */
    int machines();

    /**
     * Whether {@link #close} ran. Several graphs may share one store, and closing one closes it for all: the others'
     * background duties (the segment sweep) ask this to stop with it rather than fail against released memory.
     * A store whose machines belong to their server (a multi-process one) is never closed under its graph.
     */
    default boolean isClosed() {
        return false;
    }

    @Override
    void close();
}
