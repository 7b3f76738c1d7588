package io.pragh.bench.traversal;

import io.pragh.bench.workload.AdjacencyGraph;
import io.pragh.bench.workload.StartVertexDistribution;
import io.pragh.cluster.EmbeddedCluster;
import io.pragh.cluster.Machine;
import io.pragh.graph.KHopTraversal;
import io.pragh.keys.KeyLayout;
import io.pragh.store.CappedAppend;
import io.pragh.store.Mutators;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Recorder;

/**
 * A closed-loop client: draws a start vertex, then runs a two-hop GET on the start vertex's home machine (through
 * that machine's session, so every access is that machine's, seen by its access observer) or inserts an edge from
 * it at its home; records the latency and counts. Runs until stopped.
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

    private final EmbeddedCluster cluster;
    private final SplittableRandom rng;
    private volatile boolean running = true;
    private volatile Throwable failure;

    /**
     * @param index      thread index; with the generation and the seed it fixes the thread's random stream
     * @param generation how many times the clients were restarted (the shard baseline pauses them to move shards)
     */
    QueryThread(int index, int generation, Workload w, EmbeddedCluster cluster) {
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
        try {
            KHopTraversal[] onMachine = new KHopTraversal[cluster.machineCount()];
            for (int m = 0; m < onMachine.length; m++) {
                onMachine[m] = new KHopTraversal(cluster.machine(m).session(), w.batchedGets());
            }
            while (running) {
                long start = w.startVertices().at(w.dist().next(rng));
                long key = KeyLayout.key(start, LABEL, KeyLayout.OUT);
                int home = cluster.home(key);
                boolean get = rng.nextDouble() < w.getRatio();
                long t0 = System.nanoTime();
                if (get) {
                    onMachine[home].run(start, LABEL, HOPS, w.fanout());
                } else {
                    insertEdge(cluster.machine(home), key, (int) start, w.edgeEnds()[rng.nextInt(w.edgeEnds().length)]);
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

    /** An edge PUT at the start vertex's home: see {@link CappedAppend} for why its list is capped. */
    private void insertEdge(Machine home, long key, int src, long dst) {
        long cap = Math.max(w.graph().degree(src), w.fanout()) + 1L;
        home.update(key, Mutators.CAPPED_APPEND, CappedAppend.argument(dst, cap));
        w.puts().increment();
    }
}
