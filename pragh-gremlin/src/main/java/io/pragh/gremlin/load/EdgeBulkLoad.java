package io.pragh.gremlin.load;

import io.pragh.embedded.EmbeddedCluster;
import io.pragh.embedded.Machine;
import io.pragh.gremlin.storage.Adjacency;
import io.pragh.gremlin.storage.EdgeIndexRecord;
import io.pragh.gremlin.storage.GraphKeys;
import io.pragh.gremlin.storage.GraphMutations;
import io.pragh.gremlin.storage.IdBlocks;
import io.pragh.gremlin.storage.VertexRecord;
import io.pragh.gremlin.structure.BulkLoader;
import io.pragh.gremlin.structure.EmbeddedGraphStore;
import io.pragh.gremlin.structure.GraphIdReservation;
import io.pragh.gremlin.structure.GraphStore;
import io.pragh.gremlin.structure.PraghGraph;
import io.pragh.gremlin.structure.SegmentSealer;
import io.pragh.store.StoreConfig;
import io.pragh.values.ValueRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.LongAdder;
import org.apache.tinkerpop.gremlin.structure.Vertex;

/**
 * Loads many property-less edges into a {@link PraghGraph} at memory speed: the edges are grouped by vertex and
 * label in memory ({@link AdjacencyIndex}), then every machine of the graph's embedded cluster gets, on its own
 * thread, whole values written straight into its regions: each vertex's record, each OUT and IN adjacency list in one
 * record with all its entries ({@link HomeWriter} over the core's {@code BulkInsert}); the edges get compact ids,
 * {@code "outVid-label-number"}, which need no index record. No update per edge, no message, no superseded copy. Vertices the edges name are added (with the
 * default label) unless the graph has them; a vertex or label the graph has edges of gets the new ones appended
 * through the ordinary update protocol.
 *
 * <p>What holds afterwards is what the write path would have made: keys at their homes, a fresh version per value,
 * and on a durable cluster every value logged (the load returns once all of it is durable). Vertex ids are reserved
 * (the graph assigns none of them later) and edge ids come from one block claimed on the store's id counter.
 *
 * <p>Before writing anything it checks that the machines have room (keys and value bytes, see
 * {@link #checkRoom}) and refuses, naming the setting to raise, when they do not; a failure while writing (which that
 * check makes unlikely) leaves what was written and says so. Over a store that is not an embedded cluster (a graph
 * in a server process reaching the cluster through its machine), it falls back to a {@link BulkLoader}: batched
 * updates, a round trip per batch.
 *
 * <pre>{@code
 * EdgeBuffer edges = new EdgeBuffer();
 * edges.add(1, 2, "knows");
 * edges.add(2, 3, "knows");
 * EdgeBulkLoad.Result r = EdgeBulkLoad.into(graph).load(edges);   // or graph.edgeBulkLoad()
 * // r.edges() == 2, r.vertices() == 3; g.V(1).out("knows") is vertex 2
 * }</pre>
 */
public final class EdgeBulkLoad {
    /** What a load reports as it goes: a phase name and how far it is, in that phase's units. */
    @FunctionalInterface
    public interface Progress {
        void update(String phase, long done, long total);

        Progress NONE = (phase, done, total) -> { };
    }

    /** What a load added: vertices its edges named, edges, and the time it took. */
    public record Result(long vertices, long edges, long nanos) {
        public double edgesPerSecond() {
            return edges / Math.max(1e-9, nanos / 1e9);
        }
    }

    private final PraghGraph graph;
    private Progress progress = Progress.NONE;

    private EdgeBulkLoad(final PraghGraph graph) {
        this.graph = graph;
    }

    public static EdgeBulkLoad into(final PraghGraph graph) {
        return new EdgeBulkLoad(graph);
    }

    public EdgeBulkLoad progress(final Progress p) {
        this.progress = p;
        return this;
    }

    /** Loads {@code edges}, returning once every value is written (and durable, on a durable cluster). */
    public Result load(final EdgeBuffer edges) {
        final long start = System.nanoTime();
        graph.flush();
        if (edges.size() == 0) {
            return new Result(0, 0, System.nanoTime() - start);
        }
        final GraphStore backing = graph.backingStore();
        if (!(backing instanceof EmbeddedGraphStore)) {
            return loadInBatches(edges, start);
        }
        final EmbeddedCluster cluster = ((EmbeddedGraphStore) backing).cluster();
        final int[] labelIds = new int[edges.labels().size()];
        for (int l = 0; l < labelIds.length; l++) {
            labelIds[l] = graph.names().internEdgeLabel(edges.labels().get(l));
        }
        progress.update("grouping", 0, edges.size());
        final AdjacencyIndex index = AdjacencyIndex.build(edges, cluster.placement());
        progress.update("grouping", edges.size(), edges.size());
        final byte[] vertexRecord = VertexRecord.empty(graph.names().intern(Vertex.DEFAULT_LABEL)).encode();
        final int segmentEntries = SegmentSealer.segmentEntries(graph);
        checkRoom(cluster, index, vertexRecord.length, segmentEntries);
        GraphIdReservation.reserve(graph, edges.maxVid());
        final long firstEdge = claimEdgeIds(backing, edges.size());
        final LongAdder written = new LongAdder();
        final int machines = cluster.machineCount();
        final ExecutorService pool = Executors.newFixedThreadPool(machines, r -> {
            final Thread t = new Thread(r, "pragh-load-home");
            t.setDaemon(true);
            return t;
        });
        try {
            final List<Future<Long>> homes = new ArrayList<>(machines);
            final List<HomeWriter> writers = new ArrayList<>(machines);
            for (int m = 0; m < machines; m++) {
                writers.add(new HomeWriter(index, cluster.machine(m), cluster.placement(), labelIds,
                    firstEdge, segmentEntries, vertexRecord, written));
                homes.add(pool.submit(writers.get(m)));
            }
            final long entries = 2L * edges.size();
            for (final Future<Long> home : homes) {
                while (!home.isDone()) {
                    progress.update("writing", written.sum(), entries);
                    Thread.sleep(50);
                }
                home.get();
            }
            progress.update("writing", entries, entries);
            sealAppended(backing, segmentEntries, writers);
        } catch (ExecutionException e) {
            final Throwable cause = e.getCause();
            throw new IllegalStateException("bulk load failed while writing (" + written.sum() + " of "
                + 2L * edges.size() + " adjacency entries were written and stay): " + cause.getMessage(), cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("bulk load interrupted while writing", e);
        } finally {
            pool.shutdownNow();
        }
        return new Result(index.presentVertices(), edges.size(), System.nanoTime() - start);
    }

    /**
     * Seals the lists the load appended to (they existed before it) that may have grown past a segment, as the
     * Structure API's appends would have ({@link SegmentSealer}); lists the load wrote whole are segmented already.
     */
    private static void sealAppended(final GraphStore store, final int segmentEntries, final List<HomeWriter> writers) {
        final SegmentSealer sealer = new SegmentSealer(store, segmentEntries);
        for (final HomeWriter w : writers) {
            final List<Long> keys = w.appendedKeys();
            for (int i = 0; i < keys.size(); i++) {
                if (sealer.due(keys.get(i), w.appendedEntries(i))) {
                    sealer.sealIfLong(keys.get(i));
                }
            }
        }
    }

    /**
     * Refuses a load the machines have no room for, before writing any of it: each machine's new keys against what its
     * key region is sized for, and its new value bytes against its value region's free bytes.
     */
    private static void checkRoom(final EmbeddedCluster cluster, final AdjacencyIndex index, final int vertexBytes,
                                  final int segmentEntries) {
        final int machines = cluster.machineCount();
        final long[] keys = new long[machines];
        final long[] bytes = new long[machines];
        for (int v = 0; v < index.vertexCount; v++) {
            final int m = index.home[v];
            if (m < 0) {
                continue;
            }
            keys[m]++;
            bytes[m] += recordBytes(vertexBytes);
            for (int l = 0; l < index.labels(); l++) {
                for (final AdjacencyIndex.Rows rows : new AdjacencyIndex.Rows[] {index.out(l), index.in(l)}) {
                    final int degree = rows.degree(v);
                    if (degree > segmentEntries) {
                        // a supernode: its sealed segments, its tail with their slots in its head, its slot record
                        final int sealed = (degree - 1) / segmentEntries;
                        keys[m] += 2 + sealed;
                        bytes[m] += sealed * recordBytes((long) segmentEntries * Adjacency.ENTRY_BYTES)
                            + recordBytes((long) (degree - sealed * (long) segmentEntries + sealed) * Adjacency.ENTRY_BYTES)
                            + recordBytes(8L * sealed);
                    } else if (degree > 0) {
                        keys[m]++;
                        bytes[m] += recordBytes((long) degree * Adjacency.ENTRY_BYTES);
                    }
                }
            }
        }
        final long indexRecords = HomeWriter.EDGE_INDEX_RECORDS
            ? (index.edges.size() + machines - 1) / machines : 0;
        for (int m = 0; m < machines; m++) {
            keys[m] += indexRecords;
            bytes[m] += indexRecords * recordBytes(EdgeIndexRecord.BYTES);
            final Machine machine = cluster.machine(m);
            final StoreConfig config = machine.store().config();
            // The key region is provisioned for expectedKeys at about 70% bucket load; 20% above it still fits with
            // room to spare in the overflow buckets of an evenly hashed load.
            final long keyRoom = config.expectedKeys() + config.expectedKeys() / 5 - machine.store().keys().size();
            if (keys[m] > keyRoom) {
                throw new IllegalArgumentException("bulk load refused before writing: machine " + m + " would get "
                    + keys[m] + " new keys, its key region has room for " + Math.max(0, keyRoom) + " (open the graph"
                    + " with " + EmbeddedGraphStore.KEYS + " of at least " + suggest(keys[m] + machine.store().keys().size()) + ")");
            }
            final long valueRoom = config.valueBytes() - machine.store().values().liveBytes();
            if (bytes[m] > valueRoom) {
                throw new IllegalArgumentException("bulk load refused before writing: machine " + m + " would get "
                    + bytes[m] + " bytes of new values, its value region has " + Math.max(0, valueRoom) + " free (open"
                    + " the graph with " + EmbeddedGraphStore.VALUE_BYTES + " of at least "
                    + suggest(bytes[m] + machine.store().values().liveBytes()) + ")");
            }
        }
    }

    private static long suggest(final long needed) {
        return needed + needed / 4 + 4096;
    }

    /** Bytes a record of {@code payload} bytes takes, header and size-class rounding included. */
    static long recordBytes(final long payload) {
        return io.pragh.address.SizeClasses.units(io.pragh.address.SizeClasses.classOf(ValueRecord.unitsFor(payload))) * 8;
    }

    /** Claims {@code count} consecutive edge ids on the store's shared id counter. */
    private static long claimEdgeIds(final GraphStore store, final long count) {
        return claimIds(store, GraphKeys.idBlocks(), count);
    }

    /**
     * Claims {@code count} consecutive ids (from {@link IdBlocks#FIRST_ID}) on the {@link IdBlocks} counter under
     * {@code counterKey}, a read-modify-write at its host, so concurrent claimers of any process get disjoint blocks.
     *
     * <p>Example: {@code long first = EdgeBulkLoad.claimIds(store, RdfKeys.termIds(), newTerms);}
     */
    public static long claimIds(final GraphStore store, final long counterKey, final long count) {
        for (int attempt = 0; attempt < 1000; attempt++) {
            final UUID token = UUID.randomUUID();
            store.update(counterKey, GraphMutations.ID_BLOCKS,
                IdBlocks.claim(token.getMostSignificantBits(), token.getLeastSignificantBits(), count));
            final long start = IdBlocks.claimedBy(store.get(counterKey), token.getMostSignificantBits(),
                token.getLeastSignificantBits());
            if (start >= 0) {
                if (start + count - 1 > GraphKeys.MAX_ID) {
                    throw new IllegalStateException("the store's ids are used up: " + count + " more from "
                        + start + " pass " + GraphKeys.MAX_ID);
                }
                return start;
            }
        }
        throw new IllegalStateException("could not claim a block of " + count + " ids in 1000 attempts");
    }

    /** A store that is not an embedded cluster: batched updates through a {@link BulkLoader}. */
    private Result loadInBatches(final EdgeBuffer edges, final long start) {
        final org.agrona.collections.LongHashSet seen = new org.agrona.collections.LongHashSet();
        try (BulkLoader loader = graph.bulkLoader()) {
            for (int e = 0, n = edges.size(); e < n; e++) {
                final long from = edges.out(e);
                final long to = edges.in(e);
                if (seen.add(from)) {
                    loader.ensureVertex(from);
                }
                if (seen.add(to)) {
                    loader.ensureVertex(to);
                }
                loader.addEdge(from, edges.labels().get(edges.label(e)), to);
                if ((e & 0xffff) == 0) {
                    progress.update("writing", e, n);
                }
            }
        }
        progress.update("writing", edges.size(), edges.size());
        return new Result(seen.size(), edges.size(), System.nanoTime() - start);
    }

    /**
     * Store sizes for a fresh embedded graph of {@code machines} machines that will hold {@code edges}: keys and value
     * bytes per machine with a quarter to spare, for {@link EmbeddedGraphStore#KEYS} and
     * {@link EmbeddedGraphStore#VALUE_BYTES}, so that a graph opened to be loaded is sized from its data.
     */
    public static long[] freshGraphSizes(final EdgeBuffer edges, final int machines) {
        final long vertices = Math.min(edges.maxVid() + 1, 2L * edges.size());
        final long indexRecords = HomeWriter.EDGE_INDEX_RECORDS ? edges.size() : 0;
        final long keys = vertices * 3 + indexRecords;
        final long bytes = vertices * (recordBytes(8) + 2 * ValueRecord.HEADER_BYTES + 16)
            + edges.size() * 2L * Adjacency.ENTRY_BYTES + indexRecords * recordBytes(EdgeIndexRecord.BYTES);
        return new long[] {Math.max(StoreConfig.DEFAULT_EXPECTED_KEYS / 16, suggest(keys / machines)),
            Math.max(16L << 20, suggest(bytes / machines))};
    }
}
