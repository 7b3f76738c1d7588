package io.pragh.bench.jmh;

import io.pragh.bench.pushdown.PraghGraphs;
import io.pragh.bench.pushdown.PushdownWorkload;
import io.pragh.bench.pushdown.TwoHopCounts;
import io.pragh.gremlin.process.PraghHopStep;
import io.pragh.gremlin.process.PraghHopStrategy;
import io.pragh.gremlin.structure.PraghGraph;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversal;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.tinkergraph.structure.TinkerGraph;
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
 * {@code g.V(x).out().out().count()} on the same RMAT graph (scale {@code scale}, edge factor 16, seed 42) in
 * PraghGraph with the fused hop step ({@code praghFused}), in PraghGraph with {@link PraghHopStrategy} removed
 * ({@code praghUnfused}, TinkerPop's own step-by-step plan over the same store) and in TinkerGraph 3.8.1
 * ({@code tinkerGraph}), cycling over the same {@value PushdownWorkload#SAMPLE} start vertices of all degrees. Before
 * anything is timed, each graph's answers for every start vertex are checked against the counts computed from the
 * adjacency itself (and the fused plan is checked to be fused, the unfused one not), so the trial fails rather than
 * time a wrong answer. PraghGraph's settings: {@link PraghGraphs}. The JanusGraph side runs in its own JVM:
 * {@code ./pragh bench janusgraph}.
 *
 * <pre>{@code
 * ./pragh bench jmh Pushdown -f 1 -wi 5 -w 2 -i 5 -r 2
 * }</pre>
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
public class PushdownBenchmark {
    /** The graph and start vertices, generated once per trial. */
    @State(Scope.Benchmark)
    public static class Workload {
        @Param("14")
        public int scale;
        PushdownWorkload workload;
        TwoHopCounts expected;

        @Setup(Level.Trial)
        public void generate() {
            workload = new PushdownWorkload(scale, PushdownWorkload.SEED);
            expected = workload.expectedCounts();
            System.out.printf(Locale.ROOT, "%nRMAT scale %d: %d vertices, %d edges (both directions); start vertices' degrees %d..%d%n",
                scale, workload.graph().vertexCount(), workload.graph().edgeCount(),
                workload.graph().degree((int) workload.start(0)),
                workload.graph().degree((int) workload.start(PushdownWorkload.SAMPLE - 1)));
        }
    }

    /** PraghGraph, loaded once per trial, with a fused and an unfused traversal source over it. */
    @State(Scope.Benchmark)
    public static class Pragh {
        PraghGraph graph;
        GraphTraversalSource fused;
        GraphTraversalSource unfused;

        @Setup(Level.Trial)
        public void load(Workload w) {
            graph = PraghGraphs.open();
            System.out.printf(Locale.ROOT, "PraghGraph (%s) loaded in %.1f s%n", PraghGraphs.describe(),
                w.workload.loadInto(graph, PraghGraphs.LOAD_THREADS));
            fused = graph.traversal();
            unfused = graph.traversal().withoutStrategies(PraghHopStrategy.class);
            requirePlan(fused, true);
            requirePlan(unfused, false);
            w.workload.count("PraghGraph (fused)", fused).requireSameAs(w.expected);
            w.workload.count("PraghGraph (unfused)", unfused).requireSameAs(w.expected);
        }

        private static void requirePlan(GraphTraversalSource g, boolean fusedExpected) {
            GraphTraversal.Admin<?, ?> t = g.V(0L).out().out().count().asAdmin();
            t.applyStrategies();
            boolean isFused = t.getSteps().stream().anyMatch(s -> s instanceof PraghHopStep);
            if (isFused != fusedExpected) {
                throw new IllegalStateException("expected a" + (fusedExpected ? " fused" : "n unfused") + " plan, got " + t);
            }
        }

        @TearDown(Level.Trial)
        public void close() {
            graph.close();
        }
    }

    /** TinkerGraph 3.8.1, loaded once per trial. */
    @State(Scope.Benchmark)
    public static class Tinker {
        TinkerGraph graph;
        GraphTraversalSource g;

        @Setup(Level.Trial)
        public void load(Workload w) {
            graph = TinkerGraph.open();
            System.out.printf(Locale.ROOT, "TinkerGraph loaded in %.1f s%n", w.workload.loadInto(graph, 1));
            g = graph.traversal();
            w.workload.count("TinkerGraph", g).requireSameAs(w.expected);
        }

        @TearDown(Level.Trial)
        public void close() {
            graph.close();
        }
    }

    /** Which start vertex the next query asks about. */
    @State(Scope.Thread)
    public static class Cursor {
        int next;
    }

    @Benchmark
    public long praghFused(Workload w, Pragh p, Cursor c) {
        return PushdownWorkload.twoHopCount(p.fused, w.workload.start(c.next++));
    }

    @Benchmark
    public long praghUnfused(Workload w, Pragh p, Cursor c) {
        return PushdownWorkload.twoHopCount(p.unfused, w.workload.start(c.next++));
    }

    @Benchmark
    public long tinkerGraph(Workload w, Tinker t, Cursor c) {
        return PushdownWorkload.twoHopCount(t.g, w.workload.start(c.next++));
    }
}
