package io.pragh.bench.views;

import io.pragh.bench.traversal.JsonFile;
import io.pragh.bench.workload.AdjacencyGraph;
import io.pragh.bench.workload.RmatGenerator;
import io.pragh.gremlin.kcore.KCore;
import io.pragh.gremlin.load.EdgeBuffer;
import io.pragh.gremlin.structure.EmbeddedGraphStore;
import io.pragh.gremlin.structure.PraghGraph;
import io.pragh.gremlin.view.PraghViews;
import org.apache.commons.configuration2.BaseConfiguration;
import org.apache.tinkerpop.gremlin.structure.Edge;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code ./pragh bench kcore}: the time of a k-core (Concerto's 3-core figure) of an RMAT graph (edge factor 16,
 * seed 42) loaded into an embedded cluster, by {@link KCore}'s parallel peeling where the data lives, beside a plain
 * single-threaded peeling of the same graph in arrays as a reference; the two cores must have the same size (the
 * exit status is 1 when they differ). Writes the figures as JSON to {@code --out}.
 *
 * <pre>{@code
 * ./pragh bench kcore --scale 20 --k 3 --out docs/results/kcore-s20.json
 * }</pre>
 */
public final class KCoreBench {
    private KCoreBench() {
    }

    public static int run(final String[] args, final PrintStream out, final PrintStream err) {
        int scale = 16;
        int k = 3;
        int machines = 4;
        Path json = Path.of("target/kcore.json");
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--scale" -> scale = Integer.parseInt(args[i + 1]);
                case "--k" -> k = Integer.parseInt(args[i + 1]);
                case "--machines" -> machines = Integer.parseInt(args[i + 1]);
                case "--out" -> json = Path.of(args[i + 1]);
                default -> {
                    err.println("usage: ./pragh bench kcore [--scale S] [--k K] [--machines N] [--out FILE.json]");
                    return 2;
                }
            }
        }
        if (args.length % 2 != 0) {
            err.println("usage: ./pragh bench kcore [--scale S] [--k K] [--machines N] [--out FILE.json]");
            return 2;
        }
        final AdjacencyGraph rmat = new RmatGenerator(scale, RmatGenerator.EDGE_FACTOR, 42).generate();
        final long t0 = System.nanoTime();
        final int reference = referenceCoreSize(rmat, k);
        final double referenceSeconds = (System.nanoTime() - t0) / 1e9;
        final BaseConfiguration conf = new BaseConfiguration();
        conf.setProperty(PraghGraph.MACHINES, machines);
        // Room for the whole graph (regions grow in chunks as data arrives, so this reserves nothing up front).
        final long edgesPerMachine = (RmatGenerator.EDGE_FACTOR << scale) / machines + 1;
        conf.setProperty(EmbeddedGraphStore.VALUE_BYTES, Math.max(256L << 20, edgesPerMachine * 128));
        conf.setProperty(EmbeddedGraphStore.KEYS, Math.max(1L << 20, 8L * (1L << scale) / machines));
        final Map<String, Object> report = new LinkedHashMap<>();
        try (PraghGraph graph = PraghGraph.open(conf)) {
            final EdgeBuffer buffer = new EdgeBuffer();
            for (int v = 0; v < rmat.vertexCount(); v++) {
                for (int j = 0; j < rmat.degree(v); j++) {
                    buffer.add(v, rmat.neighbour(v, j), Edge.DEFAULT_LABEL);
                }
            }
            final long l0 = System.nanoTime();
            final long edges = graph.edgeBulkLoad().load(buffer).edges();
            final double loadSeconds = (System.nanoTime() - l0) / 1e9;
            final long c0 = System.nanoTime();
            final KCore.Result core = new KCore(PraghViews.of(graph)).run(k, null);
            final double coreSeconds = (System.nanoTime() - c0) / 1e9;
            report.put("scale", scale);
            report.put("edge_factor", RmatGenerator.EDGE_FACTOR);
            report.put("machines", machines);
            report.put("edges", edges);
            report.put("k", k);
            report.put("load_s", loadSeconds);
            report.put("kcore_s", coreSeconds);
            report.put("core_size", core.members().length);
            report.put("rounds", core.rounds());
            report.put("reference_core_size", reference);
            report.put("reference_s", referenceSeconds);
            report.put("cores", Runtime.getRuntime().availableProcessors());
        }
        JsonFile.write(json, report);
        out.println(report);
        out.println("wrote " + json);
        return report.get("core_size").equals(reference) ? 0 : 1;
    }

    /**
     * The size of the k-core by plain peeling over arrays: edges undirected, self-loops and repeats dropped, as
     * {@link KCore} takes them.
     */
    static int referenceCoreSize(final AdjacencyGraph g, final int k) {
        final int n = g.vertexCount();
        final int[][] adj = new int[n][];
        final int[] fill = new int[n];
        for (int v = 0; v < n; v++) {
            for (int j = 0; j < g.degree(v); j++) {
                final int w = g.neighbour(v, j);
                if (w != v) {
                    fill[v]++;
                    fill[w]++;
                }
            }
        }
        for (int v = 0; v < n; v++) {
            adj[v] = new int[fill[v]];
            fill[v] = 0;
        }
        for (int v = 0; v < n; v++) {
            for (int j = 0; j < g.degree(v); j++) {
                final int w = g.neighbour(v, j);
                if (w != v) {
                    adj[v][fill[v]++] = w;
                    adj[w][fill[w]++] = v;
                }
            }
        }
        final int[] degree = new int[n];
        for (int v = 0; v < n; v++) {
            adj[v] = Arrays.stream(adj[v]).sorted().distinct().toArray();
            degree[v] = adj[v].length;
        }
        final boolean[] removed = new boolean[n];
        final int[] stack = new int[n];
        int top = 0;
        for (int v = 0; v < n; v++) {
            if (degree[v] < k) {
                removed[v] = true;
                stack[top++] = v;
            }
        }
        int size = n - top;
        while (top > 0) {
            final int v = stack[--top];
            for (final int w : adj[v]) {
                if (!removed[w] && --degree[w] < k) {
                    removed[w] = true;
                    stack[top++] = w;
                    size--;
                }
            }
        }
        return size;
    }
}
