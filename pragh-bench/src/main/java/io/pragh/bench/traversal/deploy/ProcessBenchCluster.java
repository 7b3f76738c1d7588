package io.pragh.bench.traversal.deploy;

import io.pragh.fabric.FabricStats;
import io.pragh.keys.Placement;
import io.pragh.bench.extension.BenchClient;
import io.pragh.bench.extension.BenchExtension;
import io.pragh.bench.extension.ClientShardHosts;
import io.pragh.bench.shard.ShardAccessCounts;
import io.pragh.bench.shard.ShardMover;
import io.pragh.bench.shard.ShardPlan;
import io.pragh.bench.shard.ShardPlacement;
import io.pragh.server.cli.LocalCluster;
import io.pragh.server.config.ClusterConfig;
import io.pragh.server.rpc.Decided;
import io.pragh.server.rpc.MachineClient;
import io.pragh.server.rpc.MachineStats;
import io.pragh.store.Replicas;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A bench cluster of server processes on 127.0.0.1, one JVM per machine, started as {@code ./pragh cluster start}
 * starts them ({@link LocalCluster}) with the mode's region sizes, cache and placement, over the TCP fabric with its
 * secret handshake and real loopback latency. No ZooKeeper (nothing crashes here) and no Gremlin port; durability
 * logs without forcing ({@code sync: none}). The servers run the bench extension ({@code extensions: [bench]}, from
 * this JVM's class path, which they share), so the benchmark's clients reach them over the client RPC and its
 * operations: a two-hop is one K_HOP_COUNT request to the start vertex's home, which runs it there; an edge insert
 * one ADD_EDGE_CAPPED. Split migration runs with {@code policy.trigger: manual}, its phases driven over the RPC
 * (MONITOR_START, END_INTERVAL, DECIDE, STATS); the shard baseline's moves use its {@link ShardMover} through
 * {@link ClientShardHosts}. The servers are tied to this JVM: they stop when it exits, however it exits.
 *
 * <pre>{@code
 * try (BenchCluster c = ProcessBenchCluster.start(spec, null, "orig", "[orig]", System.out)) {
 *     try (QueryPath p = c.openPath()) { p.kHop(start, 0, 2, 100, false); }
 * }
 * }</pre>
 */
public final class ProcessBenchCluster implements BenchCluster {
    private static final Logger LOG = LoggerFactory.getLogger(ProcessBenchCluster.class);

    /** How long a request may take: the benchmark shares two cores with its servers, so slow is not lost. */
    static final int REQUEST_TIMEOUT_MILLIS = 30_000;
    static final long START_TIMEOUT_MILLIS = 180_000;
    private static final long POLL_MILLIS = 20;

    private final ClusterSpec spec;
    private final LocalCluster cluster;
    private final Path removeOnClose;
    private final MachineClient[] control;
    private final Placement hashed;
    private final ShardPlacement shards;

    private ProcessBenchCluster(ClusterSpec spec, LocalCluster cluster, Path removeOnClose) {
        this.spec = spec;
        this.cluster = cluster;
        this.removeOnClose = removeOnClose;
        this.control = new MachineClient[spec.machines()];
        for (int m = 0; m < control.length; m++) {
            control[m] = client(m);
        }
        this.hashed = Placement.hashed(spec.machines());
        // The benchmark's copy of the shard table: the servers start from the same one, and moves update both.
        this.shards = spec.sharded() ? new ShardPlacement(spec.machines(), spec.shardsPerMachine()) : null;
    }

    /**
     * Starts the cluster of {@code spec} in {@code parent/name} ({@link #freeDirectory}; or a temporary directory, removed at close, when
     * {@code parent} is null) and returns once every machine serves; on failure nothing is left running.
     */
    public static ProcessBenchCluster start(ClusterSpec spec, Path parent, String name, String tag, PrintStream out) {
        return start(spec, parent, name, tag, out, UnaryOperator.identity());
    }

    /** As above, the cluster file's settings changed by {@code more} (e.g. the RDF benchmark's {@code sparql}). */
    public static ProcessBenchCluster start(ClusterSpec spec, Path parent, String name, String tag, PrintStream out,
                                            UnaryOperator<LocalCluster.Settings> more) {
        Path dir;
        Path removeOnClose = null;
        try {
            if (parent == null) {
                dir = Files.createTempDirectory("pragh-bench-" + name + "-");
                removeOnClose = dir;
            } else {
                dir = freeDirectory(parent, name);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make a directory for the " + name + " cluster: " + e.getMessage(), e);
        }
        LocalCluster cluster;
        try {
            cluster = LocalCluster.create(dir, more.apply(settings(spec)));
        } catch (RuntimeException | Error e) {
            remove(removeOnClose);
            throw e;
        }
        out.printf(Locale.ROOT, "%s starting %d server process(es) in %s%n", tag, spec.machines(), dir);
        int metrics = cluster.config().metrics().port(0);
        if (metrics != 0) {
            // Scrape them while the mode runs, e.g. to watch the remote access rate fall after a migration.
            out.printf(Locale.ROOT, "%s metrics: http://127.0.0.1:%d/metrics (machine 0) to :%d (machine %d)%n", tag,
                metrics, metrics + spec.machines() - 1, spec.machines() - 1);
        }
        try {
            cluster.startAll(true, START_TIMEOUT_MILLIS);
            return new ProcessBenchCluster(spec, cluster, removeOnClose);
        } catch (RuntimeException | Error e) {
            cluster.stopAll();
            // The servers' logs say why they did not serve: the directory stays, temporary or not.
            out.printf(Locale.ROOT, "%s the cluster did not start; its files and server logs are kept in %s%n", tag,
                dir);
            throw e;
        }
    }

    /**
     * {@code parent/name}, or {@code parent/name-2}, {@code -3} ... when a cluster already lives there: a rerun, or a
     * scenario that runs a mode once per scope or mechanism, keeps every earlier cluster's files and logs.
     */
    static Path freeDirectory(Path parent, String name) {
        Path dir = parent.resolve(name);
        for (int n = 2; Files.exists(dir.resolve(LocalCluster.CONFIG)); n++) {
            dir = parent.resolve(name + "-" + n);
        }
        return dir;
    }

    /** The cluster file's settings for {@code spec}: sizes, cache, the manual split policy, the placement. */
    static LocalCluster.Settings settings(ClusterSpec spec) {
        String interval = spec.intervalMillis() + "ms";
        LocalCluster.Settings s = LocalCluster.Settings.defaults(spec.machines())
            .withGremlinPortBase(LocalCluster.Settings.NO_GREMLIN)
            .withZooKeeper(LocalCluster.Settings.NO_MEMBERSHIP)
            .withSync("none")
            .withStore(Long.toString(spec.valueBytes()), spec.keysPerMachine(), Long.toString(spec.cacheBytes()))
            .withRequestTimeout("10s")
            .withJvmArgs(List.of("-Xmx512m"))
            .withSection("extensions", "[" + BenchExtension.NAME + "]")
            .withSection("policy", String.format(Locale.ROOT, "{trigger: manual, reportInterval: %s,%s migration: %s}",
                interval, spec.minRate() > 0 ? " minimumRate: " + spec.minRate() + "," : "",
                spec.mechanism().name().toLowerCase(Locale.ROOT)));
        if (spec.replicaBytes() > 0) {
            s = s.withSection("replicas", "{bytesPerMachine: " + spec.replicas().bytesPerMachine() + ", lease: "
                + spec.replicas().leaseMillis() + "ms}");
        }
        return spec.sharded()
            ? s.withSection("placement", "{kind: " + BenchExtension.SHARDS + ", shardsPerMachine: "
                + spec.shardsPerMachine() + "}") : s;
    }

    private MachineClient client(int machine) {
        return new MachineClient(cluster.clientAddress(machine), REQUEST_TIMEOUT_MILLIS, cluster.config().secret(),
            cluster.config().tls());
    }

    /** The cluster file every server read (its ports, secret and sections). */
    public ClusterConfig config() {
        return cluster.config();
    }

    /** The directory of the cluster (its file, data and server logs). */
    public Path directory() {
        return cluster.directory();
    }

    @Override
    public int machineCount() {
        return spec.machines();
    }

    @Override
    public int home(long key) {
        return shards != null ? shards.home(key) : hashed.home(key);
    }

    @Override
    public QueryPath openPath() {
        return new RpcQueryPath(spec.machines(), this::home, this::client);
    }

    private MachineStats[] allStats() {
        MachineStats[] all = new MachineStats[control.length];
        for (int m = 0; m < all.length; m++) {
            all[m] = control[m].stats();
        }
        return all;
    }

    @Override
    public FabricStats.Snapshot stats() {
        FabricStats.Snapshot sum = FabricStats.Snapshot.ZERO;
        for (MachineStats s : allStats()) {
            sum = sum.plus(s.fabric());
        }
        return sum;
    }

    @Override
    public long forwardedUpdates() {
        long n = 0;
        for (MachineStats s : allStats()) {
            n += s.forwardedUpdates();
        }
        return n;
    }

    @Override
    public SplitMigration splitMigration() {
        return new Split();
    }

    @Override
    public ShardMigration shardMigration() {
        spec.requireSharded();
        return new Shards();
    }

    @Override
    public String describe() {
        StringBuilder b = new StringBuilder("fabric: tcp, ").append(spec.machines())
            .append(" server process(es) on 127.0.0.1, client ports");
        for (int m = 0; m < spec.machines(); m++) {
            b.append(' ').append(cluster.clientAddress(m).getPort());
        }
        return b.append(" (real loopback latency; --remote-latency-ns not used)").toString();
    }

    /** Stops every server (SIGTERM, then kill -9), then removes a temporary directory. */
    @Override
    public void close() {
        try {
            for (MachineClient c : control) {
                c.close();
            }
            cluster.stopAll();
        } finally {
            remove(removeOnClose);
        }
    }

    /** Removes a temporary directory and everything in it; null: nothing to remove. */
    private static void remove(Path dir) {
        if (dir == null) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            LOG.warn("could not remove {}: {}", dir, e.getMessage());
        }
    }

    /**
     * Split migration over the RPC: the servers run {@code policy.trigger: manual}, so their monitors count only
     * from MONITOR_START and decide only on DECIDE; instant reports are not used (as in the in-process benchmark's
     * phased runs). Migrations are awaited by polling every machine's counters until all approved ones are done.
     */
    private final class Split implements SplitMigration {
        private long valuesAtStart;
        private long bytesAtStart;
        private Thread automatic;
        private volatile boolean closed;

        @Override
        public void start() {
            MachineStats[] s = allStats();
            for (MachineStats m : s) {
                valuesAtStart += m.valuesMigrated();
                bytesAtStart += m.migrationBytes();
            }
            for (MachineClient c : control) {
                c.startMonitoring();
            }
        }

        @Override
        public Interval endInterval() {
            for (MachineClient c : control) {
                c.endInterval();
            }
            int coordinator = 0;
            for (int m = 0; m < control.length; m++) {
                if (control[m].stats().coordinator()) {
                    coordinator = m;
                }
            }
            Decided d = control[coordinator].decide(REQUEST_TIMEOUT_MILLIS / 3);
            return new Interval(d.approvals(), d.track(), d.untrack());
        }

        @Override
        public long awaitMigrations(long timeoutMillis) throws Exception {
            long deadline = System.nanoTime() + timeoutMillis * 1_000_000;
            while (true) {
                long approvals = 0;
                long requested = 0;
                long done = 0;
                for (MachineStats m : allStats()) {
                    approvals += m.approvals();
                    requested += m.migrationsRequested();
                    done += m.migrationsDone();
                }
                // Every approval reaches its target as one MIGRATE request (a DECISION message on the fabric).
                if (requested >= approvals && done == requested) {
                    return migratedKeys();
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("migrations not done within " + timeoutMillis + " ms: " + approvals
                        + " approved, " + requested + " requested at their targets, " + done + " done");
                }
                Thread.sleep(POLL_MILLIS);
            }
        }

        /** Replicas the holders placed so far (new copies; a replica kept on a later offer is not counted again). */
        @Override
        public long replicasPlaced() {
            return replicaCounts().placed();
        }

        @Override
        public String replicaSummary() {
            return replicaCounts().describe();
        }

        private Replicas.Counts replicaCounts() {
            Replicas.Counts sum = Replicas.Counts.ZERO;
            for (MachineStats m : allStats()) {
                sum = sum.plus(m.replicas());
            }
            return sum;
        }

        @Override
        public long migratedKeys() {
            long n = 0;
            for (MachineStats m : allStats()) {
                n += m.valuesMigrated();
            }
            return n - valuesAtStart;
        }

        @Override
        public long migratedBytes() {
            long n = 0;
            for (MachineStats m : allStats()) {
                n += m.migrationBytes();
            }
            return n - bytesAtStart;
        }

        @Override
        public synchronized void startAutomatic() {
            if (automatic != null) {
                return;
            }
            start();
            runAutomatically();
        }

        @Override
        public synchronized void runAutomatically() {
            if (automatic != null) {
                return;
            }
            automatic = new Thread(() -> {
                while (!closed) {
                    try {
                        Thread.sleep(spec.intervalMillis());
                        endInterval();
                    } catch (InterruptedException e) {
                        return;
                    } catch (RuntimeException e) {
                        if (!closed) {
                            LOG.warn("ending a migration interval failed: {}", e.getMessage());
                        }
                    }
                }
            }, "pragh-bench-migration-intervals");
            automatic.setDaemon(true);
            automatic.start();
        }

        @Override
        public void close() {
            closed = true;
            Thread t;
            synchronized (this) {
                t = automatic;
            }
            if (t != null) {
                t.interrupt();
                try {
                    // Past the longest call it may be in (a DECIDE: the request timeout plus its wait for reports),
                    // so that no call of it outlives the control clients' close.
                    t.join(2L * REQUEST_TIMEOUT_MILLIS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    /** Per-shard counts gathered from every machine; the baseline's mover over the client RPC. */
    private final class Shards implements ShardMigration {
        private final ShardAccessCounts counts = new ShardAccessCounts(shards);
        private final List<BenchClient> machines = Stream.of(control).map(BenchClient::new).toList();

        @Override
        public void startTracking() {
            counts.reset();
            for (BenchClient c : machines) {
                c.trackShards(true);
            }
        }

        @Override
        public void stopTracking() {
            for (int m = 0; m < machines.size(); m++) {
                machines.get(m).trackShards(false);
                long[] byShard = machines.get(m).shardCounts();
                for (int s = 0; s < byShard.length; s++) {
                    counts.add(s, m, byShard[s]);
                }
            }
        }

        @Override
        public Moved moveToReaders(ShardPlan plan) {
            ShardMover mover = new ShardMover(new ClientShardHosts(machines), shards);
            int moved = mover.apply(counts.plan(plan));
            return new Moved(moved, shards.shards(), mover.keysMoved(), mover.bytesMoved());
        }
    }
}
