package io.pragh.analytics;

import io.pragh.PraghException;
import io.pragh.embedded.EmbeddedCluster;
import io.pragh.embedded.Machine;
import io.pragh.keys.KeyLayout;
import io.pragh.keys.Placement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.collections.LongArrayList;

/**
 * BFS and PageRank over a whole embedded cluster's graph (the out-lists of one label): every compute machine scans
 * the lists it homes on one of its workers ({@link AdjacencyScan}), so far values are read as the options say and
 * local ones in place; the caller's thread merges what the machines found between steps.
 *
 * <pre>{@code
 * GraphAnalytics a = new GraphAnalytics(cluster, ScanOptions.defaults());
 * Long2LongHashMap levels = a.bfs(1, 0);              // vertex -> hops from vertex 1
 * PageRank.Result ranks = a.pageRank(0, 10, 0.85);   // vertex -> rank after 10 iterations
 * }</pre>
 */
public final class GraphAnalytics {
    private final EmbeddedCluster cluster;
    private final ScanOptions options;
    /** One scan per compute machine, used only on that machine's worker, one step at a time. */
    private final AdjacencyScan[] scans;

    public GraphAnalytics(EmbeddedCluster cluster, ScanOptions options) {
        this.cluster = cluster;
        this.options = options;
        this.scans = new AdjacencyScan[cluster.computeMachineCount()];
    }

    public ScanOptions options() {
        return options;
    }

    /** Far READs every scan issued so far. */
    public long farReads() {
        long sum = 0;
        for (AdjacencyScan s : scans) {
            sum += s == null ? 0 : s.farReads();
        }
        return sum;
    }

    /** Bytes the far READs of every scan copied so far ({@link AdjacencyScan#farBytes}). */
    public long farBytes() {
        long sum = 0;
        for (AdjacencyScan s : scans) {
            sum += s == null ? 0 : s.farBytes();
        }
        return sum;
    }

    /**
     * Level-synchronous BFS from {@code source} along {@code label}: every level, each compute machine reads the
     * out-lists of the frontier's vertices it homes. Returns every vertex reached with its distance in hops.
     */
    public Long2LongHashMap bfs(long source, int label) {
        Long2LongHashMap level = new Long2LongHashMap(-1);
        // What the machines test once per edge: a bitmap over dense ids (VertexSet), not the map.
        VertexSet seen = new VertexSet();
        level.put(source, 0);
        seen.add(source);
        // The frontier, split by home: each machine looks up its own vertices' keys, not its whole key region.
        Placement placement = cluster.machine(0).store().placement();
        LongArrayList[] frontier = new LongArrayList[scans.length];
        for (int m = 0; m < scans.length; m++) {
            frontier[m] = new LongArrayList();
        }
        frontier[home(placement, source, label)].addLong(source);
        for (long depth = 1; size(frontier) > 0; depth++) {
            LongArrayList[] current = frontier;
            // seen and current are only read while the machines scan, and written here between levels.
            List<LongArrayList> found = onEveryComputeMachine(scan -> {
                LongArrayList next = new LongArrayList();
                VertexSet proposed = new VertexSet(); // each new vertex sent once per machine, not once per edge
                LongArrayList mine = current[scan.machineId()];
                scan.scan(label, mine.toLongArray(), mine.size(), (vid, buf, off, len) -> {
                    for (int i = 0; i + 8 <= len; i += 8) {
                        long n = buf.getLong(off + i);
                        if (!seen.contains(n) && proposed.add(n)) {
                            next.addLong(n);
                        }
                    }
                });
                return next;
            });
            frontier = new LongArrayList[scans.length];
            for (int m = 0; m < scans.length; m++) {
                frontier[m] = new LongArrayList();
            }
            for (LongArrayList next : found) {
                for (int i = 0; i < next.size(); i++) {
                    long n = next.getLong(i);
                    if (seen.add(n)) {
                        level.put(n, depth);
                        frontier[home(placement, n, label)].addLong(n);
                    }
                }
            }
        }
        return level;
    }

    private int home(Placement placement, long vid, int label) {
        int home = placement.home(KeyLayout.key(vid, label, KeyLayout.OUT));
        if (home < 0 || home >= scans.length) {
            throw new PraghException("vertex " + vid + " is homed at machine " + home + ", not a compute machine 0.."
                + (scans.length - 1));
        }
        return home;
    }

    private static int size(LongArrayList[] lists) {
        int n = 0;
        for (LongArrayList l : lists) {
            n += l.size();
        }
        return n;
    }

    /**
     * PageRank along {@code label} over every vertex with an out-list or named in one, {@code iterations} rounds of
     * {@code r' = (1 - d) / N + d * (sum over in-neighbours u of r(u) / outdegree(u) + dangling mass / N)}, from
     * {@code 1 / N}.
     */
    public PageRank.Result pageRank(int label, int iterations, double damping) {
        return new PageRank(this, label).run(iterations, damping);
    }

    /** Runs {@code step} with each compute machine's scan on that machine's worker and returns what each gave. */
    <T> List<T> onEveryComputeMachine(Function<AdjacencyScan, T> step) {
        List<CompletableFuture<T>> futures = new ArrayList<>();
        for (int m = 0; m < scans.length; m++) {
            int id = m;
            Machine machine = cluster.machine(m);
            futures.add(machine.submit(() -> {
                if (scans[id] == null) {
                    scans[id] = new AdjacencyScan(machine.store(), options);
                }
                return step.apply(scans[id]);
            }));
        }
        List<T> out = new ArrayList<>();
        for (CompletableFuture<T> f : futures) {
            try {
                out.add(f.get());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new PraghException("analytics step was interrupted");
            } catch (ExecutionException e) {
                throw new PraghException("analytics step failed on a machine: " + e.getCause(), e.getCause());
            }
        }
        return out;
    }
}
