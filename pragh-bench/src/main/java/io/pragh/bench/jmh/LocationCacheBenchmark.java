package io.pragh.bench.jmh;

import io.pragh.cache.LocationCache;
import io.pragh.keys.KeyLayout;
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
 * A location cache lookup that hits, on a default-sized (128 MiB) cache holding {@code entries} addresses, keys in
 * a pseudo-random order so that the set touched is rarely in the CPU cache: the local half of a GET of a migrated
 * value. The setup fails if any lookup misses, so the figure is always the hit path.
 *
 * <pre>{@code
 * ./pragh bench jmh LocationCache -f 1 -wi 2 -i 3
 * }</pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class LocationCacheBenchmark {
    /** Entries cached: a fraction of the 3 Mi ways, so that no entry is evicted. */
    @Param({"100000"})
    public int entries;

    private LocationCache cache;
    private final LocationCache.Hit hit = new LocationCache.Hit();
    private long[] keys;
    private int next;

    @Setup(Level.Trial)
    public void fill() {
        // A lease far beyond the run, so that no entry expires while measured.
        cache = new LocationCache(LocationCache.DEFAULT_BYTES, TimeUnit.HOURS.toMillis(1));
        keys = new long[Integer.highestOneBit(entries)];
        for (int i = 0; i < keys.length; i++) {
            // Stride by a large odd number: consecutive lookups land in unrelated sets.
            keys[i] = KeyLayout.key((i * 0x9E3779B1L) & KeyLayout.MAX_VID, 0, KeyLayout.OUT);
            cache.insert(keys[i], 8L * (i + 1), 8L * i, 0);
        }
        for (long key : keys) {
            if (!cache.lookup(key, 0, hit)) {
                throw new IllegalStateException("key " + key + " was evicted while filling: not a hit benchmark");
            }
        }
    }

    @TearDown(Level.Trial)
    public void close() {
        cache.close();
    }

    @Benchmark
    public long lookupHit() {
        cache.lookup(keys[next++ & (keys.length - 1)], 0, hit);
        return hit.address;
    }
}
