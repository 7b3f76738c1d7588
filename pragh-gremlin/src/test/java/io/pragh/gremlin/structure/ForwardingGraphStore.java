package io.pragh.gremlin.structure;

import io.pragh.embedded.OffHeapUse;
import io.pragh.gremlin.storage.NameDictionary;
import java.util.concurrent.Callable;
import java.util.function.LongConsumer;

/**
 * A store that hands every call to another one: tests subclass it to count, hold or fail the calls they watch and
 * forward the rest unchanged.
 *
 * <p>Example: {@code new ForwardingGraphStore(store) { public void close() { super.close(); giveBack(); } }}
 */
public abstract class ForwardingGraphStore implements GraphStore {
    protected final GraphStore store;

    protected ForwardingGraphStore(final GraphStore store) {
        this.store = store;
    }

    @Override
    public byte[] get(final long key) {
        return store.get(key);
    }

    @Override
    public void getAll(final long[] keys, final int count, final IndexedValues visitor) {
        store.getAll(keys, count, visitor);
    }

    @Override
    public void getAllViews(final long[] keys, final int count, final IndexedViews visitor) {
        store.getAllViews(keys, count, visitor);
    }

    @Override
    public boolean contains(final long key) {
        return store.contains(key);
    }

    @Override
    public void put(final long key, final byte[] value) {
        store.put(key, value);
    }

    @Override
    public void append(final long key, final byte[] bytes) {
        store.append(key, bytes);
    }

    @Override
    public void update(final long key, final int mutatorId, final byte[] argument) {
        store.update(key, mutatorId, argument);
    }

    @Override
    public void updateAll(final UpdateBatch batch) {
        store.updateAll(batch);
    }

    @Override
    public void delete(final long key) {
        store.delete(key);
    }

    @Override
    public void forEachKey(final int kind, final LongConsumer action) {
        store.forEachKey(kind, action);
    }

    @Override
    public <T> T callOnHome(final long key, final Callable<T> work) {
        return store.callOnHome(key, work);
    }

    @Override
    public NameDictionary names() {
        return store.names();
    }

    @Override
    public OffHeapUse offHeapUse() {
        return store.offHeapUse();
    }

    @Override
    public java.util.List<io.pragh.store.MachineStore> localMachines() {
        return store.localMachines();
    }

    @Override
    public int machines() {
        return store.machines();
    }

    @Override
    public void close() {
        store.close();
    }
}
