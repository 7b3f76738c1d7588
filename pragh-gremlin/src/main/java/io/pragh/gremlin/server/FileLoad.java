package io.pragh.gremlin.server;

import io.pragh.gremlin.load.EdgeBuffer;
import io.pragh.gremlin.load.EdgeBulkLoad;
import io.pragh.gremlin.load.EdgeListParser;
import io.pragh.gremlin.structure.EmbeddedGraphStore;
import io.pragh.gremlin.structure.PraghGraph;
import org.apache.commons.configuration2.Configuration;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.util.Locale;

/**
 * Opens a new embedded graph and loads a file into it, for {@code ./pragh load} and {@code ./pragh serve --load}. An
 * edge list is parsed whole first (a bad line stops the load before a graph exists), the graph is then opened sized
 * from its data (keys and value bytes per machine, unless the configuration sets them) and the edges bulk-loaded
 * ({@link EdgeBulkLoad}); GraphSON and GraphML go through TinkerPop's readers ({@link GraphLoader}). Progress bars on
 * {@code progress}: bytes read, then adjacency entries written.
 *
 * <p>Example: {@code FileLoad.Loaded l = FileLoad.open(conf, new File("edges.txt"), null, System.err);}
 */
final class FileLoad {
    /** File formats, chosen by extension or by name ({@code --format}). */
    enum Format {
        EDGELIST, GRAPHML, GRAPHSON;

        static Format of(final File file, final String given) {
            if (given != null) {
                try {
                    return valueOf(given.trim().toUpperCase(Locale.ROOT).replace("-", ""));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("--format " + given + ": expected edgelist, graphml or graphson");
                }
            }
            final String name = file.getName().toLowerCase(Locale.ROOT);
            if (name.endsWith(".json") || name.endsWith(".graphson")) {
                return GRAPHSON;
            }
            return name.endsWith(".xml") || name.endsWith(".graphml") ? GRAPHML : EDGELIST;
        }
    }

    /** The loaded graph and what the load took: reading the file, opening the graph, writing the edges. */
    record Loaded(PraghGraph graph, long vertices, long edges, long parseNanos, long openNanos, long writeNanos) {
        /** Edges per second of the load itself: reading and writing, not opening the cluster. */
        double edgesPerSecond() {
            return edges / Math.max(1e-9, (parseNanos + writeNanos) / 1e9);
        }
    }

    private FileLoad() {
    }

    static Loaded open(final Configuration conf, final File file, final String format, final PrintStream progress)
            throws IOException {
        final Format f = Format.of(file, format);
        if (!file.isFile()) {
            throw new IOException("cannot load " + file + ": no such file");
        }
        if (f != Format.EDGELIST) {
            final long start = System.nanoTime();
            final PraghGraph graph = PraghGraph.open(conf);
            try {
                final long added = new GraphLoader(progress).load(graph, file, f);
                return new Loaded(graph, -1, added, 0, 0, System.nanoTime() - start);
            } catch (IOException | RuntimeException e) {
                graph.close();
                throw e;
            }
        }
        final long start = System.nanoTime();
        final ProgressBar reading = new ProgressBar(progress, "reading " + file.getName(), file.length());
        final EdgeBuffer edges = EdgeListParser.parse(file.toPath(), bytes -> reading.update(bytes, 0));
        reading.finish(edges.size());
        final long parsed = System.nanoTime();
        final int machines = conf.getInt(PraghGraph.MACHINES, PraghGraph.DEFAULT_MACHINES);
        final long[] sizes = EdgeBulkLoad.freshGraphSizes(edges, machines);
        if (!conf.containsKey(EmbeddedGraphStore.KEYS)) {
            conf.setProperty(EmbeddedGraphStore.KEYS, sizes[0]);
        }
        if (!conf.containsKey(EmbeddedGraphStore.VALUE_BYTES)) {
            conf.setProperty(EmbeddedGraphStore.VALUE_BYTES, sizes[1]);
        }
        final PraghGraph graph = PraghGraph.open(conf);
        final long opened = System.nanoTime();
        try {
            final ProgressBar writing = new ProgressBar(progress, "writing " + file.getName(), 2L * edges.size());
            final EdgeBulkLoad.Result r = EdgeBulkLoad.into(graph)
                .progress((phase, done, total) -> writing.update(done, done / 2))
                .load(edges);
            writing.finish(r.edges());
            return new Loaded(graph, r.vertices(), r.edges(), parsed - start, opened - parsed, System.nanoTime() - opened);
        } catch (RuntimeException e) {
            graph.close();
            throw new IOException("loading " + file + " failed: " + e.getMessage(), e);
        }
    }
}
