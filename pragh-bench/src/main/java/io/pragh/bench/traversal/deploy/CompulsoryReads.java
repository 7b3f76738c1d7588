package io.pragh.bench.traversal.deploy;

import io.pragh.embedded.EmbeddedCluster;
import io.pragh.fabric.FabricStats;
import io.pragh.store.AccessObserver;
import io.pragh.store.MachineStore;
import java.util.Locale;
import org.agrona.collections.Long2ObjectHashMap;

/**
 * The compulsory remote reads of a window (a diagnostic, beside {@link ReadCensus}): reads no placement policy that
 * moves or copies a value only after a machine read it can make local, whatever it does, so their share of all
 * accesses is a floor under any such policy, read replicas included (issue 14's "below 1.0%" is measured against it).
 * Counted from the run's first query (the warm-up included, so that a window read of a value read before is not
 * taken for a first read), in the window only:
 * <ul>
 *   <li><b>first reads</b>: a machine other than the key's home reads a value it never read before (where the value
 *       is then cannot be this machine: nothing brings a value or a copy to a machine before it read it);</li>
 *   <li><b>reads after a write</b>: a machine reads a value rewritten (an edge insert) since its last read of it.
 *       A write leaves one fresh copy, at the value's host; replicas elsewhere are invalidated before it is
 *       acknowledged. So of the machines that read the value in one write epoch, at most one (the host) may read it
 *       locally: each epoch exempts one of them (its first reader that may be the host: the home or an earlier
 *       reader), which can only undercount.</li>
 * </ul>
 * Only value reads are counted (a first read also needs a remote key lookup, which a perfect location cache would
 * not); writes count when their update returned, so a read racing a write counts as before it (undercounting again).
 * Up to 8 machines. Install it before the query threads start, and again after anything else installed an access
 * observer (the migration control replaces the machines' observers when it starts): {@link #chainInFront}.
 *
 * <pre>{@code
 * CompulsoryReads c = CompulsoryReads.install(benchCluster);  // before any query; its writes are told too
 * ... warm-up, intervals (c.chainInFront() after the monitors were installed) ...
 * c.openWindow(); ... the window ...; System.out.println(c.closeWindow());
 * }</pre>
 */
public final class CompulsoryReads {
    private static final int MAX_MACHINES = 8;
    /** Per-key state: [EPOCH] writes so far, [EXEMPT] the epoch + 1 whose exemption was used, then per machine. */
    private static final int EPOCH = 0;
    private static final int EXEMPT = 1;
    /** Per machine: the epoch + 1 of its last read of the key, 0 when it never read it. */
    private static final int SEEN = 2;

    private final EmbeddedCluster cluster;
    private final Long2ObjectHashMap<long[]> keys = new Long2ObjectHashMap<>();
    private final AccessObserver[] installed;
    private boolean window;
    private long reads;
    private long firstReads;
    private long afterWrite;
    private long writes;
    private FabricStats.Snapshot statsAtOpen;

    private CompulsoryReads(EmbeddedCluster cluster) {
        this.cluster = cluster;
        if (cluster.machineCount() > MAX_MACHINES) {
            throw new IllegalArgumentException("compulsory reads are counted on up to " + MAX_MACHINES
                + " machines, not " + cluster.machineCount());
        }
        this.installed = new AccessObserver[cluster.machineCount()];
    }

    /** Starts counting every machine's delivered GETs; the writes are the caller's to tell ({@link #wrote}). */
    public static CompulsoryReads install(EmbeddedCluster cluster) {
        CompulsoryReads c = new CompulsoryReads(cluster);
        c.chainInFront();
        return c;
    }

    /**
     * Starts counting the bench cluster's GETs and the writes of its query paths
     * ({@link EmbeddedBenchCluster#setWriteObserver}).
     */
    public static CompulsoryReads install(EmbeddedBenchCluster bench) {
        CompulsoryReads c = install(bench.cluster());
        bench.setWriteObserver(c::wrote);
        return c;
    }

    /** Puts this count in front of whatever access observer each machine has now (a no-op where it is in front). */
    public void chainInFront() {
        for (int m = 0; m < installed.length; m++) {
            MachineStore store = cluster.machine(m).store();
            AccessObserver next = store.accessObserver();
            if (next != null && next == installed[m]) {
                continue;
            }
            int reader = m;
            AccessObserver mine = (key, home, host) -> {
                onRead(reader, key, home);
                if (next != null) {
                    next.onAccess(key, home, host);
                }
            };
            installed[m] = mine;
            store.setAccessObserver(mine);
        }
    }

    /** Counts from now on, into the window's figures. */
    public synchronized void openWindow() {
        statsAtOpen = cluster.stats();
        window = true;
    }

    /**
     * Stops counting into the window and describes it; the machines keep their observers, and a bench cluster its
     * write hook (both go with the cluster).
     */
    public String closeWindow() {
        FabricStats.Snapshot w;
        long r;
        long first;
        long after;
        long wr;
        int tracked;
        synchronized (this) {
            window = false;
            w = cluster.stats().minus(statsAtOpen);
            r = reads;
            first = firstReads;
            after = afterWrite;
            wr = writes;
            tracked = keys.size();
        }
        long accesses = w.localOps() + w.remoteOps();
        return String.format(Locale.ROOT, "compulsory reads: %d accesses (%.2f%% remote), %d value reads, %d edge"
                + " inserts; compulsory remote value reads %d (%.2f%% of accesses): first reads of a value by a"
                + " machine that never read it %d (%.2f%%), reads of a value rewritten since the machine's last read"
                + " %d (%.2f%%); %d keys followed since the first query%n", accesses,
            100.0 * w.remoteOps() / accesses, r, wr, first + after, 100.0 * (first + after) / accesses, first,
            100.0 * first / accesses, after, 100.0 * after / accesses, tracked);
    }

    private synchronized void onRead(int reader, long key, int home) {
        long[] s = keys.get(key);
        if (s == null) {
            s = new long[SEEN + installed.length];
            keys.put(key, s);
        }
        if (window) {
            reads++;
        }
        long epoch = s[EPOCH];
        long seen = s[SEEN + reader];
        if (seen == epoch + 1) {
            return; // read since the last write: wherever it is, a policy could have kept it here
        }
        s[SEEN + reader] = epoch + 1;
        boolean compulsory;
        boolean first = seen == 0;
        if (epoch == 0) {
            compulsory = reader != home; // the loaded value is at its home
        } else if (first && reader != home) {
            compulsory = true; // the fresh copy is at the host: its home or a machine that read the value before
        } else if (s[EXEMPT] != epoch + 1) {
            s[EXEMPT] = epoch + 1; // perhaps the host: the one reader of this epoch that may read it locally
            compulsory = false;
        } else {
            compulsory = true;
        }
        if (compulsory && window) {
            if (first) {
                firstReads++;
            } else {
                afterWrite++;
            }
        }
    }

    /** {@code key}'s value was rewritten, the write returned: every copy but its host's is stale from now on. */
    public synchronized void wrote(long key) {
        long[] s = keys.get(key);
        if (s == null) {
            s = new long[SEEN + installed.length];
            keys.put(key, s);
        }
        s[EPOCH]++;
        if (window) {
            writes++;
        }
    }
}
