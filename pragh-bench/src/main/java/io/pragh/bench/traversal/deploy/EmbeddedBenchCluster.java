package io.pragh.bench.traversal.deploy;

import io.pragh.bench.extension.CappedAppend;
import io.pragh.bench.shard.ShardAccessCounts;
import io.pragh.bench.shard.ShardMover;
import io.pragh.bench.shard.ShardPlan;
import io.pragh.bench.shard.ShardPlacement;
import io.pragh.coordinator.CoordinatorConfig;
import io.pragh.coordinator.Decisions;
import io.pragh.embedded.EmbeddedCluster;
import io.pragh.embedded.Machine;
import io.pragh.embedded.MigrationControl;
import io.pragh.fabric.FabricStats;
import io.pragh.graph.KHopTraversal;
import io.pragh.keys.KeyLayout;
import io.pragh.monitor.MonitorConfig;
import io.pragh.store.MachineStore;
import io.pragh.store.ReplicaRegistry;
import io.pragh.store.Replicas;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.LongConsumer;

/**
 * A bench cluster in this JVM: an {@link EmbeddedCluster} on the in-process fabric with its emulated remote latency.
 * Client threads run their traversals through the home machine's own session, so every access is that machine's.
 *
 * <pre>{@code
 * try (BenchCluster c = EmbeddedBenchCluster.start(spec)) {
 *     try (QueryPath p = c.openPath()) { p.kHop(start, 0, 2, 100, false); }
 * }
 * }</pre>
 */
public final class EmbeddedBenchCluster implements BenchCluster {
    private final ClusterSpec spec;
    private final EmbeddedCluster cluster;
    private final ShardPlacement shards;
    /** Told every key a query path wrote, once its write returned (a diagnostic's hook), or null. */
    private volatile LongConsumer writeObserver;

    private EmbeddedBenchCluster(ClusterSpec spec, EmbeddedCluster cluster, ShardPlacement shards) {
        this.spec = spec;
        this.cluster = cluster;
        this.shards = shards;
    }

    /** Builds the cluster of {@code spec}. */
    public static EmbeddedBenchCluster start(ClusterSpec spec) {
        return start(spec, EmbeddedCluster.Builder::build);
    }

    /**
     * The cluster of {@code spec}, its builder configured and then handed to {@code build}: a caller that wraps the
     * cluster in a store of its own (the RDF benchmark's graph store) builds it there and may set more first.
     */
    public static EmbeddedBenchCluster start(ClusterSpec spec, Function<EmbeddedCluster.Builder, EmbeddedCluster> build) {
        ShardPlacement shards = spec.sharded() ? new ShardPlacement(spec.machines(), spec.shardsPerMachine()) : null;
        // Queries run on client threads through the home machine's session, so the workers stay idle: never pin them.
        EmbeddedCluster.Builder b = EmbeddedCluster.builder().machines(spec.machines()).workersPerMachine(1)
            .pinThreads(false).keysPerMachine(spec.keysPerMachine()).valueBytesPerMachine(spec.valueBytes())
            .remoteLatencyNs(spec.remoteLatencyNs()).cacheBytes(spec.cacheBytes()).pretouch(true)
            // Every mode alike: the regions are pre-touched whole, so huge pages cost no memory, only TLB misses.
            .hugePages(true)
            .mutator(CappedAppend.ID, new CappedAppend());
        if (spec.replicaBytes() > 0) {
            b.replicas(spec.replicas().bytesPerMachine(), spec.replicas().leaseMillis());
        }
        if (shards != null) {
            b.placement(shards);
        }
        return new EmbeddedBenchCluster(spec, build.apply(b), shards);
    }

    /**
     * {@code observer} is told the key of every write through this cluster's query paths once the write returned
     * ({@link CompulsoryReads}); null stops it.
     */
    public void setWriteObserver(LongConsumer observer) {
        this.writeObserver = observer;
    }

    private void wrote(long key) {
        LongConsumer o = writeObserver;
        if (o != null) {
            o.accept(key);
        }
    }

    /** The embedded cluster itself. */
    public EmbeddedCluster cluster() {
        return cluster;
    }

    @Override
    public int machineCount() {
        return cluster.machineCount();
    }

    @Override
    public int home(long key) {
        return cluster.home(key);
    }

    @Override
    public QueryPath openPath() {
        return new SessionPath(null);
    }

    @Override
    public QueryPath openPath(PathRecorder recorder) {
        return new SessionPath(recorder);
    }

    @Override
    public FabricStats.Snapshot stats() {
        return cluster.stats();
    }

    @Override
    public long forwardedUpdates() {
        long n = 0;
        for (int m = 0; m < cluster.machineCount(); m++) {
            n += cluster.machine(m).store().forwardedUpdates();
        }
        return n;
    }

    @Override
    public SplitMigration splitMigration() {
        MonitorConfig monitor = MonitorConfig.defaults().withIntervalMillis(spec.intervalMillis())
            .withRates(MonitorConfig.DEFAULT_INSTANT_RATE, spec.minRate());
        return new Split(new MigrationControl(cluster, monitor,
            CoordinatorConfig.defaults().withMechanism(spec.mechanism()).withMinRate(spec.minRate())));
    }

    @Override
    public ShardMigration shardMigration() {
        spec.requireSharded();
        return new Shards();
    }

    @Override
    public String describe() {
        return "fabric: in-process, " + spec.machines() + " machine(s) in this JVM, emulated remote latency "
            + spec.remoteLatencyNs() + " ns; regions on " + pages();
    }

    private String pages() {
        if (cluster.machine(0).store().keys().region().hugePages()) {
            return "transparent huge pages";
        }
        String why = io.pragh.memory.HugePages.unavailableBecause();
        return "4 KiB pages (" + (why != null ? why : "the kernel refused the advice; see the log") + ")";
    }

    @Override
    public void close() {
        cluster.close();
    }

    /**
     * Traversals through the home's session (one traversal engine per machine), updates at the home; the reads and
     * inserts of the keys a recorder observes told to it.
     */
    private final class SessionPath implements QueryPath {
        private final KHopTraversal[] one = new KHopTraversal[cluster.machineCount()];
        private final KHopTraversal[] batched = new KHopTraversal[cluster.machineCount()];
        private final PathRecorder recorder;

        SessionPath(PathRecorder recorder) {
            this.recorder = recorder;
        }

        @Override
        public long kHop(long start, int label, int hops, int fanout, boolean batch) {
            int home = cluster.home(KeyLayout.key(start, label, KeyLayout.OUT));
            KHopTraversal[] engines = batch ? batched : one;
            if (engines[home] == null) {
                engines[home] = new KHopTraversal(cluster.machine(home).session(), batch, recorder);
            }
            return engines[home].run(start, label, hops, fanout).size();
        }

        @Override
        public void insertEdge(long src, int label, long dst, int cap) {
            long key = KeyLayout.key(src, label, KeyLayout.OUT);
            if (recorder != null && recorder.observes(key)) {
                long invoked = System.nanoTime();
                cluster.homeOf(key).update(key, CappedAppend.ID, CappedAppend.argument(dst, cap));
                recorder.inserted(key, dst, cap, invoked, System.nanoTime());
            } else {
                cluster.homeOf(key).update(key, CappedAppend.ID, CappedAppend.argument(dst, cap));
            }
            wrote(key);
        }

        @Override
        public void put(long key, byte[] value) {
            cluster.homeOf(key).put(key, value);
            wrote(key);
        }

        @Override
        public void close() {
        }
    }

    private final class Split implements SplitMigration {
        private final MigrationControl control;
        private MigrationControl.InstantPolls pollMark = MigrationControl.InstantPolls.ZERO;
        private long pollMarkNanos = System.nanoTime();
        private long[] waitMark = new long[5];

        Split(MigrationControl control) {
            this.control = control;
        }

        @Override
        public void start() {
            control.start();
        }

        @Override
        public Interval endInterval() {
            Decisions d = control.endInterval();
            return new Interval(d.approvals().size(), d.track().size(), d.untrack().size());
        }

        @Override
        public long awaitMigrations(long timeoutMillis) throws Exception {
            return control.awaitMigrations(timeoutMillis);
        }

        @Override
        public long migratedKeys() {
            return control.migratedKeys();
        }

        @Override
        public long replicasPlaced() {
            return control.replicasPlaced();
        }

        @Override
        public String replicaSummary() {
            Replicas.Counts sum = Replicas.Counts.ZERO;
            for (int m = 0; m < cluster.machineCount(); m++) {
                sum = sum.plus(cluster.machine(m).store().replication().replicas().counts());
            }
            return sum.describe();
        }

        @Override
        public String waitsSinceMark() {
            long[] w = waits();
            long gets = w[0] - waitMark[0];
            double getSeconds = (w[1] - waitMark[1]) / 1e9;
            long rounds = w[2] - waitMark[2];
            return String.format(Locale.ROOT, "GETs that waited for a pending record: %d, %.2f s in all (%.3f ms"
                + " each); migration rounds that waited for replica leases: %d, %.2f s in all; keys forgotten with"
                + " every replica run out: %d", gets, getSeconds, gets == 0 ? 0 : getSeconds * 1e3 / gets, rounds,
                (w[3] - waitMark[3]) / 1e3, w[4] - waitMark[4]);
        }

        /** Every machine's GET settle waits (count, ns), replica waits of migrations (count, ms), keys forgotten. */
        private long[] waits() {
            long[] w = new long[5];
            for (int m = 0; m < cluster.machineCount(); m++) {
                MachineStore store = cluster.machine(m).store();
                ReplicaRegistry r = store.replication().registry();
                w[0] += store.settleWaits();
                w[1] += store.settleWaitNanos();
                w[2] += r.migrationWaits();
                w[3] += r.migrationWaitMillis();
                w[4] += r.forgotten();
            }
            return w;
        }

        @Override
        public void markInstantPolls() {
            pollMark = control.instantPolls();
            pollMarkNanos = System.nanoTime();
            waitMark = waits();
        }

        @Override
        public String instantPollsSinceMark() {
            MigrationControl.InstantPolls p = control.instantPolls().minus(pollMark);
            double seconds = (System.nanoTime() - pollMarkNanos) / 1e9;
            return String.format(Locale.ROOT, "instant-report polls: %d in %.1f s (one per %.0f ms), %.1f ms"
                    + " each on average, %d migrations approved by them; %d interval ends, %.1f ms each on average"
                    + " (decision %.1f ms); the monitors' %d steps held the polls up at most %.3f ms each, the"
                    + " decisions at most %.3f ms",
                p.polls(), seconds, p.polls() == 0 ? Double.NaN : 1e3 * seconds / p.polls(),
                p.polls() == 0 ? Double.NaN : p.nanos() / 1e6 / p.polls(), p.approvals(), p.intervalEnds(),
                p.intervalEnds() == 0 ? Double.NaN : p.intervalEndNanos() / 1e6 / p.intervalEnds(),
                p.intervalEnds() == 0 ? Double.NaN : p.decisionNanos() / 1e6 / p.intervalEnds(), p.holdSteps(),
                p.longestHoldMillisAtMost(), p.longestDecisionMillisAtMost());
        }

        @Override
        public long migratedBytes() {
            return control.migratedBytes();
        }

        @Override
        public void startAutomatic() {
            control.startAutomatic();
        }

        @Override
        public void runAutomatically() {
            control.runAutomatically();
        }

        @Override
        public void close() {
            control.close();
        }
    }

    /** Per-shard counting through every machine's access observer; the baseline's shard mover. */
    private final class Shards implements ShardMigration {
        private final ShardAccessCounts counts = new ShardAccessCounts(shards);

        @Override
        public void startTracking() {
            counts.reset();
            for (int m = 0; m < cluster.machineCount(); m++) {
                cluster.machine(m).store().setAccessObserver(counts.observerFor(m));
            }
        }

        @Override
        public void stopTracking() {
            for (Machine m : machines()) {
                m.store().setAccessObserver(null);
            }
        }

        private Machine[] machines() {
            Machine[] all = new Machine[cluster.machineCount()];
            for (int m = 0; m < all.length; m++) {
                all[m] = cluster.machine(m);
            }
            return all;
        }

        @Override
        public Moved moveToReaders(ShardPlan plan) {
            ShardMover mover = new ShardMover(cluster, shards);
            int moved = mover.apply(counts.plan(plan));
            return new Moved(moved, shards.shards(), mover.keysMoved(), mover.bytesMoved());
        }
    }
}
