package io.pragh.rdf;

import io.pragh.gremlin.structure.EmbeddedGraphStore;
import io.pragh.gremlin.structure.GraphStore;
import io.pragh.gremlin.structure.PraghGraph;
import org.apache.commons.configuration2.BaseConfiguration;

/** Stores for tests: a small embedded cluster. */
public final class TestStores {
    private TestStores() {
    }

    public static EmbeddedGraphStore embedded(final int machines) {
        final BaseConfiguration conf = new BaseConfiguration();
        conf.setProperty(PraghGraph.MACHINES, machines);
        conf.setProperty(EmbeddedGraphStore.KEYS, 1L << 18);
        conf.setProperty(EmbeddedGraphStore.VALUE_BYTES, 64L << 20);
        return EmbeddedGraphStore.open(conf);
    }

    /** A store that is not an {@link EmbeddedGraphStore} to the loader: loads take the batched-append path. */
    public static GraphStore notEmbedded(final GraphStore inner) {
        return notEmbedded(inner, false);
    }

    /**
     * As above; with {@code workHere}, work handed to {@code callOnHome} runs on the calling thread, as a cluster
     * machine's store runs it, rather than on the home machine's worker.
     */
    public static GraphStore notEmbedded(final GraphStore inner, final boolean workHere) {
        return new GraphStore() {
            @Override
            public byte[] get(final long key) {
                return inner.get(key);
            }

            @Override
            public void getAllViews(final long[] keys, final int count, final IndexedViews visitor) {
                inner.getAllViews(keys, count, visitor);
            }

            @Override
            public void put(final long key, final byte[] value) {
                inner.put(key, value);
            }

            @Override
            public void append(final long key, final byte[] bytes) {
                inner.append(key, bytes);
            }

            @Override
            public void update(final long key, final int mutatorId, final byte[] argument) {
                inner.update(key, mutatorId, argument);
            }

            @Override
            public void updateAll(final io.pragh.gremlin.structure.UpdateBatch batch) {
                inner.updateAll(batch);
            }

            @Override
            public void delete(final long key) {
                inner.delete(key);
            }

            @Override
            public void forEachKey(final int kind, final java.util.function.LongConsumer action) {
                inner.forEachKey(kind, action);
            }

            @Override
            public <T> T callOnHome(final long key, final java.util.concurrent.Callable<T> work) {
                if (!workHere) {
                    return inner.callOnHome(key, work);
                }
                try {
                    return work.call();
                } catch (RuntimeException e) {
                    throw e;
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }

            @Override
            public io.pragh.gremlin.storage.NameDictionary names() {
                return inner.names();
            }

            @Override
            public io.pragh.embedded.OffHeapUse offHeapUse() {
                return inner.offHeapUse();
            }

            @Override
            public int machines() {
                return inner.machines();
            }

            @Override
            public void close() {
                inner.close();
            }
        };
    }
}
