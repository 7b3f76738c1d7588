package io.pragh.bench.jmh;

import io.pragh.cache.LocationCache;
import io.pragh.embedded.EmbeddedCluster;
import io.pragh.embedded.Machine;
import io.pragh.fabric.FabricStats;
import io.pragh.keys.KeyLayout;
import io.pragh.migration.Migrator;
import io.pragh.store.Session;
import io.pragh.store.ValueView;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Latency of one GET ({@link Session#get}) on machine 0 of a two-machine embedded cluster with the in-process
 * fabric's default emulated remote latency, along the four paths of paper Fig. 8:
 * <ul>
 *   <li>{@code local}: key and value homed on machine 0 (local key lookup, local value copy);</li>
 *   <li>{@code remoteCacheMiss}: key and value on machine 1, location cache missing (one remote bucket READ, one
 *       remote value READ). The miss is forced by a 256-byte cache (one set of six ways) cycled over 4096 keys, so
 *       every lookup evicts and misses; the timed path includes the cache fill, as a real miss does;</li>
 *   <li>{@code remoteCacheHit}: the key's address cached, value still on machine 1 (one remote value READ);</li>
 *   <li>{@code migratedCacheHit}: address cached and the value migrated to machine 0 (fully local).</li>
 * </ul>
 * Each state checks after every iteration, from the fabric's counters, that its GETs took the path it claims
 * (remote operations per GET), and fails the run otherwise, so a figure can never describe the wrong path.
 *
 * <pre>{@code
 * ./pragh bench jmh GetLatency -f 1 -wi 2 -i 3
 * }</pre>
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class GetLatencyBenchmark {
    /** Keys per scenario: more than the CPU caches favour, fewer than the setup would take long to load. */
    static final int KEYS = 4096;
    /** An adjacency list of eight neighbours. */
    static final int VALUE_BYTES = 64;

    /** A two-machine cluster, loaded with keys homed on machine 0 and keys homed on machine 1. */
    public abstract static class ClusterState {
        private final boolean remote;
        private final long cacheBytes;
        private final boolean migrate;
        private final double expectedRemoteOpsPerGet;
        EmbeddedCluster cluster;
        Session session;
        long[] keys;
        int next;
        FabricStats.Snapshot before;
        long getsBefore;
        long gets;

        /**
         * @param remote                  read keys homed on machine 1 (else machine 0, the reader)
         * @param cacheBytes              location cache budget per machine
         * @param migrate                 migrate every value to the reader first
         * @param expectedRemoteOpsPerGet remote one-sided operations one GET of this path costs
         */
        ClusterState(boolean remote, long cacheBytes, boolean migrate, double expectedRemoteOpsPerGet) {
            this.remote = remote;
            this.cacheBytes = cacheBytes;
            this.migrate = migrate;
            this.expectedRemoteOpsPerGet = expectedRemoteOpsPerGet;
        }

        @Setup(Level.Trial)
        public void open() {
            cluster = EmbeddedCluster.builder().machines(2).workersPerMachine(1).keysPerMachine(4 * KEYS)
                .valueBytesPerMachine(16L << 20).cacheBytes(cacheBytes).pretouch(true).build();
            keys = keysHomedAt(remote ? 1 : 0);
            byte[] value = new byte[VALUE_BYTES];
            for (long key : keys) {
                cluster.homeOf(key).put(key, value);
            }
            // The benchmark thread reads through machine 0's session, as a worker of machine 0 would.
            Machine reader = cluster.machine(0);
            session = reader.session();
            if (migrate) {
                for (long key : keys) {
                    if (reader.migrate(key) != Migrator.Outcome.MIGRATED) {
                        throw new IllegalStateException("key " + KeyLayout.toString(key) + " did not migrate");
                    }
                }
            }
            for (long key : keys) {
                session.get(key);
            }
        }

        private long[] keysHomedAt(int home) {
            long[] out = new long[KEYS];
            int n = 0;
            for (long vid = 1; n < KEYS; vid++) {
                long key = KeyLayout.key(vid, 0, KeyLayout.OUT);
                if (cluster.home(key) == home) {
                    out[n++] = key;
                }
            }
            return out;
        }

        long nextKey() {
            gets++;
            return keys[next++ & (KEYS - 1)];
        }

        @Setup(Level.Iteration)
        public void markIteration() {
            before = cluster.machine(0).stats().snapshot();
            getsBefore = gets;
        }

        @TearDown(Level.Iteration)
        public void checkPath() {
            FabricStats.Snapshot d = cluster.machine(0).stats().snapshot().minus(before);
            long n = gets - getsBefore;
            double perGet = n == 0 ? 0 : (double) d.remoteOps() / n;
            // Leases expire every few seconds, so a cached path may refetch a handful of addresses: allow 2%.
            if (Math.abs(perGet - expectedRemoteOpsPerGet) > 0.02) {
                throw new IllegalStateException(getClass().getSimpleName() + " measured " + perGet
                    + " remote operations per GET, expected " + expectedRemoteOpsPerGet
                    + ": the benchmark is not timing the path it names");
            }
        }

        @TearDown(Level.Trial)
        public void close() {
            cluster.close();
        }
    }

    /** Keys and values homed on the reading machine. */
    @State(Scope.Thread)
    public static class Local extends ClusterState {
        public Local() {
            super(false, LocationCache.DEFAULT_BYTES, false, 0);
        }
    }

    /** Remote keys with a location cache of one set (six ways) cycled over 4096 keys: every lookup misses. */
    @State(Scope.Thread)
    public static class RemoteMiss extends ClusterState {
        public RemoteMiss() {
            super(true, 256, false, 2);
        }
    }

    /** Remote keys whose addresses are cached; values stay remote. */
    @State(Scope.Thread)
    public static class RemoteHit extends ClusterState {
        public RemoteHit() {
            super(true, LocationCache.DEFAULT_BYTES, false, 1);
        }
    }

    /** Remote keys whose values were migrated to the reading machine, addresses cached: fully local. */
    @State(Scope.Thread)
    public static class MigratedHit extends ClusterState {
        public MigratedHit() {
            super(true, LocationCache.DEFAULT_BYTES, true, 0);
        }
    }

    @Benchmark
    public int local(Local s) {
        return read(s);
    }

    @Benchmark
    public int remoteCacheMiss(RemoteMiss s) {
        return read(s);
    }

    @Benchmark
    public int remoteCacheHit(RemoteHit s) {
        return read(s);
    }

    @Benchmark
    public int migratedCacheHit(MigratedHit s) {
        return read(s);
    }

    private static int read(ClusterState s) {
        ValueView v = s.session.get(s.nextKey());
        return v == null ? -1 : v.length();
    }
}
