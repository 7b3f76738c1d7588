package io.pragh.rdf.cli;

import io.pragh.embedded.OffHeapUse;
import io.pragh.gremlin.structure.EmbeddedGraphStore;
import io.pragh.gremlin.structure.GraphStore;
import io.pragh.gremlin.structure.PraghGraph;
import io.pragh.rdf.load.RdfLoad;
import io.pragh.rdf.load.TripleCollector;
import io.pragh.rdf.store.RdfStore;
import io.pragh.rdf.store.TermSegments;
import io.pragh.store.StoreConfig;
import org.apache.commons.configuration2.BaseConfiguration;
import org.apache.commons.configuration2.Configuration;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * An embedded cluster holding one RDF file, sized from its parsed triples and terms unless settings say otherwise, loaded with a progress
 * bar per phase on {@code progress}.
 *
 * <p>Example: {@code try (EmbeddedRdf e = EmbeddedRdf.load(path, 4, List.of(), System.err)) { e.rdf(); }}
 */
final class EmbeddedRdf implements AutoCloseable {
    final GraphStore store;
    final RdfStore rdf;
    final RdfLoad.Result loaded;

    private EmbeddedRdf(final GraphStore store, final RdfLoad.Result loaded) {
        this.store = store;
        this.rdf = new RdfStore(store);
        this.loaded = loaded;
    }

    /**
     * What the loaded store takes: off-heap bytes in use (keys, values, garbage not yet reclaimed) and reserved, per
     * triple, and the JVM heap's peak (the load holds the parsed file there), the figures that say how large a file
     * a host's memory takes.
     */
    String memory() {
        final OffHeapUse use = store.offHeapUse();
        long heapPeak = 0;
        for (final MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            heapPeak += pool.getType() == MemoryType.HEAP ? pool.getPeakUsage().getUsed() : 0;
        }
        final double triples = Math.max(1, loaded.triples());
        return String.format("memory: off-heap %,d MiB used (keys %,d, values %,d, garbage %,d MiB), %,d MiB reserved:"
                + " %.0f bytes used a triple; JVM heap peak %,d MiB (%.0f bytes a triple)", use.usedBytes() >> 20,
            use.keyBytes() >> 20, use.valueBytes() >> 20, use.garbageBytes() >> 20, use.reservedBytes() >> 20,
            use.usedBytes() / triples, heapPeak >> 20, heapPeak / triples);
    }

    static EmbeddedRdf load(final Path file, final int machines, final List<String[]> settings,
                            final PrintStream progress) throws Exception {
        return load(file, machines, settings, TermSegments.DEFAULT_SEGMENT_ENTRIES, progress);
    }

    /** As {@link #load(Path, int, List, PrintStream)}, lists longer than {@code segmentEntries} ids segmented. */
    static EmbeddedRdf load(final Path file, final int machines, final List<String[]> settings,
                            final int segmentEntries, final PrintStream progress) throws Exception {
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException("cannot load " + file + ": no such file");
        }
        final var lang = RdfLoad.languageOf(file);
        final PhaseBars bars = new PhaseBars(progress, file.getFileName().toString());
        final long start = System.nanoTime();
        final TripleCollector triples = RdfLoad.parse(file, lang, bars);
        final long parseNanos = System.nanoTime() - start;
        final Configuration conf = new BaseConfiguration();
        conf.setProperty(PraghGraph.MACHINES, machines);
        // Sized from what the parse found, not guessed from the file's bytes: at most two lists a triple ((s,p,OUT),
        // (o,p,IN)) and two keys a new term (TERM, its hash bucket), hashed evenly over the machines, with room for
        // the uneven; values about 100 bytes a triple measured (docs/results/rdf-memory.md), plus every index list
        // (16 bytes a triple) on the index vertex's one home.
        final long keys = 2L * triples.size() + 2L * triples.termCount();
        conf.setProperty(EmbeddedGraphStore.KEYS, Math.max(StoreConfig.DEFAULT_EXPECTED_KEYS / 16,
            keys * 5 / 4 / machines + 4096));
        conf.setProperty(EmbeddedGraphStore.VALUE_BYTES, Math.max(32L << 20,
            200L * triples.size() / machines + 16L * triples.size()));
        for (final String[] kv : settings) {
            conf.setProperty(kv[0], kv[1]);
        }
        final GraphStore store = EmbeddedGraphStore.open(conf);
        try {
            final RdfLoad.Result r = RdfLoad.into(new RdfStore(store)).progress(bars)
                .segmentEntries(segmentEntries).write(triples, parseNanos);
            bars.finish();
            return new EmbeddedRdf(store, r);
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
    }

    RdfStore rdf() {
        return rdf;
    }

    @Override
    public void close() {
        store.close();
    }
}
