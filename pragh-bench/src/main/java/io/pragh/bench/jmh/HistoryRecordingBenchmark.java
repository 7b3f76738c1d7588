package io.pragh.bench.jmh;

import io.pragh.bench.traversal.history.KeySample;
import io.pragh.bench.traversal.history.TraversalHistory;
import io.pragh.bench.workload.AdjacencyGraph;
import io.pragh.bench.workload.RmatGenerator;
import io.pragh.bench.workload.StartVertexDistribution;
import io.pragh.embedded.EmbeddedCluster;
import io.pragh.graph.KHopTraversal;
import io.pragh.keys.KeyLayout;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.agrona.collections.LongHashSet;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the traversal benchmark's history recording costs a two-hop query: the benchmark's query (Zipf 0.99 start
 * vertices over the first 1,024 vertices with edges, fanout 100, one GET at a time) on one machine of an RMAT graph,
 * every read local, so the recording's share is as large as it gets; {@code keys} = 0 records nothing (the observer
 * is absent), else about that many of the scope's two-hop read keys are sampled by hash, as {@code bench traversal
 * --history-keys} does. A fresh history each iteration, so its recording budget is never reached.
 *
 * <pre>{@code
 * ./pragh bench jmh HistoryRecording -f 1 -wi 3 -i 5 -p keys=0,1024
 * }</pre>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@State(Scope.Thread)
public class HistoryRecordingBenchmark {
    static final int SCOPE = 1024;
    static final int FANOUT = 100;

    /** Keys whose history is recorded: 0 for none. */
    @Param({"0", "1024"})
    public int keys;

    /** RMAT scale of the graph. */
    @Param({"14"})
    public int scale;

    private EmbeddedCluster cluster;
    private int[] starts;
    private StartVertexDistribution dist;
    private final SplittableRandom rng = new SplittableRandom(42);
    private KeySample sample;
    private long sampled;
    private AdjacencyGraph graph;
    private KHopTraversal traversal;

    @Setup(Level.Trial)
    public void load() {
        graph = new RmatGenerator(scale, RmatGenerator.EDGE_FACTOR, 42).generate();
        cluster = EmbeddedCluster.builder().machines(1).workersPerMachine(1).pinThreads(false)
            .keysPerMachine(graph.vertexCount() * 2L).valueBytesPerMachine(64L << 20).remoteLatencyNs(0).build();
        LongHashSet population = new LongHashSet();
        for (int v = 0; v < graph.vertexCount(); v++) {
            if (graph.degree(v) > 0) {
                cluster.machine(0).put(key(v), value(v));
            }
        }
        starts = Arrays.copyOf(graph.verticesWithEdges(), SCOPE);
        for (int s : starts) {
            population.add(key(s));
            for (int j = 0; j < Math.min(graph.degree(s), FANOUT); j++) {
                population.add(key(graph.neighbour(s, j)));
            }
        }
        dist = StartVertexDistribution.of("zipf", SCOPE);
        sample = KeySample.of(keys, population.size());
        sampled = keys;
    }

    private static long key(int v) {
        return KeyLayout.key(v, 0, KeyLayout.OUT);
    }

    private byte[] value(int v) {
        byte[] b = new byte[8 * graph.degree(v)];
        UnsafeBuffer buf = new UnsafeBuffer(b);
        for (int i = 0; i < graph.degree(v); i++) {
            buf.putLong(8 * i, graph.neighbour(v, i));
        }
        return b;
    }

    @Setup(Level.Iteration)
    public void freshHistory() {
        TraversalHistory history = keys == 0 ? null : new TraversalHistory(sample, sampled,
            k -> null, TraversalHistory.DEFAULT_MAX_READS);
        if (history != null) {
            history.loaded();
        }
        traversal = new KHopTraversal(cluster.machine(0).session(), false, history == null ? null : history.recorder());
    }

    @TearDown(Level.Trial)
    public void close() {
        cluster.close();
    }

    @Benchmark
    public int twoHop() {
        return traversal.run(starts[dist.next(rng)], 0, 2, FANOUT).size();
    }
}
