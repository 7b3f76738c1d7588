package io.pragh.bench.traversal;

import io.pragh.bench.workload.AdjacencyGraph;
import io.pragh.bench.workload.StartVertexDistribution;
import io.pragh.bench.traversal.deploy.BenchCluster;
import io.pragh.bench.traversal.deploy.QueryPath;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Recorder;

/**
 * A closed-loop client: draws a start vertex, then runs a two-hop GET on the start vertex's home machine (every
 * access is that machine's, seen by its monitor) or inserts an edge from it at its home, through its own
 * {@link QueryPath}; records the latency and counts. Runs until stopped.
 *
 * <pre>{@code
 * QueryThread q = new QueryThread(index, generation, workload, cluster);
 * new Thread(q).start();
 * }</pre>
 */
final class QueryThread implements Runnable {
    /**
     * What every query thread of one mode shares. An inserted edge's far end is drawn from {@code edgeEnds}, the
     * vertices that exist (have edges): an edge to a vertex without an adjacency key would make every later two-hop
     * through it look up a key that is not there, a remote bucket read no cache can answer and no migration can
     * localise.
     */
    record Workload(StartVertices startVertices, AdjacencyGraph graph, int[] edgeEnds, StartVertexDistribution dist,
                    double getRatio,
                    int fanout, boolean batchedGets, long seed, Recorder latencies, Recorder putLatencies,
                    LongAdder queries, LongAdder puts) {
    }

    private final Workload w;
    /** The label of every edge of the benchmark's graph. */
    static final int LABEL = 0;
    static final int HOPS = 2;

    private final BenchCluster cluster;
    private final SplittableRandom rng;
    private volatile boolean running = true;
    private volatile Throwable failure;

    /**
     * @param index      thread index; with the generation and the seed it fixes the thread's random stream
     * @param generation how many times the clients were restarted (the shard baseline pauses them to move shards)
     */
    QueryThread(int index, int generation, Workload w, BenchCluster cluster) {
        this.w = w;
        this.cluster = cluster;
        this.rng = new SplittableRandom(w.seed() * 1_000_003L + generation * 1_009L + index);
    }

    void stop() {
        running = false;
    }

    Throwable failure() {
        return failure;
    }

    @Override
    public void run() {
        try (QueryPath path = cluster.openPath()) {
            while (running) {
                long start = w.startVertices().at(w.dist().next(rng));
                boolean get = rng.nextDouble() < w.getRatio();
                long t0 = System.nanoTime();
                if (get) {
                    path.kHop(start, LABEL, HOPS, w.fanout(), w.batchedGets());
                } else {
                    insertEdge(path, (int) start, w.edgeEnds()[rng.nextInt(w.edgeEnds().length)]);
                }
                long latency = System.nanoTime() - t0;
                w.latencies().recordValue(latency);
                if (!get) {
                    w.putLatencies().recordValue(latency);
                }
                w.queries().increment();
            }
        } catch (Throwable t) {
            failure = t;
        }
    }

    /** An edge PUT at the start vertex's home: see {@link io.pragh.bench.extension.CappedAppend} for why its list is capped. */
    private void insertEdge(QueryPath path, int src, long dst) {
        int cap = Math.max(w.graph().degree(src), w.fanout()) + 1;
        path.insertEdge(src, LABEL, dst, cap);
        w.puts().increment();
    }
}
