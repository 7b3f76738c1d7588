package io.pragh.bench.jmh;

import io.pragh.embedded.EmbeddedCluster;
import io.pragh.embedded.Machine;
import io.pragh.keys.KeyLayout;
import io.pragh.store.Mutators;
import io.pragh.store.ValueMutator;
import java.util.concurrent.TimeUnit;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
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
 * What one edge insert costs as the adjacency list grows: builds a list of {@code degree} 8-byte entries by one
 * APPEND each on the key's home machine (an embedded two-machine cluster, in-process fabric), then deletes it. Two
 * mutators, side by side in one run:
 * <ul>
 *   <li>{@code inPlace}: the core's {@link Mutators#APPEND}, which grows into its record's slack (doubling when it
 *       must move): O(1) amortized per append;</li>
 *   <li>{@code copying}: the same append declared as a plain rewrite (no {@link ValueMutator#appendedLength}), so
 *       each append writes a new record with a copy of the whole list, as every APPEND did before: O(degree).</li>
 * </ul>
 * The score is per list; divide by {@code degree} for the cost of one append. After each iteration the run prints
 * the records superseded (handed to the GC) per append, the garbage an insert makes.
 *
 * <pre>{@code
 * ./pragh bench jmh AppendBenchmark -f 1 -wi 3 -i 5
 * }</pre>
 *
 * <p>One run on 2026-11-27 ({@code -wi 3 -i 10}, shared 2-core VM at a load average of 22-26, so means are
 * dominated by stalls; medians of the 10 iterations, per append): in place 0.43 / 0.42 / 0.48 us at degree
 * 16 / 256 / 4096, copying 1.5 / 6.1 / 46 us; records superseded per append (the delete of the list included)
 * 0.31 / 0.035 / 0.0032 in place, 1.0 copying.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@State(Scope.Benchmark)
public class AppendBenchmark {
    /** The provider id of the copying append. */
    static final int COPYING_APPEND = 40;

    @Param({"16", "256", "4096"})
    public int degree;

    @Param({"inPlace", "copying"})
    public String mutator;

    private EmbeddedCluster cluster;
    private Machine home;
    private int mutatorId;
    private final byte[] entry = new byte[8];
    private long vertex;
    private long appends;
    private long retiredBefore;

    @Setup(Level.Trial)
    public void start() {
        cluster = EmbeddedCluster.builder().machines(2).workersPerMachine(1).keysPerMachine(1 << 16)
            .valueBytesPerMachine(512L << 20).cacheBytes(1 << 16).leases(20, 100).remoteLatencyNs(0)
            .mutator(COPYING_APPEND, new CopyingAppend()).build();
        mutatorId = "copying".equals(mutator) ? COPYING_APPEND : Mutators.APPEND;
        home = cluster.homeOf(key(0));
    }

    @Setup(Level.Iteration)
    public void countFrom() {
        appends = 0;
        retiredBefore = home.store().reclaimer().retiredRecords();
    }

    private static long key(long vertex) {
        return KeyLayout.key(vertex, 0, KeyLayout.OUT);
    }

    @Benchmark
    public void buildList() {
        long k;
        do {
            k = key(++vertex);
        } while (cluster.home(k) != home.id()); // homed where the appends run: each is applied where it starts
        for (int i = 0; i < degree; i++) {
            entry[0] = (byte) i;
            home.update(k, mutatorId, entry);
        }
        appends += degree;
        home.delete(k);
    }

    @TearDown(Level.Iteration)
    public void report() {
        long retired = home.store().reclaimer().retiredRecords() - retiredBefore;
        System.out.printf("%n  %s degree %d: %d appends, %.4f records superseded per append%n", mutator, degree,
            appends, appends == 0 ? 0.0 : (double) retired / appends);
    }

    @TearDown(Level.Trial)
    public void stop() {
        cluster.close();
    }

    /**
     * The append every APPEND was before slack: the core's APPEND without its {@link ValueMutator#appendedLength},
     * so that every append writes a new record holding a copy of the list plus the argument.
     */
    static final class CopyingAppend implements ValueMutator {
        private final ValueMutator append = Mutators.withBuiltins().get(Mutators.APPEND);

        @Override
        public int newLength(DirectBuffer cur, int curOff, int curLen, DirectBuffer arg, int argOff, int argLen) {
            return append.newLength(cur, curOff, curLen, arg, argOff, argLen);
        }

        @Override
        public void write(DirectBuffer cur, int curOff, int curLen, DirectBuffer arg, int argOff, int argLen,
                          MutableDirectBuffer dst, int dstOff) {
            append.write(cur, curOff, curLen, arg, argOff, argLen, dst, dstOff);
        }
    }
}
