package io.pragh.bench.traversal.deploy;

import io.pragh.embedded.EmbeddedCluster;
import io.pragh.fabric.FabricStats;
import io.pragh.store.AccessObserver;
import io.pragh.store.MachineStore;
import java.util.Locale;
import java.util.function.LongPredicate;
import org.agrona.collections.Long2LongHashMap;

/**
 * Where a window's remote value reads come from, per key (a diagnostic of split-cache's policy, not a measurement
 * the report shows): every machine's delivered GETs are counted per key and reader, with the hosts the value was
 * read from, through an access observer chained in front of the one installed (the monitor). At the end the reads
 * above the window's own single-copy floor (each key at its most frequent reader) are split by what happened to
 * the key: never moved from its home, moved to its best reader during the window (admitted late), read from one
 * machine that is not its best reader (moved away from it, its home included), read from several non-home hosts
 * (moved more than once), or not among the loaded graph's two-hop reads at all (a neighbour an edge insert added).
 * Remote operations that are not value reads (bucket reads on cache misses, retries, writes) are counted apart.
 * Up to 8 machines (the hosts seen are a byte mask).
 *
 * <pre>{@code
 * ReadCensus c = ReadCensus.start(cluster);
 * ... the window ...
 * System.out.println(c.stop(loadedKeys::contains));
 * }</pre>
 */
public final class ReadCensus {
    private static final long MISSING = -1;
    private static final int MAX_MACHINES = 8;

    private final EmbeddedCluster cluster;
    /** Per reader: key to reads (high 32 bits) and remote reads (low 32). */
    private final Long2LongHashMap[] reads;
    /** Per reader: key to the mask of hosts the value was read from. */
    private final Long2LongHashMap[] hosts;
    private final AccessObserver[] chained;
    private final FabricStats.Snapshot statsAtStart;
    /** Location cache misses over every machine when the census started: all, lease run out, address dropped. */
    private final long[] missesAtStart;

    private ReadCensus(EmbeddedCluster cluster) {
        int n = cluster.machineCount();
        if (n > MAX_MACHINES) {
            throw new IllegalArgumentException("the read census takes up to " + MAX_MACHINES + " machines, not " + n);
        }
        this.cluster = cluster;
        this.reads = new Long2LongHashMap[n];
        this.hosts = new Long2LongHashMap[n];
        this.chained = new AccessObserver[n];
        for (int m = 0; m < n; m++) {
            reads[m] = new Long2LongHashMap(MISSING);
            hosts[m] = new Long2LongHashMap(MISSING);
        }
        this.statsAtStart = cluster.stats();
        this.missesAtStart = misses(cluster);
    }

    private static long[] misses(EmbeddedCluster cluster) {
        long[] m = new long[4];
        for (int i = 0; i < cluster.machineCount(); i++) {
            var cache = cluster.machine(i).store().cache();
            m[0] += cache.misses();
            m[1] += cache.expiredMisses();
            m[2] += cache.droppedMisses();
            m[3] += cache.absentLookups();
        }
        return m;
    }

    /** Starts counting every machine's delivered GETs, in front of the observers installed now. */
    public static ReadCensus start(EmbeddedCluster cluster) {
        ReadCensus c = new ReadCensus(cluster);
        for (int m = 0; m < c.reads.length; m++) {
            MachineStore store = cluster.machine(m).store();
            AccessObserver next = store.accessObserver();
            c.chained[m] = next;
            int reader = m;
            store.setAccessObserver((key, home, host) -> {
                c.record(reader, key, host);
                if (next != null) {
                    next.onAccess(key, home, host);
                }
            });
        }
        return c;
    }

    private void record(int reader, long key, int host) {
        Long2LongHashMap r = reads[reader];
        // Two query threads may read through one machine: the lock is the diagnostic's cost, paid only when asked.
        synchronized (r) {
            long v = r.get(key);
            v = v == MISSING ? 0 : v;
            r.put(key, v + (1L << 32) + (host != reader ? 1 : 0));
            long h = hosts[reader].get(key);
            hosts[reader].put(key, (h == MISSING ? 0 : h) | (1L << host));
        }
    }

    /**
     * Puts the chained observers back and returns the breakdown; {@code loaded} says whether a key is among the
     * loaded graph's two-hop reads (its single-copy floor's keys).
     */
    public String stop(LongPredicate loaded) {
        FabricStats.Snapshot window = cluster.stats().minus(statsAtStart);
        long[] missed = misses(cluster);
        int n = reads.length;
        for (int m = 0; m < n; m++) {
            cluster.machine(m).store().setAccessObserver(chained[m]);
        }
        Long2LongHashMap keys = new Long2LongHashMap(MISSING);
        for (Long2LongHashMap r : reads) {
            synchronized (r) {
                r.forEachLong((k, v) -> keys.put(k, 0));
            }
        }
        String[] names = {"never moved", "moved to best reader in window", "away from best reader", "moved twice+",
            "new neighbour (insert)"};
        long[] excess = new long[names.length];
        long[] keysOf = new long[names.length];
        long[] totals = new long[3]; // reads, remote reads, floor remote reads
        long[] perReader = new long[n];
        long[] remoteOf = new long[n];
        keys.forEachLong((key, unused) -> {
            long all = 0;
            long remote = 0;
            long mask = 0;
            int best = 0;
            for (int m = 0; m < n; m++) {
                long v;
                long h;
                synchronized (reads[m]) {
                    v = reads[m].get(key);
                    h = hosts[m].get(key);
                }
                perReader[m] = v == MISSING ? 0 : v >>> 32;
                remoteOf[m] = v == MISSING ? 0 : v & 0xFFFF_FFFFL;
                mask |= h == MISSING ? 0 : h;
                all += perReader[m];
                remote += remoteOf[m];
                if (perReader[m] > perReader[best]) {
                    best = m;
                }
            }
            long floor = all - perReader[best];
            totals[0] += all;
            totals[1] += remote;
            totals[2] += floor;
            long over = remote - floor;
            if (over == 0) {
                return;
            }
            int home = cluster.home(key);
            int cls;
            long away = mask & ~(1L << home);
            if (!loaded.test(key)) {
                cls = 4;
            } else if (mask == (1L << home)) {
                cls = 0;
            } else if (Long.bitCount(away) > 1) {
                cls = 3;
            } else if ((mask & (1L << home)) != 0 && away == (1L << best)) {
                cls = 1;
            } else {
                cls = 2;
            }
            excess[cls] += over;
            keysOf[cls]++;
        });
        long accesses = window.localOps() + window.remoteOps();
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT,
            "read census: %d accesses, %.2f%% remote; value reads %d, remote %d (%.2f%% of accesses); their window"
                + " floor %d (%.2f%%); remote operations that are not value reads %d (%.2f%%)%n", accesses,
            100.0 * window.remoteOps() / accesses, totals[0], totals[1], 100.0 * totals[1] / accesses, totals[2],
            100.0 * totals[2] / accesses, window.remoteOps() - totals[1],
            100.0 * (window.remoteOps() - totals[1]) / accesses));
        long all = missed[0] - missesAtStart[0];
        long expired = missed[1] - missesAtStart[1];
        long dropped = missed[2] - missesAtStart[2];
        long absent = missed[3] - missesAtStart[3];
        // Each miss of a key homed elsewhere is a remote key lookup: the part of "not value reads" the cache decides.
        s.append(String.format(Locale.ROOT, "  location cache misses %d (%.2f%% of accesses): lease run out %d (%.2f%%),"
                + " address dropped as stale %d (%.2f%%), not cached %d (%.2f%%)%n", all, 100.0 * all / accesses,
            expired, 100.0 * expired / accesses, dropped, 100.0 * dropped / accesses, all - expired - dropped,
            100.0 * (all - expired - dropped) / accesses));
        // Of the misses not cached, those whose bucket read found no value: a GET of a vertex without an adjacency list.
        s.append(String.format(Locale.ROOT, "  of the remote key lookups, the key had no value %d (%.2f%% of accesses)%n",
            absent, 100.0 * absent / accesses));
        for (int c = 0; c < names.length; c++) {
            s.append(String.format(Locale.ROOT, "  above the floor, %-31s %+9d reads (%+.2f%% of accesses), %d keys%n",
                names[c] + ":", excess[c], 100.0 * excess[c] / accesses, keysOf[c]));
        }
        return s.toString();
    }
}
