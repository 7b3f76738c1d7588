package io.pragh.gremlin.distributed;

import io.pragh.gremlin.storage.GraphKeys;
import io.pragh.embedded.OffHeapUse;
import io.pragh.gremlin.storage.NameDictionary;
import io.pragh.gremlin.structure.GraphStore;
import io.pragh.gremlin.structure.StoreDictionaryRecord;
import io.pragh.gremlin.structure.UpdateBatch;
import io.pragh.server.rpc.MachineClient;
import io.pragh.store.Mutators;
import io.pragh.store.ValueView;

import java.util.concurrent.Callable;
import java.util.function.LongConsumer;

/**
 * A {@link GraphStore} for a process outside the cluster, through one machine's client port: GETs are pipelined
 * GETs, updates go in UPDATES frames (the machine forwards each to its value's host), so a bulk load from a laptop
 * pays one round trip per frame. Work handed to {@link #callOnHome} runs here, reading over the port. The machine
 * needs the mutators the updates name (a server runs the Gremlin provider's, as every front end's machine does). A scan
 * of every key needs every machine and is refused: use a front end (Gremlin, SPARQL) for that.
 *
 * <p>Example: {@code try (GraphStore s = new ClientPortGraphStore(new MachineClient(address, 10_000, secret, tls))) { RdfLoad.into(new RdfStore(s)).load(file); }}
 */
public final class ClientPortGraphStore implements GraphStore {
    /** Largest UPDATES frame sent: well below any machine's frame limit (its largest value and a little more). */
    static final int FRAME_BYTES = 256 << 10;
    /** UPDATES frames in flight, and GETs in flight per window. */
    static final int UPDATE_WINDOW = 4;
    static final int GET_WINDOW = 256;

    private final MachineClient client;
    private final int machines;
    private final NameDictionary names;

    /** Takes {@code client} (closed with the store); asks its machine how many machines the cluster has. */
    public ClientPortGraphStore(final MachineClient client) {
        this.client = client;
        this.machines = client.ping().machineCount();
        // Shared, never sole writer: machines' front ends add names to the record too.
        this.names = NameDictionary.shared(new StoreDictionaryRecord(this));
    }

    @Override
    public byte[] get(final long key) {
        return client.get(key);
    }

    @Override
    public void getAll(final long[] keys, final int count, final IndexedValues visitor) {
        final byte[][] values = client.getAll(keys, count, GET_WINDOW);
        for (int i = 0; i < count; i++) {
            visitor.accept(i, values[i]);
        }
    }

    @Override
    public void getAllViews(final long[] keys, final int count, final IndexedViews visitor) {
        final ValueView view = new ValueView();
        getAll(keys, count, (i, value) -> visitor.accept(i, value == null ? null : view.over(value)));
    }

    @Override
    public void put(final long key, final byte[] value) {
        update(key, Mutators.SET, value);
    }

    @Override
    public void append(final long key, final byte[] bytes) {
        update(key, Mutators.APPEND, bytes);
    }

    @Override
    public void update(final long key, final int mutatorId, final byte[] argument) {
        client.updateAll(new long[] {key}, new int[] {mutatorId}, new byte[][] {argument}, 1, FRAME_BYTES, 1);
    }

    @Override
    public void updateAll(final UpdateBatch batch) {
        if (!batch.isEmpty()) {
            client.updateAll(batch.keys(), batch.mutators(), batch.arguments(), batch.size(), FRAME_BYTES,
                UPDATE_WINDOW);
        }
    }

    @Override
    public void delete(final long key) {
        update(key, Mutators.DELETE, new byte[0]);
    }

    @Override
    public void forEachKey(final int kind, final LongConsumer action) {
        throw new UnsupportedOperationException("a scan of every key needs every machine, and this store reaches"
            + " one machine's client port (" + client.address() + "): ask a front end (Gremlin, SPARQL) instead");
    }

    /** None: a client homes no key. */
    @Override
    public void forEachHomeKey(final int kind, final LongConsumer action) {
        GraphKeys.checkKind(kind);
    }

    @Override
    public <T> T callOnHome(final long key, final Callable<T> work) {
        return ClusterGraphStore.callHere(work, "a client of " + client.address());
    }

    @Override
    public NameDictionary names() {
        return names;
    }

    /** Nothing of the cluster's memory is in this process. */
    @Override
    public OffHeapUse offHeapUse() {
        return OffHeapUse.NONE;
    }

    @Override
    public int machines() {
        return machines;
    }

    @Override
    public void close() {
        client.close();
    }
}
