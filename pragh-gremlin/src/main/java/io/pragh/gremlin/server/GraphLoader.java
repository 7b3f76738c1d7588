package io.pragh.gremlin.server;

import io.pragh.gremlin.load.EdgeBuffer;
import io.pragh.gremlin.load.EdgeBulkLoad;
import io.pragh.gremlin.load.EdgeListParser;
import io.pragh.gremlin.structure.PraghGraph;
import org.agrona.collections.LongHashSet;
import org.apache.tinkerpop.gremlin.structure.Graph;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.structure.io.graphml.GraphMLReader;
import org.apache.tinkerpop.gremlin.structure.io.graphson.GraphSONReader;

import java.io.BufferedReader;
import java.io.File;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Loads a file into a graph, showing a progress bar: GraphSON ({@code .json}, {@code .graphson}) and GraphML
 * ({@code .xml}, {@code .graphml}) through TinkerPop IO, anything else as an edge list: one edge per line,
 * {@code source target [label]}, numeric vertex ids, blank lines and {@code #} or {@code %} comments skipped.
 * An edge list into a {@link PraghGraph} is parsed whole and then bulk-loaded ({@link EdgeBulkLoad}), so a malformed
 * line stops the load, naming the file and line, before anything is written; into another graph, edge by edge. A GraphSON or GraphML id
 * that is not an integer (GraphML's {@code n0}) is kept as the element's {@code originalId} property
 * ({@link OriginalIds}); integer ids are the elements' ids.
 *
 * <p>Example: {@code long n = new GraphLoader(System.err).load(graph, new File("roadNet-CA.txt"));}
 */
public final class GraphLoader {
    /** Label of edge-list edges that name none. */
    public static final String DEFAULT_EDGE_LABEL = EdgeListParser.DEFAULT_LABEL;

    private final PrintStream progress;

    public GraphLoader(final PrintStream progress) {
        this.progress = progress;
    }

    /** Loads {@code file}; returns the number of vertices and edges it added (edges only, for an edge list). */
    public long load(final Graph graph, final File file) throws IOException {
        return load(graph, file, FileLoad.Format.of(file, null));
    }

    /**
     * Loads {@code file} (its format from {@code format}, or its extension when null) into a graph whose store cannot
     * count every element (a cluster reached through a client port): returns the edges of an edge list, or -1 for
     * GraphML and GraphSON, whose additions are then not counted.
     */
    public long loadUncounted(final Graph graph, final File file, final String format) throws IOException {
        final FileLoad.Format f = FileLoad.Format.of(file, format);
        return f == FileLoad.Format.EDGELIST ? load(graph, file, f) : load(graph, file, f, false);
    }

    /** Loads {@code file} read as {@code format}. */
    long load(final Graph graph, final File file, final FileLoad.Format format) throws IOException {
        return load(graph, file, format, true);
    }

    private long load(final Graph graph, final File file, final FileLoad.Format format, final boolean counted)
            throws IOException {
        if (!file.isFile()) {
            throw new IOException("cannot load " + file + ": no such file");
        }
        if (format == FileLoad.Format.EDGELIST && graph instanceof PraghGraph) {
            return loadEdgeList((PraghGraph) graph, file);
        }
        final ProgressBar bar = new ProgressBar(progress, "loading " + file.getName(), file.length());
        final long before = counted ? count(graph) : 0;
        try (CountingInput in = new CountingInput(Files.newInputStream(file.toPath()), bar, graph)) {
            if (format == FileLoad.Format.GRAPHSON) {
                GraphSONReader.build().create().readGraph(in, OriginalIds.view(graph));
            } else if (format == FileLoad.Format.GRAPHML) {
                GraphMLReader.build().create().readGraph(in, OriginalIds.view(graph));
            } else {
                final long edges = loadEdgeList(graph, in, file.getName());
                bar.finish(edges);
                return edges;
            }
        }
        final long added = counted ? count(graph) - before : -1;
        bar.finish(Math.max(0, added));
        return added;
    }

    /** An edge list into a PraghGraph: parsed whole (a bad line stops it before any write), then bulk-loaded. */
    private long loadEdgeList(final PraghGraph graph, final File file) throws IOException {
        final ProgressBar reading = new ProgressBar(progress, "reading " + file.getName(), file.length());
        final EdgeBuffer edges = EdgeListParser.parse(file.toPath(), bytes -> reading.update(bytes, 0));
        reading.finish(edges.size());
        final ProgressBar writing = new ProgressBar(progress, "writing " + file.getName(), 2L * edges.size());
        final EdgeBulkLoad.Result r = EdgeBulkLoad.into(graph)
            .progress((phase, done, total) -> writing.update(done, done / 2)).load(edges);
        writing.finish(r.edges());
        return r.edges();
    }

    private static long count(final Graph graph) {
        return graph.traversal().V().count().next() + graph.traversal().E().count().next();
    }

    /** Receives the edges of an edge list. */
    @FunctionalInterface
    private interface EdgeVisitor {
        void accept(long from, long to, String label);
    }

    /** Parses an edge list, naming the line of a malformed one; {@code lineNumber[0]} is the line being read. */
    private static void forEachEdge(final InputStream in, final String source, final long[] lineNumber,
                                    final EdgeVisitor visitor) throws IOException {
        final BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16);
        for (String line = reader.readLine(); line != null; line = reader.readLine()) {
            lineNumber[0]++;
            final String trimmed = line.trim();
            if (trimmed.isEmpty() || trimmed.startsWith("#") || trimmed.startsWith("%")) {
                continue;
            }
            final String[] parts = trimmed.split("[\\s,]+");
            if (parts.length < 2 || parts.length > 3) {
                throw new IOException(source + " line " + lineNumber[0] + ": expected 'source target [label]', got '" + trimmed + "'");
            }
            visitor.accept(parseId(parts[0], source, lineNumber[0]), parseId(parts[1], source, lineNumber[0]),
                parts.length == 3 ? parts[2] : DEFAULT_EDGE_LABEL);
        }
    }

    private static long loadEdgeList(final Graph graph, final CountingInput in, final String source) throws IOException {
        final LongHashSet seen = new LongHashSet();
        final Map<Long, Vertex> recent = new HashMap<>();
        final long[] edges = new long[1];
        forEachEdge(in, source, new long[1], (from, to, label) -> {
            final Vertex out = vertex(graph, from, seen, recent);
            final Vertex in2 = vertex(graph, to, seen, recent);
            out.addEdge(label, in2);
            in.items = ++edges[0];
            if (recent.size() > 4096) {
                recent.clear();
            }
        });
        return edges[0];
    }

    private static Vertex vertex(final Graph graph, final long id, final LongHashSet seen, final Map<Long, Vertex> recent) {
        final Vertex cached = recent.get(id);
        if (cached != null) {
            return cached;
        }
        final Vertex v = seen.add(id) && !graph.vertices(id).hasNext() ? graph.addVertex(T.id, id) : graph.vertices(id).next();
        recent.put(id, v);
        return v;
    }

    private static long parseId(final String text, final String source, final long line) throws IOException {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new IOException(source + " line " + line + ": vertex id '" + text + "' is not an integer");
        }
    }

    /** Counts bytes read for the progress bar. */
    private static final class CountingInput extends FilterInputStream {
        private final ProgressBar bar;
        private long bytes;
        long items;

        CountingInput(final InputStream in, final ProgressBar bar, final Graph graph) {
            super(in);
            this.bar = bar;
        }

        @Override
        public int read() throws IOException {
            final int b = super.read();
            if (b >= 0) {
                advance(1);
            }
            return b;
        }

        @Override
        public int read(final byte[] buffer, final int offset, final int length) throws IOException {
            final int n = super.read(buffer, offset, length);
            if (n > 0) {
                advance(n);
            }
            return n;
        }

        private void advance(final int n) {
            bytes += n;
            bar.update(bytes, items);
        }
    }
}
