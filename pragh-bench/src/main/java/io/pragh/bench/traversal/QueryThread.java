package io.pragh.bench.traversal;

import io.pragh.bench.workload.AdjacencyGraph;
import io.pragh.bench.workload.StartVertexDistribution;
import io.pragh.cluster.EmbeddedCluster;
import io.pragh.cluster.Machine;
import io.pragh.graph.KHopTraversal;
import io.pragh.keys.KeyLayout;
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
    /** What every query thread of one mode shares. */
    record Workload(StartVertices startVertices, AdjacencyGraph graph, StartVertexDistribution dist, double getRatio,
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
                    insertEdge(cluster.machine(home), key, (int) start, rng.nextInt(w.graph().vertexCount()));
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

    /**
     * Writes the vertex's loaded list plus the new edge {@code dst} at its home: an edge insert that replaces the
     * previous insert's edge, so values keep their loaded size. Appending instead grows a hot vertex's list with
     * every PUT, and the copies each PUT leaves for the 10 s reclaim lease grow with it: the 50/50 mix filled the
     * value region within seconds.
     */
    private void insertEdge(Machine home, long key, int src, long dst) {
        home.put(key, TraversalRunner.adjacencyValue(w.graph(), src, dst));
        w.puts().increment();
    }
}
