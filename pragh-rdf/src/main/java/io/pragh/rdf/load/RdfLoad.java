package io.pragh.rdf.load;

import io.pragh.gremlin.load.EdgeBulkLoad;
import io.pragh.keys.KeyLayout;
import io.pragh.rdf.store.HashBucket;
import io.pragh.rdf.store.RdfKeys;
import io.pragh.rdf.store.RdfStore;
import io.pragh.rdf.store.TermSegments;
import org.agrona.collections.Long2ObjectHashMap;
import org.apache.jena.riot.Lang;
import org.apache.jena.riot.RDFLanguages;
import org.apache.jena.riot.RDFParser;
import org.apache.jena.riot.RiotException;
import org.apache.jena.riot.system.ErrorHandler;

import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Loads an N-Triples or Turtle file into an {@link RdfStore}: RIOT streams the file into a {@link TripleCollector};
 * the file's terms are looked up in the store's dictionary in batches, the new ones get ids from one block claimed on
 * the store's term counter, and then whole values are written per home ({@link HomeValues}): first the dictionary
 * (TERM values and TERM_HASH buckets), then the lists, so a reader that finds an id in a list finds its term too.
 * Each triple {@code s p o} adds {@code o} to {@code (s,p,OUT)}, {@code s} to {@code (o,p,IN)}, and the index
 * vertex's {@code (INDEX,p,OUT)} and {@code (INDEX,p,IN)} get {@code s} and {@code o}. Duplicate triples of a file
 * are stored once, and so is a triple an earlier load stored ({@link StoredTriples}). A list longer than a segment is written a segment at a time ({@link SegmentingWriter}), and a list
 * a load appended to is now and then checked and segmented once it grew past one. Loads into one store run one at a
 * time: two at once could give one new term two ids, and a segmented list's tail has one writer.
 *
 * <p>Bad input stops the load before anything is written, with the file, line and column named.
 *
 * <pre>{@code
 * RdfLoad.Result r = RdfLoad.into(rdf).progress(bar).load(Path.of("lubm-1.nt"));
 * // r.triples() distinct triples and r.newTerms() terms the store did not have
 * }</pre>
 */
public final class RdfLoad {
    /** What a load added, and the time parsing and writing took. */
    public record Result(long triples, long newTerms, long parseNanos, long writeNanos) {
        public double triplesPerSecond() {
            return triples / Math.max(1e-9, (parseNanos + writeNanos) / 1e9);
        }
    }

    /** Tails checked for length in one batch of GETs. */
    private static final int CHECK_BATCH = 4096;

    private final RdfStore rdf;
    private EdgeBulkLoad.Progress progress = EdgeBulkLoad.Progress.NONE;
    private int segmentEntries = TermSegments.DEFAULT_SEGMENT_ENTRIES;

    private RdfLoad(final RdfStore rdf) {
        this.rdf = rdf;
    }

    public static RdfLoad into(final RdfStore rdf) {
        return new RdfLoad(rdf);
    }

    public RdfLoad progress(final EdgeBulkLoad.Progress p) {
        this.progress = p;
        return this;
    }

    /**
     * Ids of a sealed segment: a list longer than this (an index vertex's, a big class's) is written, and appended to,
     * a segment at a time ({@link TermSegments}). Default {@value TermSegments#DEFAULT_SEGMENT_ENTRIES}.
     */
    public RdfLoad segmentEntries(final int ids) {
        this.segmentEntries = ids;
        return this;
    }

    /** The language of a file from its extension: N-Triples ({@code .nt}) or Turtle ({@code .ttl}); else an error. */
    public static Lang languageOf(final Path file) {
        final Lang lang = RDFLanguages.filenameToLang(file.getFileName().toString(), null);
        if (lang == null || !(lang.equals(Lang.NTRIPLES) || lang.equals(Lang.TURTLE))) {
            throw new IllegalArgumentException(file + ": not an N-Triples (.nt) or Turtle (.ttl) file"
                + (lang == null ? "" : " (" + lang.getLabel() + ")"));
        }
        return lang;
    }

    /** Loads a file, its language from its extension. */
    public Result load(final Path file) {
        return load(file, languageOf(file));
    }

    public Result load(final Path file, final Lang lang) {
        final long start = System.nanoTime();
        final TripleCollector triples = parse(file, lang, progress);
        return write(triples, System.nanoTime() - start);
    }

    /**
     * Parses a file into a collector without a store: what a caller that sizes the store from the file's real
     * triple and term counts runs first, then {@link #write}s.
     */
    public static TripleCollector parse(final Path file, final Lang lang, final EdgeBulkLoad.Progress progress) {
        final TripleCollector triples = new TripleCollector();
        try (InputStream in = new Counting(Files.newInputStream(file), Files.size(file), progress)) {
            RDFParser.create().source(in).lang(lang).base(file.toUri().toString())
                .errorHandler(new NamingErrors(file.toString())).parse(triples);
            triples.finish(); // RIOT's own call, made sure of: idempotent
        } catch (IOException e) {
            throw new UncheckedIOException(file + ": " + e.getMessage(), e);
        } catch (RiotException e) {
            throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
        }
        return triples;
    }

    /** Loads what a collector holds (a parse the caller ran). */
    public Result write(final TripleCollector triples, final long parseNanos) {
        final long start = System.nanoTime();
        final int termCount = triples.terms.size();
        final long[] ids = rdf.terms().ids(triples.terms.toArray(new String[0]), termCount);
        int fresh = 0;
        final boolean[] known = new boolean[termCount];
        for (int t = 0; t < termCount; t++) {
            known[t] = ids[t] >= 0;
            fresh += known[t] ? 0 : 1;
        }
        final long first = fresh == 0 ? 0 : EdgeBulkLoad.claimIds(rdf.store(), RdfKeys.termIds(), fresh);
        final long[] termKeys = new long[fresh];
        final byte[][] termValues = new byte[fresh][];
        final Long2ObjectHashMap<ByteArrayOutputStream> buckets = new Long2ObjectHashMap<>();
        for (int t = 0, next = 0; t < termCount; t++) {
            if (ids[t] >= 0) {
                continue;
            }
            ids[t] = first + next;
            final byte[] utf8 = triples.terms.get(t).getBytes(StandardCharsets.UTF_8);
            termKeys[next] = RdfKeys.term(ids[t]);
            termValues[next++] = utf8;
            buckets.computeIfAbsent(rdf.terms().bucketKey(utf8), k -> new ByteArrayOutputStream())
                .writeBytes(HashBucket.entry(utf8, ids[t]));
        }
        final int[] labels = new int[triples.predicates.size()];
        for (int p = 0; p < labels.length; p++) {
            labels[p] = rdf.internPredicate(triples.predicates.get(p));
        }
        final boolean[] stored = fresh == termCount ? null
            : StoredTriples.find(rdf.store(), triples, ids, known, labels);
        final HomeValues writer = new HomeValues(rdf.store(), progress);
        writer.write(termKeys, termValues, fresh);
        final long[] bucketKeys = new long[buckets.size()];
        final byte[][] bucketValues = new byte[buckets.size()][];
        final int[] b = {0};
        buckets.forEach((k, v) -> {
            bucketKeys[b[0]] = k;
            bucketValues[b[0]++] = v.toByteArray();
        });
        writer.write(bucketKeys, bucketValues, bucketKeys.length);
        final ValueGroups lists = new ValueGroups(4 * triples.size());
        for (int i = 0, n = triples.size(); i < n; i++) {
            if (stored != null && stored[i]) {
                continue; // an earlier load's: the graph is a set of triples
            }
            final long s = ids[triples.subjects[i]];
            final long o = ids[triples.objects[i]];
            final int p = labels[triples.predicateOf[i]];
            lists.add(RdfKeys.out(s, p), o);
            lists.add(RdfKeys.in(o, p), s);
            lists.add(RdfKeys.out(RdfKeys.INDEX, p), s);
            lists.add(RdfKeys.in(RdfKeys.INDEX, p), o);
        }
        lists.build();
        final long distinct = writeLists(lists, writer);
        return new Result(distinct, fresh, parseNanos, System.nanoTime() - start);
    }

    /**
     * Writes the load's lists: the short ones whole per home, those longer than a segment a segment at a time, then
     * the tails due a check segmented if they grew long. Returns the distinct triples (entries of OUT lists).
     */
    private long writeLists(final ValueGroups lists, final HomeValues writer) {
        final SegmentingWriter segmenting = new SegmentingWriter(rdf.store(), segmentEntries, progress);
        final long[] listKeys = new long[lists.size()];
        final byte[][] listValues = new byte[lists.size()][];
        final int[] supernodes = new int[lists.size()];
        final long[] dueKeys = new long[lists.size()];
        int plain = 0;
        int big = 0;
        int due = 0;
        long distinct = 0;
        for (int g = 0; g < lists.size(); g++) {
            final long key = lists.key(g);
            if (KeyLayout.kind(key) == RdfKeys.OUT && KeyLayout.vid(key) != RdfKeys.INDEX) {
                distinct += lists.count(g);
            }
            if (segmenting.segments(lists.count(g))) {
                supernodes[big++] = g;
                continue;
            }
            listKeys[plain] = key;
            listValues[plain++] = lists.value(g);
            if (segmenting.due(lists.count(g))) {
                dueKeys[due++] = key;
            }
        }
        writer.write(listKeys, listValues, plain);
        for (int n = 0; n < big; n++) {
            final int g = supernodes[n];
            segmenting.write(lists.key(g), lists.ids(), lists.from(g), lists.from(g) + lists.count(g));
        }
        for (int from = 0; from < due; from += CHECK_BATCH) {
            segmenting.sealLong(java.util.Arrays.copyOfRange(dueKeys, from, Math.min(due, from + CHECK_BATCH)));
        }
        return distinct;
    }

    /** RIOT's errors as exceptions naming the file, line and column; warnings pass. */
    private static final class NamingErrors implements ErrorHandler {
        private final String file;

        NamingErrors(final String file) {
            this.file = file;
        }

        @Override
        public void warning(final String message, final long line, final long col) {
        }

        @Override
        public void error(final String message, final long line, final long col) {
            fatal(message, line, col);
        }

        @Override
        public void fatal(final String message, final long line, final long col) {
            throw new IllegalArgumentException(file + " line " + line + (col > 0 ? ", column " + col : "") + ": "
                + message);
        }
    }

    /** The file's bytes as read, for the parse's progress bar. */
    private static final class Counting extends FilterInputStream {
        private final long total;
        private final EdgeBulkLoad.Progress progress;
        private long read;

        Counting(final InputStream in, final long total, final EdgeBulkLoad.Progress progress) {
            super(new java.io.BufferedInputStream(in, 1 << 16));
            this.total = total;
            this.progress = progress;
        }

        @Override
        public int read() throws IOException {
            final int c = super.read();
            if (c >= 0) {
                advance(1);
            }
            return c;
        }

        @Override
        public int read(final byte[] b, final int off, final int len) throws IOException {
            final int n = super.read(b, off, len);
            if (n > 0) {
                advance(n);
            }
            return n;
        }

        private void advance(final int n) {
            read += n;
            progress.update("parsing", read, total);
        }
    }
}
