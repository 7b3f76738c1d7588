package io.pragh.bench.jmh;

import io.pragh.embedded.EmbeddedCluster;
import io.pragh.embedded.Machine;
import io.pragh.keys.KeyLayout;
import io.pragh.store.Mutators;
import java.util.concurrent.TimeUnit;
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
 * What one acknowledged write of a key homed on another machine costs its caller: {@code Machine.update} of an
 * 8-byte SET, from machine 0 of an embedded cluster of {@code machines} (in-process fabric, emulated remote latency
 * {@code latencyNs}), to keys homed elsewhere, one at a time. The request crosses to the home's delivery thread, and
 * the acknowledgement back through machine 0's: two emulated wire times and two thread hand-offs.
 *
 * <p>Why it is here: a Structure API {@code addEdge} acknowledged before it returns is two such writes issued
 * together, so one loading thread cannot add edges faster than one over this round trip (the sample-time median).
 * At the default 2 us emulated latency the wire alone bounds it at 250K edges/s, whatever the code does.
 *
 * <pre>{@code
 * ./pragh bench jmh AckRoundTrip -f 1 -wi 3 -i 5
 * }</pre>
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@State(Scope.Benchmark)
public class AckRoundTripBenchmark {
    @Param({"0", "2000"})
    public long latencyNs;

    @Param("4")
    public int machines;

    private EmbeddedCluster cluster;
    private Machine caller;
    /** Keys homed on machines other than the caller's, written round robin. */
    private long[] remoteKeys;
    private int next;
    private final byte[] value = new byte[8];

    @Setup(Level.Trial)
    public void start() {
        cluster = EmbeddedCluster.builder().machines(machines).workersPerMachine(1).keysPerMachine(1 << 16)
            .valueBytesPerMachine(64L << 20).cacheBytes(1 << 16).remoteLatencyNs(latencyNs).build();
        caller = cluster.machine(0);
        remoteKeys = new long[1024];
        long vertex = 0;
        for (int i = 0; i < remoteKeys.length; i++) {
            long k;
            do {
                k = KeyLayout.key(++vertex, 0, KeyLayout.PROPERTY);
            } while (cluster.home(k) == caller.id());
            remoteKeys[i] = k;
        }
    }

    @Benchmark
    public void acknowledgedRemoteWrite() {
        long k = remoteKeys[next];
        next = (next + 1) & (remoteKeys.length - 1);
        value[0]++;
        caller.update(k, Mutators.SET, value);
    }

    @TearDown(Level.Trial)
    public void stop() {
        cluster.close();
    }
}
