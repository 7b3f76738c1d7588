package io.pragh.bench.jmh;

import io.pragh.runtime.OperationGate;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * What the {@link OperationGate} adds to every GET: one enter and one exit around a stand-in for the operation (a
 * few dependent loads' worth of work), against the same work without the gate, on one thread and on two threads
 * with their own stripes (the GET path's case: one session per thread). Read beside
 * {@code GetLatencyBenchmark.local}, whose GET includes the gate: the difference of the first two here is the gate's
 * share of it.
 *
 * <pre>{@code
 * ./pragh bench jmh 'OperationGate|GetLatency.local' -f 1 -wi 3 -i 5
 * }</pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class OperationGateBenchmark {
    /** Shared by every thread of a run, as one machine's gate is. */
    @State(Scope.Benchmark)
    public static class Gate {
        final OperationGate gate = new OperationGate();
    }

    /** One per thread, as a session is: its own stripe. */
    @State(Scope.Thread)
    public static class User {
        int stripe;
        long work;

        @Setup
        public void setUp(Gate shared) {
            stripe = shared.gate.stripe();
        }
    }

    @Benchmark
    public void withoutGate(User user, Blackhole bh) {
        bh.consume(operation(user));
    }

    @Benchmark
    public void enterExit(Gate shared, User user, Blackhole bh) {
        enterExitOnce(shared, user, bh);
    }

    @Benchmark
    @Threads(2)
    public void enterExitTwoThreads(Gate shared, User user, Blackhole bh) {
        enterExitOnce(shared, user, bh);
    }

    private static void enterExitOnce(Gate shared, User user, Blackhole bh) {
        if (!shared.gate.enter(user.stripe)) {
            throw new IllegalStateException("the benchmark's gate is never closed");
        }
        try {
            bh.consume(operation(user));
        } finally {
            shared.gate.exit(user.stripe);
        }
    }

    /** Stands in for the operation: cheap, but not foldable by the JIT. */
    private static long operation(User user) {
        Blackhole.consumeCPU(8);
        return ++user.work;
    }
}
