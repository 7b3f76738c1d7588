package io.pragh.bench.footprint;

import io.pragh.bench.workload.AdjacencyGraph;
import io.pragh.bench.workload.RmatGenerator;
import io.pragh.embedded.OffHeapUse;
import io.pragh.gremlin.load.EdgeBuffer;
import io.pragh.gremlin.structure.BulkLoader;
import io.pragh.gremlin.structure.PraghGraph;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.apache.commons.configuration2.BaseConfiguration;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.T;

/**
 * What a loaded graph costs per edge: a property-less RMAT graph (scale {@code --scale}, edge factor 16, seed 42,
 * every adjacency entry an edge) loaded through {@link PraghGraph#bulkLoader()} into a default embedded cluster,
 * then bytes per edge = (heap the load added + off-heap bytes its keys and values use) / edges, beside the growth of
 * the process's resident memory per edge as a cross-check (which also counts pages the regions touched but do not
 * fill, such as the key region's buckets, and the JVM's own growth). Heap is measured after full GCs, with the
 * generated graph alive before and after, so it does not count, and from the empty graph on (whose own heap is shown
 * apart); superseded values waiting for their reclaim lease are shown apart too.
 *
 * <pre>{@code
 * ./pragh bench footprint --scale 16 [--batch 65536]
 * }</pre>
 */
public final class GraphFootprint {
    /** What one run measured. */
    public record Result(long vertices, long edges, double loadSeconds, long emptyHeapBytes, long heapBytes,
                         OffHeapUse offHeap, long rssBytes, long heapCommittedBytes) {
        public double bytesPerEdge() {
            return (double) (heapBytes + offHeap.keyBytes() + offHeap.valueBytes()) / edges;
        }

        public double rssBytesPerEdge() {
            return (double) rssBytes / edges;
        }
    }

    private GraphFootprint() {
    }

    public static int run(String[] args, PrintStream out, PrintStream err) throws IOException {
        int scale = 16;
        int batch = 0;
        for (int i = 0; i < args.length; i++) {
            if ("--scale".equals(args[i]) && i + 1 < args.length) {
                scale = Integer.parseInt(args[++i]);
            } else if ("--batch".equals(args[i]) && i + 1 < args.length) {
                batch = Integer.parseInt(args[++i]);
            } else {
                err.println("usage: ./pragh bench footprint [--scale N] [--batch EDGES]   (RMAT scale, default 16;"
                    + " default: PraghGraph.edgeBulkLoad(), whole values; --batch E: PraghGraph.bulkLoader(E), an"
                    + " append per list per batch of E edges, e.g. " + BulkLoader.DEFAULT_BATCH_EDGES + ")");
                return 2;
            }
        }
        AdjacencyGraph graph = new RmatGenerator(scale, RmatGenerator.EDGE_FACTOR, 42).generate();
        Result r = measure(graph, batch);
        out.printf(Locale.ROOT, "RMAT scale %d through PraghGraph.%s: %,d vertices, %,d property-less edges%n",
            scale, batch > 0 ? "bulkLoader(" + batch + ")" : "edgeBulkLoad()", r.vertices(), r.edges());
        out.printf(Locale.ROOT, "  loaded in %.1f s (%,.0f edges/s); the empty graph's heap: %,d bytes%n", r.loadSeconds(),
            r.edges() / r.loadSeconds(), r.emptyHeapBytes());
        out.printf(Locale.ROOT, "  heap added          %,14d bytes  %6.1f bytes/edge%n", r.heapBytes(),
            (double) r.heapBytes() / r.edges());
        out.printf(Locale.ROOT, "  off-heap keys       %,14d bytes  %6.1f bytes/edge%n", r.offHeap().keyBytes(),
            (double) r.offHeap().keyBytes() / r.edges());
        out.printf(Locale.ROOT, "  off-heap values     %,14d bytes  %6.1f bytes/edge%n", r.offHeap().valueBytes(),
            (double) r.offHeap().valueBytes() / r.edges());
        out.printf(Locale.ROOT, "  total               %,14d bytes  %6.1f bytes/edge  (heap + off-heap keys and values)%n",
            r.heapBytes() + r.offHeap().keyBytes() + r.offHeap().valueBytes(), r.bytesPerEdge());
        out.printf(Locale.ROOT, "  garbage not yet reclaimed %,8d bytes  (superseded values within their reclaim lease)%n",
            r.offHeap().garbageBytes());
        out.printf(Locale.ROOT, "  resident memory grew %,13d bytes  %6.1f bytes/edge  (VmRSS, cross-check: it also"
            + " counts the heap the JVM keeps committed, %,d bytes now, the key region pages keys landed in and value"
            + " region pages garbage touched before it was freed)%n", r.rssBytes(), r.rssBytesPerEdge(),
            r.heapCommittedBytes());
        out.printf(Locale.ROOT, "  off-heap reserved    %,13d bytes  (address space; resident only where touched)%n",
            r.offHeap().reservedBytes());
        return 0;
    }

    /**
     * Loads {@code graph} into a fresh default PraghGraph and measures it: through {@link PraghGraph#edgeBulkLoad()}
     * (whole values, the vertices its edges name) when {@code batchEdges} is 0, else through a {@link BulkLoader} of
     * {@code batchEdges} edges a batch (every vertex added).
     */
    public static Result measure(AdjacencyGraph graph, int batchEdges) throws IOException {
        long heapBefore = heapAfterGc();
        long rss0 = residentBytes();
        long edges;
        try (PraghGraph pragh = PraghGraph.open(new BaseConfiguration())) {
            long heap0 = heapAfterGc();
            long t0 = System.nanoTime();
            edges = batchEdges == 0 ? loadWhole(pragh, graph) : loadInBatches(pragh, graph, batchEdges);
            double seconds = (System.nanoTime() - t0) / 1e9;
            long rss = residentBytes() - rss0;
            long heap = heapAfterGc() - heap0;
            return new Result(graph.vertexCount(), edges, seconds, heap0 - heapBefore, heap,
                pragh.store().offHeapUse(), rss, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getCommitted());
        }
    }

    private static long loadInBatches(PraghGraph pragh, AdjacencyGraph graph, int batchEdges) {
        long edges = 0;
        try (BulkLoader load = pragh.bulkLoader(batchEdges)) {
            for (int v = 0; v < graph.vertexCount(); v++) {
                load.addVertex(T.id, (long) v);
            }
            for (int v = 0; v < graph.vertexCount(); v++) {
                for (int j = 0; j < graph.degree(v); j++) {
                    load.addEdge(v, Edge.DEFAULT_LABEL, graph.neighbour(v, j));
                    edges++;
                }
            }
        }
        return edges;
    }

    /** Through {@link PraghGraph#edgeBulkLoad()}; the edge buffer is garbage once it returns. */
    private static long loadWhole(PraghGraph pragh, AdjacencyGraph graph) {
        EdgeBuffer buffer = new EdgeBuffer();
        for (int v = 0; v < graph.vertexCount(); v++) {
            for (int j = 0; j < graph.degree(v); j++) {
                buffer.add(v, graph.neighbour(v, j), Edge.DEFAULT_LABEL);
            }
        }
        return pragh.edgeBulkLoad().load(buffer).edges();
    }

    private static long heapAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /** VmRSS of this process, or 0 where /proc is not there. */
    private static long residentBytes() throws IOException {
        Path status = Path.of("/proc/self/status");
        if (!Files.exists(status)) {
            return 0;
        }
        for (String line : Files.readAllLines(status)) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
            }
        }
        return 0;
    }
}
