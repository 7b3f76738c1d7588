package io.pragh.gremlin.structure;

import io.pragh.embedded.OffHeapUse;
import io.pragh.gremlin.storage.NameDictionary;

import java.util.concurrent.Callable;
import java.util.function.LongConsumer;

/**
 * The writes a {@link PraghGraph} opened with {@link PraghGraph#WRITE_BEHIND} has accepted but not yet written:
 * {@code addVertex} and {@code addEdge} go into a {@link BulkLoader} and return at once, and the loader writes them
 * a batch at a time. The graph reads and writes everything else through {@link #store}, which writes what is buffered
 * before any other operation, so this graph reads its own writes and orders them before its later ones.
 *
 * <p>What the mode gives up: a buffered element is checked when its batch is (a taken supplied id, an edge to a
 * missing vertex), and the error is raised by the call that writes the batch, not by the {@code add} call; and other
 * graphs over the store (other processes) see an element only once its batch is written. Thread-safe: the buffer is
 * one per graph, guarded by this object, and held only while a batch is handed to the store, whose acknowledgements
 * come from the machines' delivery threads, never from a thread that could be waiting for this lock.
 *
 * <p>Example: {@code PraghGraph g = PraghGraph.open(new MapConfiguration(Map.of(PraghGraph.WRITE_BEHIND, 65536)));}
 */
final class WriteBehind {
    private final PraghGraph graph;
    private final GraphStore backing;
    private final NewElements elements;
    private final int batchEdges;
    private final GraphStore store = new Flushing();
    /** Guarded by this; null after a batch failed or was written for a reader, until the next add. */
    private BulkLoader buffer;

    WriteBehind(final PraghGraph graph, final GraphStore backing, final NewElements elements, final int batchEdges) {
        if (batchEdges < 1) {
            throw new IllegalArgumentException(PraghGraph.WRITE_BEHIND + " must be 0 (off) or a number of edges per"
                + " batch, got " + batchEdges);
        }
        this.graph = graph;
        this.backing = backing;
        this.elements = elements;
        this.batchEdges = batchEdges;
    }

    /** The store the graph uses for everything but {@code add}: it writes the buffer before each operation. */
    GraphStore store() {
        return store;
    }

    synchronized NewElements.NewVertex addVertex(final Object... keyValues) {
        return buffer().add(keyValues);
    }

    synchronized NewElements.NewEdge addEdge(final long outVid, final String label, final long inVid,
                                             final Object... keyValues) {
        return buffer().add(outVid, label, inVid, keyValues);
    }

    private BulkLoader buffer() {
        if (buffer == null) {
            buffer = new BulkLoader(graph, backing, elements, batchEdges);
        }
        return buffer;
    }

    /**
     * Writes what is buffered and waits for it. The next add starts a new buffer, so its edges' vertices are checked
     * against the store again rather than against what this graph added before someone else could read (and remove).
     */
    synchronized void flush() {
        final BulkLoader b = buffer;
        if (b != null) {
            buffer = null;
            b.close();
        }
    }

    /** Every operation writes the buffer first; the dictionary and the machine count need no writes. */
    private final class Flushing implements GraphStore {
        @Override
        public byte[] get(final long key) {
            flush();
            return backing.get(key);
        }

        @Override
        public boolean contains(final long key) {
            flush();
            return backing.contains(key);
        }

        @Override
        public void getAll(final long[] keys, final int count, final IndexedValues visitor) {
            flush();
            backing.getAll(keys, count, visitor);
        }

        @Override
        public void getAllViews(final long[] keys, final int count, final IndexedViews visitor) {
            flush();
            backing.getAllViews(keys, count, visitor);
        }

        @Override
        public void put(final long key, final byte[] value) {
            flush();
            backing.put(key, value);
        }

        @Override
        public void append(final long key, final byte[] bytes) {
            flush();
            backing.append(key, bytes);
        }

        @Override
        public void update(final long key, final int mutatorId, final byte[] argument) {
            flush();
            backing.update(key, mutatorId, argument);
        }

        @Override
        public void updateAll(final UpdateBatch batch) {
            flush();
            backing.updateAll(batch);
        }

        @Override
        public void delete(final long key) {
            flush();
            backing.delete(key);
        }

        @Override
        public void forEachKey(final int kind, final LongConsumer action) {
            flush();
            backing.forEachKey(kind, action);
        }

        @Override
        public <T> T callOnHome(final long key, final Callable<T> work) {
            flush();
            return backing.callOnHome(key, work);
        }

        @Override
        public NameDictionary names() {
            return backing.names();
        }

        @Override
        public OffHeapUse offHeapUse() {
            return backing.offHeapUse();
        }

        @Override
        public java.util.List<io.pragh.store.MachineStore> localMachines() {
            return backing.localMachines();
        }

        @Override
        public int machines() {
            return backing.machines();
        }

        @Override
        public boolean isClosed() {
            return backing.isClosed();
        }

        @Override
        public void close() {
            try {
                flush();
            } finally {
                backing.close();
            }
        }
    }
}
