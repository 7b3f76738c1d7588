package io.pragh.bench.janusgraph;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.janusgraph.core.JanusGraph;
import org.janusgraph.core.JanusGraphFactory;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * {@code g.V(x).out().out().count()} on JanusGraph 1.1.0 with the in-memory backend, over the graph pragh-bench
 * exported to {@code dir}: {@code edges.txt} ({@code "vertices N"}, then one {@code "src dst"} line per edge) and
 * {@code pragh-counts.txt} (the start vertices, in order, with the counts PraghGraph answered). Before anything is
 * timed, JanusGraph's answers are written to {@code janusgraph-counts.txt} and compared with PraghGraph's; the trial
 * fails on any difference. Each query runs in its own transaction (rolled back after it), as Gremlin Server runs a
 * request, so no query finds the vertices of the previous ones in a transaction cache.
 *
 * <pre>{@code
 * ./pragh bench janusgraph -f 1 -wi 5 -w 2 -i 5 -r 2      (exports the files, then runs this in its own JVM)
 * }</pre>
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
public class JanusGraphPushdownBenchmark {
    static final String EDGES = "edges.txt";
    static final String PRAGH_COUNTS = "pragh-counts.txt";
    static final String JANUS_COUNTS = "janusgraph-counts.txt";
    /** TinkerPop's default label "edge" is a reserved name in JanusGraph; the query names no label, so any will do. */
    static final String LABEL = "link";

    /** JanusGraph in-memory, loaded from the exported edge list once per trial. */
    @State(Scope.Benchmark)
    public static class Janus {
        /** The directory pragh-bench exported to (absolute; {@code ./pragh bench janusgraph} passes it). */
        @Param("")
        public String dir;
        JanusGraph graph;
        GraphTraversalSource g;
        /** JanusGraph's id of each start vertex, in the order of pragh-counts.txt. */
        Object[] starts;

        @Setup(Level.Trial)
        public void load() throws IOException {
            if (dir.isEmpty()) {
                throw new IllegalArgumentException("no data directory: run through './pragh bench janusgraph', or pass -p dir=DIR"
                    + " with the files it exports");
            }
            Path base = Path.of(dir);
            long t0 = System.nanoTime();
            graph = JanusGraphFactory.build().set("storage.backend", "inmemory").open();
            Object[] ids = loadEdges(base.resolve(EDGES));
            System.out.printf(Locale.ROOT, "%nJanusGraph %s in-memory loaded %d vertices in %.1f s%n",
                JanusGraph.version(), ids.length, (System.nanoTime() - t0) / 1e9);
            g = graph.traversal();
            long[][] pragh = readCounts(base.resolve(PRAGH_COUNTS));
            starts = new Object[pragh[0].length];
            long[] counts = new long[starts.length];
            for (int i = 0; i < starts.length; i++) {
                starts[i] = ids[Math.toIntExact(pragh[0][i])];
                counts[i] = twoHopCount(i);
            }
            writeCounts(base.resolve(JANUS_COUNTS), pragh[0], counts);
            List<String> wrong = new ArrayList<>();
            for (int i = 0; i < counts.length; i++) {
                if (counts[i] != pragh[1][i]) {
                    wrong.add("x=" + pragh[0][i] + ": " + counts[i] + " vs " + pragh[1][i]);
                }
            }
            if (!wrong.isEmpty()) {
                throw new IllegalStateException("JanusGraph and PraghGraph disagree on g.V(x).out().out().count() for "
                    + wrong.size() + " of " + counts.length + " start vertices (JanusGraph vs PraghGraph): " + wrong);
            }
        }

        /** Adds the vertices then the edges in one transaction; returns JanusGraph's id of each exported vertex. */
        private Object[] loadEdges(Path file) throws IOException {
            try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                String header = in.readLine();
                if (header == null || !header.startsWith("vertices ")) {
                    throw new IOException(file + " line 1: expected 'vertices N', got '" + header + "'");
                }
                Vertex[] vertices = new Vertex[Integer.parseInt(header.substring("vertices ".length()).trim())];
                for (int v = 0; v < vertices.length; v++) {
                    vertices[v] = graph.addVertex();
                }
                long line = 1;
                for (String s = in.readLine(); s != null; s = in.readLine()) {
                    line++;
                    String[] parts = s.trim().split(" ");
                    if (parts.length != 2) {
                        throw new IOException(file + " line " + line + ": expected 'src dst', got '" + s + "'");
                    }
                    vertices[Integer.parseInt(parts[0])].addEdge(LABEL, vertices[Integer.parseInt(parts[1])]);
                }
                graph.tx().commit();
                return Arrays.stream(vertices).map(Vertex::id).toArray();
            }
        }

        long twoHopCount(int start) {
            try {
                return g.V(starts[start]).out().out().count().next();
            } finally {
                graph.tx().rollback();
            }
        }

        @TearDown(Level.Trial)
        public void close() {
            graph.close();
        }
    }

    /** Which start vertex the next query asks about. */
    @State(Scope.Thread)
    public static class Cursor {
        int next;
    }

    @Benchmark
    public long janusGraph(Janus j, Cursor c) {
        return j.twoHopCount(Math.floorMod(c.next++, j.starts.length));
    }

    /** The {@code "x count"} lines of a counts file: {@code [0]} the start vertices, {@code [1]} the counts. */
    static long[][] readCounts(Path file) throws IOException {
        List<long[]> rows = new ArrayList<>();
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        for (int i = 0; i < lines.size(); i++) {
            String s = lines.get(i).trim();
            if (s.isEmpty() || s.startsWith("#")) {
                continue;
            }
            String[] parts = s.split("\\s+");
            if (parts.length != 2) {
                throw new IOException(file + " line " + (i + 1) + ": expected 'x count', got '" + s + "'");
            }
            rows.add(new long[] {Long.parseLong(parts[0]), Long.parseLong(parts[1])});
        }
        long[][] out = new long[2][rows.size()];
        for (int i = 0; i < rows.size(); i++) {
            out[0][i] = rows.get(i)[0];
            out[1][i] = rows.get(i)[1];
        }
        return out;
    }

    static void writeCounts(Path file, long[] starts, long[] counts) throws IOException {
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            w.write("# g.V(x).out().out().count() on JanusGraph " + JanusGraph.version() + " in-memory: x count\n");
            for (int i = 0; i < starts.length; i++) {
                w.write(starts[i] + " " + counts[i] + "\n");
            }
        }
    }
}
