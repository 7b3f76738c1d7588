package io.pragh.bench.traversal.deploy;

import io.pragh.address.Address;
import io.pragh.cache.LocationCache;
import io.pragh.embedded.EmbeddedCluster;
import io.pragh.fabric.FabricStats;
import io.pragh.keys.KeyRegion;
import io.pragh.store.AccessObserver;
import io.pragh.store.MachineStore;
import java.util.Locale;
import java.util.function.LongPredicate;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.collections.LongHashSet;

/**
 * Where a window's remote value reads come from, per key (a diagnostic of split-cache's policy, not a measurement
 * the report shows): every machine's delivered GETs are counted per key and reader, with the hosts the value was
 * read from, through an access observer chained in front of the one installed (the monitor). At the end the reads
 * above the window's own single-copy floor (each key at its most frequent reader) are split by what happened to
 * the key: never moved from its home, moved to its best reader during the window (admitted late), read from one
 * machine that is not its best reader (moved away from it, its home included), read from several non-home hosts
 * (moved more than once), or not among the loaded graph's two-hop reads at all (a neighbour an edge insert added).
 * Remote operations that are not value reads (bucket reads on cache misses, retries, writes) are counted apart,
 * and each location cache miss is told apart by why it missed, through the caches' diagnostics
 * ({@link LocationCache#observe}; see {@link MissCauses}). Up to 8 machines (the hosts seen are a byte mask).
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
    /** Per machine: why its cache's lookups missed in the window. */
    private final MissCauses[] causes;

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
        this.causes = new MissCauses[n];
        for (int m = 0; m < n; m++) {
            causes[m] = new MissCauses(cluster, m);
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
            store.cache().observe(c.causes[m]);
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
            cluster.machine(m).store().cache().observe(null);
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
        long[] why = new long[MissCauses.NAMES.length];
        long[] evictions = new long[4];
        for (MissCauses c : causes) {
            c.addTo(why, evictions, loaded);
        }
        long lookups = 0;
        for (int i = 1; i < why.length; i++) {
            lookups += why[i];
        }
        // The remote operations that are not value reads: the bucket reads of key lookups (one per miss of a key homed
        // elsewhere; an overflow chain is rare) and what is left of the window's remote reads, writes and atomics.
        long otherReads = window.remoteReads() - totals[1] - lookups;
        s.append(String.format(Locale.ROOT, "  remote operations that are not value reads: key lookups on a cache miss"
                + " %d (%.2f%%), other reads %d (%.2f%%: copies of migrations and replicas, retries, updates' lookups), writes %d"
                + " (%.2f%%), atomics %d (%.2f%%)%n", lookups, 100.0 * lookups / accesses, otherReads,
            100.0 * otherReads / accesses, window.remoteWrites(), 100.0 * window.remoteWrites() / accesses,
            window.remoteAtomics(), 100.0 * window.remoteAtomics() / accesses));
        s.append(String.format(Locale.ROOT, "  misses at the key's home (a probe for a replica held there, no remote"
            + " operation) %d (%.2f%%)%n", why[0], 100.0 * why[0] / accesses));
        for (int i = 1; i < why.length; i++) {
            s.append(String.format(Locale.ROOT, "  key lookups, %-70s %8d (%.3f%% of accesses)%n",
                MissCauses.NAMES[i] + ":", why[i], 100.0 * why[i] / accesses));
        }
        s.append(String.format(Locale.ROOT, "  entries evicted in the window for another key: live %d, lease run out %d,"
            + " address dropped %d; removed as a machine was lost %d%n", evictions[LocationCache.EVICTED_LIVE],
            evictions[LocationCache.EVICTED_EXPIRED], evictions[LocationCache.EVICTED_DROPPED], evictions[0]));
        for (int c = 0; c < names.length; c++) {
            s.append(String.format(Locale.ROOT, "  above the floor, %-31s %+9d reads (%+.2f%% of accesses), %d keys%n",
                names[c] + ":", excess[c], 100.0 * excess[c] / accesses, keysOf[c]));
        }
        return s.toString();
    }

    /**
     * One machine's location cache misses in the window, by why each missed: the cause the cache reports, what had
     * become of a key no way held (evicted, and in what state; removed as a machine was lost; or never cached in the
     * window), and whether an address whose lease ran out or was dropped named this machine (a read replica or a
     * value migrated here) or another. A miss of a key homed here is a GET's probe for a replica held at the home,
     * which costs no remote operation; every other miss is a remote key lookup (of a GET, an update or a migration).
     */
    static final class MissCauses implements LocationCache.Diagnostics {
        static final String[] NAMES = {
            "at home",
            "lease run out, address here, the home's word (a value migrated here)",
            "lease run out, address elsewhere",
            "lease run out, address here, not the home's word (a read replica)",
            "address dropped, it was here (replica or value moved away/rewritten)",
            "address dropped, it was elsewhere (found stale: moved or rewritten)",
            "not cached: evicted live (capacity or set conflict)",
            "not cached: evicted after its lease ran out or address dropped",
            "not cached: removed as a machine was lost",
            "not cached: a new neighbour (not among the loaded two-hop reads)",
            "not cached: first lookup of a loaded key in the window",
            "not cached: again in the window without an eviction",
        };
        private final EmbeddedCluster cluster;
        private final int self;
        /** Keys whose entry left in the window, to how (an EVICTED_ state, 0 removed), until their next miss. */
        private final Long2LongHashMap gone = new Long2LongHashMap(-1);
        /** Keys whose cached address was dropped in the window, to 1 when it named this machine, until their miss. */
        private final Long2LongHashMap dropped = new Long2LongHashMap(-1);
        /** Keys that missed uncached in the window. */
        private final LongHashSet seen = new LongHashSet();
        private final long[] counts = new long[NAMES.length];
        private final long[] evictions = new long[4];
        /** Not-cached misses by key (first in window or again), to reclassify new neighbours at the end. */
        private final Long2LongHashMap notCachedFirst = new Long2LongHashMap(0);
        private final Long2LongHashMap notCachedAgain = new Long2LongHashMap(0);

        MissCauses(EmbeddedCluster cluster, int self) {
            this.cluster = cluster;
            this.self = self;
        }

        @Override
        public void onMiss(long key, int cause, long address) {
            int home = cluster.home(key);
            // A diagnostic's peek at the home's word (in-process, no lock): a replica's address is not in it.
            boolean homesWord = false;
            if (home != self && cause == LocationCache.MISS_LEASE_RUN_OUT && Address.host(address, home) == self) {
                KeyRegion keys = cluster.machine(home).store().keys();
                long slot = keys.find(key);
                homesWord = slot >= 0 && keys.address(slot) == address;
            }
            count(key, cause, address, home, homesWord);
        }

        private synchronized void count(long key, int cause, long address, int home, boolean homesWord) {
            if (home == self) {
                counts[0]++;
                return;
            }
            if (cause == LocationCache.MISS_LEASE_RUN_OUT) {
                counts[Address.host(address, home) != self ? 2 : homesWord ? 1 : 3]++;
            } else if (cause == LocationCache.MISS_DROPPED) {
                long here = dropped.remove(key);
                counts[here == 1 ? 4 : 5]++;
            } else {
                long how = gone.remove(key);
                if (how == LocationCache.EVICTED_LIVE) {
                    counts[6]++;
                } else if (how > 0) {
                    counts[7]++;
                } else if (how == 0) {
                    counts[8]++;
                } else if (seen.add(key)) {
                    notCachedFirst.put(key, notCachedFirst.get(key) + 1);
                } else {
                    notCachedAgain.put(key, notCachedAgain.get(key) + 1);
                }
            }
        }

        @Override
        public synchronized void onEvict(long key, long evicted, int state) {
            gone.put(evicted, state);
            evictions[state]++;
        }

        @Override
        public synchronized void onDrop(long key, long address) {
            dropped.put(key, Address.host(address, cluster.home(key)) == self ? 1 : 0);
        }

        @Override
        public synchronized void onCleared(long key) {
            gone.put(key, 0);
            evictions[0]++;
        }

        /** Adds this machine's counts by cause (a new neighbour is a key {@code loaded} does not hold). */
        synchronized void addTo(long[] why, long[] evicted, LongPredicate loaded) {
            for (int i = 0; i < counts.length; i++) {
                why[i] += counts[i];
            }
            notCachedFirst.forEachLong((k, v) -> why[loaded.test(k) ? 10 : 9] += v);
            notCachedAgain.forEachLong((k, v) -> why[loaded.test(k) ? 11 : 9] += v);
            for (int i = 0; i < evictions.length; i++) {
                evicted[i] += evictions[i];
            }
        }
    }
}
