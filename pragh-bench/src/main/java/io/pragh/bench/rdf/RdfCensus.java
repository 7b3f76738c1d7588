package io.pragh.bench.rdf;

import io.pragh.bench.shard.ShardPlacement;
import io.pragh.embedded.EmbeddedCluster;
import io.pragh.gremlin.storage.GraphKeys;
import io.pragh.keys.KeyLayout;
import io.pragh.rdf.store.RdfKeys;
import io.pragh.store.AccessObserver;
import io.pragh.store.MachineStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntSupplier;

/**
 * Where the RDF benchmark's reads go, per query class and per kind of key (a diagnostic, {@code
 * -Dpragh.bench.census=true}, in-process clusters only): every machine's delivered GETs are counted through an
 * access observer chained in front of the installed one (the monitor), labelled with the class of the query the
 * reading worker runs ({@link #label}), split into the dictionary's buckets (form to id), terms (id to form, the
 * results), the index vertex's lists, the type lists {@code (T, rdf:type, IN)}, the start vertex's own lists, its
 * neighbours' lists and supernode segments. For each: accesses, reads of a key homed on another machine (a remote
 * bucket read unless the location cache knew its address) and reads of a value held on another machine (a remote
 * value read). Also the queries each machine ran, the remote keys read most, and with the shard placement how many
 * shards each machine owns.
 *
 * <pre>{@code
 * RdfCensus c = RdfCensus.start(cluster, typePredicate);
 * ... the measurement ...
 * System.out.print(c.stop());
 * }</pre>
 */
final class RdfCensus {
    static final String[] KINDS = {"dictionary bucket", "term form", "index vertex", "type list (T type IN)",
        "start vertex's lists", "neighbours' lists", "supernode segment", "other"};
    /** Label of reads by no query of the mix (a nested call on another home, the pool's set-up). */
    private static final int UNLABELLED = LubmMix.CLASSES.size();
    private static final int CLASSES = UNLABELLED + 1;
    private static final int COUNTERS = 3; // accesses, key homed elsewhere, value read elsewhere
    /** The census running now, else null: read by the query path only when the diagnostic is on. */
    private static volatile RdfCensus active;
    /** On each worker, the class and start term of the query it runs ({@code class << 48 | term}), -1 between. */
    private static final ThreadLocal<long[]> RUNNING = ThreadLocal.withInitial(() -> new long[] {-1});

    private final EmbeddedCluster cluster;
    private final int typePredicate;
    private final AccessObserver[] chained;
    /** [class][kind][counter], flattened. */
    private final AtomicLongArray counts = new AtomicLongArray(CLASSES * KINDS.length * COUNTERS);
    /** [class][machine]: queries run on each machine. */
    private final AtomicLongArray queries;
    private final Map<Long, LongAdder> remoteKeys = new ConcurrentHashMap<>();
    /** Every machine's location cache counters at the start: hits, misses, expired misses, dropped misses. */
    private final long[] cacheAtStart = new long[4];

    private RdfCensus(final EmbeddedCluster cluster, final int typePredicate) {
        this.cluster = cluster;
        this.typePredicate = typePredicate;
        this.chained = new AccessObserver[cluster.machineCount()];
        this.queries = new AtomicLongArray(CLASSES * cluster.machineCount());
    }

    /** Whether the diagnostic is asked for. */
    static boolean asked() {
        return Boolean.getBoolean("pragh.bench.census");
    }

    /** Starts counting every machine's delivered GETs, in front of the observers installed now. */
    static RdfCensus start(final EmbeddedCluster cluster, final int typePredicate) {
        final RdfCensus c = new RdfCensus(cluster, typePredicate);
        for (int m = 0; m < c.chained.length; m++) {
            final MachineStore store = cluster.machine(m).store();
            final AccessObserver next = store.accessObserver();
            c.chained[m] = next;
            final int reader = m;
            store.setAccessObserver((key, home, host) -> {
                c.record(reader, key, home, host);
                if (next != null) {
                    next.onAccess(key, home, host);
                }
            });
        }
        c.cacheCounters(c.cacheAtStart);
        active = c;
        return c;
    }

    /**
     * Runs {@code query} labelled with class {@code c} and the start vertex {@code homeKey} names, on this thread (a
     * worker of that key's home); counts the query on its home while a census runs.
     */
    static int label(final int c, final long homeKey, final IntSupplier query) {
        final RdfCensus census = active;
        if (census == null) {
            return query.getAsInt();
        }
        final long term = KeyLayout.vid(homeKey);
        census.queries.incrementAndGet(c * census.chained.length + census.cluster.home(homeKey));
        final long[] running = RUNNING.get();
        final long before = running[0];
        running[0] = (long) c << 48 | term;
        try {
            return query.getAsInt();
        } finally {
            running[0] = before;
        }
    }

    private void record(final int reader, final long key, final int home, final int host) {
        final long running = RUNNING.get()[0];
        final int c = running < 0 ? UNLABELLED : (int) (running >>> 48);
        final long start = running < 0 ? -1 : running & ((1L << 48) - 1);
        final int kind = kind(key, start);
        final int at = (c * KINDS.length + kind) * COUNTERS;
        counts.incrementAndGet(at);
        if (home != reader) {
            counts.incrementAndGet(at + 1);
        }
        if (host != reader) {
            counts.incrementAndGet(at + 2);
        }
        if (home != reader || host != reader) {
            remoteKeys.computeIfAbsent(key, k -> new LongAdder()).increment();
        }
    }

    private int kind(final long key, final long start) {
        final int k = KeyLayout.kind(key);
        final long vid = KeyLayout.vid(key);
        if (k == RdfKeys.TERM_HASH) {
            return 0;
        }
        if (k == RdfKeys.TERM) {
            return 1;
        }
        if (k == RdfKeys.OUT || k == RdfKeys.IN) {
            if (vid == RdfKeys.INDEX) {
                return 2;
            }
            if (k == RdfKeys.IN && KeyLayout.label(key) == typePredicate) {
                return 3;
            }
            return vid == start ? 4 : 5;
        }
        return k == GraphKeys.SEGMENT ? 6 : 7;
    }

    /** Puts the chained observers back and returns the breakdown. */
    String stop() {
        active = null;
        for (int m = 0; m < chained.length; m++) {
            cluster.machine(m).store().setAccessObserver(chained[m]);
        }
        final int machines = chained.length;
        final long[] cacheNow = new long[4];
        cacheCounters(cacheNow);
        for (int i = 0; i < cacheNow.length; i++) {
            cacheNow[i] -= cacheAtStart[i];
        }
        long all = 0;
        final long[] byKind = new long[KINDS.length * COUNTERS];
        for (int c = 0; c < CLASSES; c++) {
            for (int k = 0; k < KINDS.length; k++) {
                for (int x = 0; x < COUNTERS; x++) {
                    byKind[k * COUNTERS + x] += counts.get((c * KINDS.length + k) * COUNTERS + x);
                }
            }
        }
        for (int k = 0; k < KINDS.length; k++) {
            all += byKind[k * COUNTERS];
        }
        final StringBuilder s = new StringBuilder(String.format(Locale.ROOT,
            "rdf census: %d value reads delivered; per class and kind of key: reads (%% of all), key homed elsewhere,"
                + " value read elsewhere%n", all));
        for (int c = 0; c < CLASSES; c++) {
            final String name = c == UNLABELLED ? "unlabelled" : LubmMix.CLASSES.get(c).name();
            long q = 0;
            final StringBuilder perMachine = new StringBuilder();
            for (int m = 0; m < machines; m++) {
                q += queries.get(c * machines + m);
                perMachine.append(m == 0 ? "" : " ").append(queries.get(c * machines + m));
            }
            long reads = 0;
            long homeAway = 0;
            long valueAway = 0;
            for (int k = 0; k < KINDS.length; k++) {
                final int at = (c * KINDS.length + k) * COUNTERS;
                reads += counts.get(at);
                homeAway += counts.get(at + 1);
                valueAway += counts.get(at + 2);
            }
            if (reads == 0) {
                continue;
            }
            s.append(String.format(Locale.ROOT, "  %-10s %d queries (per machine: %s), %.1f reads a query; %d reads"
                    + " (%.1f%%): key elsewhere %.1f%%, value elsewhere %.1f%%%n", name, q, perMachine,
                q == 0 ? 0.0 : (double) reads / q, reads, pct(reads, all), pct(homeAway, reads),
                pct(valueAway, reads)));
            for (int k = 0; k < KINDS.length; k++) {
                final int at = (c * KINDS.length + k) * COUNTERS;
                if (counts.get(at) > 0) {
                    s.append(String.format(Locale.ROOT, "    %-24s %9d (%5.1f%% of all): key elsewhere %5.1f%%,"
                            + " value elsewhere %5.1f%%%n", KINDS[k], counts.get(at), pct(counts.get(at), all),
                        pct(counts.get(at + 1), counts.get(at)), pct(counts.get(at + 2), counts.get(at))));
                }
            }
        }
        final long lookups = cacheNow[0] + cacheNow[1];
        if (cluster.machine(0).store().cache().enabled()) {
            s.append(String.format(Locale.ROOT, "  location cache lookups %d: hits %.1f%%, misses %.1f%% (found none %.1f%%,"
                + " lease run out %.1f%%, dropped as stale %.1f%%)%n", lookups, pct(cacheNow[0], lookups),
            pct(cacheNow[1], lookups), pct(cacheNow[1] - cacheNow[2] - cacheNow[3], lookups), pct(cacheNow[2], lookups),
            pct(cacheNow[3], lookups)));
        }
        s.append("  all classes, by kind of key:\n");
        for (int k = 0; k < KINDS.length; k++) {
            if (byKind[k * COUNTERS] > 0) {
                s.append(String.format(Locale.ROOT, "    %-24s %9d (%5.1f%% of all): key elsewhere %5.1f%% (%5.1f%% of"
                        + " all), value elsewhere %5.1f%% (%5.1f%% of all)%n", KINDS[k], byKind[k * COUNTERS],
                    pct(byKind[k * COUNTERS], all), pct(byKind[k * COUNTERS + 1], byKind[k * COUNTERS]),
                    pct(byKind[k * COUNTERS + 1], all), pct(byKind[k * COUNTERS + 2], byKind[k * COUNTERS]),
                    pct(byKind[k * COUNTERS + 2], all)));
            }
        }
        final List<Map.Entry<Long, LongAdder>> top = new ArrayList<>(remoteKeys.entrySet());
        top.sort((a, b) -> Long.compare(b.getValue().sum(), a.getValue().sum()));
        long remoteReads = 0;
        for (final Map.Entry<Long, LongAdder> e : top) {
            remoteReads += e.getValue().sum();
        }
        s.append(String.format(Locale.ROOT, "  %d keys read from elsewhere (%d reads); the 20 read most:%n",
            top.size(), remoteReads));
        long cumulative = 0;
        for (int i = 0; i < top.size(); i++) {
            cumulative += top.get(i).getValue().sum();
            if (i < 20) {
                final long key = top.get(i).getKey();
                s.append(String.format(Locale.ROOT, "    kind %-22s vid %-10d label %-4d home %d: %d reads%n",
                    KINDS[kind(key, -1)], KeyLayout.vid(key), KeyLayout.label(key), cluster.home(key),
                    top.get(i).getValue().sum()));
            }
            if (i == 99 || i == 999 || i == 9_999) {
                s.append(String.format(Locale.ROOT, "    the %d read most: %.1f%% of those reads%n", i + 1,
                    pct(cumulative, remoteReads)));
            }
        }
        if (cluster.placement() instanceof ShardPlacement p) {
            final int[] owned = new int[machines];
            for (int sh = 0; sh < p.shards(); sh++) {
                owned[p.owner(sh)]++;
            }
            s.append("  shards owned per machine: ").append(java.util.Arrays.toString(owned)).append('\n');
        }
        return s.toString();
    }

    private void cacheCounters(final long[] into) {
        java.util.Arrays.fill(into, 0);
        for (int m = 0; m < chained.length; m++) {
            final io.pragh.cache.LocationCache cache = cluster.machine(m).store().cache();
            into[0] += cache.hits();
            into[1] += cache.misses();
            into[2] += cache.expiredMisses();
            into[3] += cache.droppedMisses();
        }
    }

    private static double pct(final long part, final long whole) {
        return whole == 0 ? 0.0 : 100.0 * part / whole;
    }
}
