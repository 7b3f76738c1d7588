package io.pragh.bench.jmh;

import io.pragh.address.Address;
import io.pragh.embedded.EmbeddedCluster;
import io.pragh.embedded.Machine;
import io.pragh.keys.KeyLayout;
import io.pragh.keys.KeyRegion;
import io.pragh.migration.Migrator;
import io.pragh.store.Session;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jmh.annotations.AuxCounters;
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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Control;

/**
 * Migration throughput against payload size (paper Fig. 13): values per second that one or two migration threads on
 * machine 0 pull from machine 1 (their home) over the in-process fabric at its default emulated latency, each thread
 * running its own pipelined {@link Migrator} (depth {@value Migrator#DEFAULT_DEPTH}) as a machine's migration thread
 * does. The paper's experiment migrates remote values to the local machine "at full speed" with 1 and 24 threads;
 * {@code oneThread} and {@code twoThreads} ({@code @Threads(1)}, {@code @Threads(2)}) are ours, two threads sharing
 * machine 0's value region, reclaim rings and fence as parallel migration threads of one machine do.
 *
 * <p>Every invocation migrates a batch of the thread's own keys (about 1 MiB of payload, 32 to 4096 keys) from
 * machine 1 to machine 0, and each one really moves: before it, untimed, machine 1's own migrator pulls the batch
 * back home and machine 0's location cache is refreshed with the home addresses, as it is for keys machine 0's
 * monitor found hot (the paper's pipelining skips the lookup for cached addresses). JMH times the migration alone.
 *
 * <p>Read the {@code values} secondary result (values migrated per second, summed over threads) and {@code bytes}
 * (payload bytes per second); {@code conflicts} counts keys that lost a CAS and went round again, {@code notMigrated}
 * outcomes other than MIGRATED (expected 0). After every iteration each thread checks that values moved, that the
 * home's address words name machine 0 and that machine 0 reads the original bytes, and fails the run otherwise.
 * Leases are short (100 ms cache, 200 ms reclaim) so the records each pass leaves behind are reused quickly rather
 * than filling the value region.
 *
 * <pre>{@code
 * ./pragh bench jmh MigrationThroughput -f 1 -wi 2 -i 3
 * }</pre>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 2)
public class MigrationThroughputBenchmark {
    static final int TARGET = 0;
    static final int HOME = 1;
    /** Threads of the widest benchmark; each gets a disjoint key pool. */
    static final int MAX_THREADS = 2;
    /**
     * Payload one invocation moves: a batch spans at least one full pipeline round and at most 16, so an invocation
     * stays far shorter than the 100 ms cache lease even on a busy host (a batch outliving its cached addresses
     * would time lookups instead of migrations).
     */
    static final long BATCH_BYTES = 256 << 10;
    static final int MIN_BATCH = Migrator.DEFAULT_DEPTH;
    static final int MAX_BATCH = 16 * Migrator.DEFAULT_DEPTH;
    /** Vertex ids of thread pool p start at p * POOL_STRIDE + 1. */
    static final long POOL_STRIDE = 1L << 24;

    /** Two machines: migration threads on machine 0, the values' home on machine 1. */
    @State(Scope.Benchmark)
    public static class Cluster {
        @Param({"64", "256", "1024", "4096", "16384", "65536"})
        public int payload;
        /**
         * Value region per machine, MiB: 3 GiB holds 64 KiB payloads at full speed; {@code bench paper} asks for less
         * when it runs only small payloads briefly.
         */
        @Param({"3072"})
        public int valueMbPerMachine;

        EmbeddedCluster cluster;
        final AtomicInteger pools = new AtomicInteger();
        /** Every thread's pool, checked here after each iteration: a thread-scoped check could race the trial's close. */
        final List<MigrationThread> threads = new CopyOnWriteArrayList<>();

        @Setup(Level.Trial)
        public void open() {
            // Each pass leaves a batch of dead records on both machines for a reclaim lease (plus the GC thread's
            // poll): two threads moving 64 KiB values at ~9 GB/s leave over 1 GiB of them; 3 GiB per machine holds
            // that with room to spare (1 GiB did not).
            cluster = EmbeddedCluster.builder().machines(2).workersPerMachine(1).pinThreads(false)
                .keysPerMachine(4L * MAX_THREADS * MAX_BATCH).valueBytesPerMachine((long) valueMbPerMachine << 20).cacheBytes(16 << 20)
                .leases(100, 200).pretouch(true).build();
        }

        /** Fails the run unless values moved and every thread's last batch is on machine 0 with its original bytes. */
        @TearDown(Level.Iteration)
        public void check() {
            long moved = 0;
            for (MigrationThread t : threads) {
                moved += t.movedThisIteration;
                t.movedThisIteration = 0;
                if (t.atTarget) {
                    t.checkArrived();
                }
            }
            if (moved == 0) {
                throw new IllegalStateException("no value migrated in this iteration");
            }
        }

        int batchKeys() {
            return (int) Math.max(MIN_BATCH, Math.min(MAX_BATCH, BATCH_BYTES / payload));
        }

        @TearDown(Level.Trial)
        public void close() {
            cluster.close();
        }
    }

    /** What this thread migrated, as rates: values and payload bytes per second. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Moved {
        public long values;
        public long bytes;

        @Setup(Level.Iteration)
        public void reset() {
            values = 0;
            bytes = 0;
        }
    }

    /** What went round again or did not move, as totals per iteration. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class Retries {
        public long conflicts;
        public long notMigrated;

        @Setup(Level.Iteration)
        public void reset() {
            conflicts = 0;
            notMigrated = 0;
        }
    }

    /** One migration thread: its key pool, its migrator on machine 0 and the untimed helpers that reset the pool. */
    @State(Scope.Thread)
    public static class MigrationThread {
        long[] keys;
        int n;
        int payload;
        Migrator toTarget;
        Migrator toHome;
        Session refresher;
        Migrator.Outcome[] outcomes;
        volatile boolean atTarget;
        /** Written by this thread, read by the iteration teardown after JMH's end-of-iteration barrier. */
        volatile long movedThisIteration;
        EmbeddedCluster cluster;

        @Setup(Level.Trial)
        public void load(Cluster c) {
            cluster = c.cluster;
            payload = c.payload;
            n = c.batchKeys();
            int pool = c.pools.getAndIncrement();
            keys = new long[n];
            int found = 0;
            for (long vid = pool * POOL_STRIDE + 1; found < n; vid++) {
                long key = KeyLayout.key(vid, 0, KeyLayout.OUT);
                if (cluster.home(key) == HOME) {
                    keys[found++] = key;
                }
            }
            Machine home = cluster.machine(HOME);
            for (long key : keys) {
                home.put(key, valueOf(key, payload));
            }
            toTarget = new Migrator(cluster.machine(TARGET).store());
            toHome = new Migrator(home.store());
            refresher = cluster.machine(TARGET).store().newSession();
            outcomes = new Migrator.Outcome[n];
            atTarget = false;
            c.threads.add(this);
        }

        /** Untimed: the batch goes back home and machine 0 caches the home addresses. */
        @Setup(Level.Invocation)
        public void bringHome() {
            if (atTarget) {
                toHome.migrateAll(keys, n, outcomes);
                for (int i = 0; i < n; i++) {
                    if (outcomes[i] != Migrator.Outcome.MIGRATED) {
                        throw new IllegalStateException("key " + KeyLayout.toString(keys[i]) + " did not migrate"
                            + " back home: " + outcomes[i]);
                    }
                }
                atTarget = false;
            }
            // Machine 0 still caches the records it just gave up; read the home's address words afresh.
            for (long key : keys) {
                if (!refresher.locate(key, false)) {
                    throw new IllegalStateException("key " + KeyLayout.toString(key) + " lost its value");
                }
            }
        }

        /** Throws unless the home's address words name machine 0 and machine 0 reads the original bytes. */
        void checkArrived() {
            KeyRegion homeKeys = cluster.machine(HOME).store().keys();
            for (long key : keys) {
                int host = Address.host(homeKeys.address(homeKeys.find(key)), HOME);
                if (host != TARGET) {
                    throw new IllegalStateException("key " + KeyLayout.toString(key) + " is hosted by machine " + host
                        + " after migrating to machine " + TARGET);
                }
            }
            for (long key : new long[] {keys[0], keys[n - 1]}) {
                if (!Arrays.equals(valueOf(key, payload), cluster.machine(TARGET).get(key))) {
                    throw new IllegalStateException("key " + KeyLayout.toString(key) + " reads other bytes after"
                        + " migrating");
                }
            }
        }
    }

    /** A payload that names its key, so a value read from the wrong record cannot pass the check. */
    static byte[] valueOf(long key, int payload) {
        byte[] v = new byte[payload];
        for (int i = 0; i < payload; i += 8) {
            long word = key * 31 + i;
            for (int b = 0; b < 8 && i + b < payload; b++) {
                v[i + b] = (byte) (word >>> (8 * b));
            }
        }
        return v;
    }

    @Benchmark
    @Threads(1)
    public int oneThread(MigrationThread t, Moved moved, Retries retries, Control control) {
        return migrate(t, moved, retries, control);
    }

    @Benchmark
    @Threads(2)
    public int twoThreads(MigrationThread t, Moved moved, Retries retries, Control control) {
        return migrate(t, moved, retries, control);
    }

    private static int migrate(MigrationThread t, Moved moved, Retries retries, Control control) {
        long conflictsBefore = t.toTarget.conflicts();
        t.toTarget.migrateAll(t.keys, t.n, t.outcomes);
        t.atTarget = true;
        int migrated = 0;
        for (int i = 0; i < t.n; i++) {
            if (t.outcomes[i] == Migrator.Outcome.MIGRATED) {
                migrated++;
            }
        }
        t.movedThisIteration += migrated;
        if (!control.startMeasurement || control.stopMeasurement) {
            // JMH divides the counters by the timed invocations' time only: a thread that finished first keeps
            // invoking (untimed) until the others finish, and those values must not count.
            return migrated;
        }
        moved.values += migrated;
        moved.bytes += (long) migrated * t.payload;
        retries.conflicts += t.toTarget.conflicts() - conflictsBefore;
        retries.notMigrated += t.n - migrated;
        return migrated;
    }
}
