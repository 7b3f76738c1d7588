package io.pragh.bench.traversal;

import io.pragh.bench.shard.ShardPlan;
import io.pragh.bench.traversal.deploy.BenchCluster;
import io.pragh.bench.traversal.deploy.CompulsoryReads;
import io.pragh.bench.traversal.deploy.EmbeddedBenchCluster;
import io.pragh.bench.traversal.deploy.ReadCensus;
import io.pragh.bench.traversal.deploy.ShardMigration;
import io.pragh.bench.traversal.deploy.SplitMigration;
import io.pragh.fabric.FabricStats;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongPredicate;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * One mode on one loaded cluster, its query threads running: the phases of the benchmark (timed phases with
 * progress once a second, the mode's migration, the measurement) as steps a scenario composes. {@link
 * #runPhases} is the traversal benchmark's sequence; the scenarios add a timeline sampler, a scope shift or
 * automatic migration around the same steps.
 *
 * <pre>{@code
 * try (ModeSession s = runner.open(Mode.SPLIT_CACHE)) {
 *     ModeResult r = s.runPhases().result();
 * }
 * }</pre>
 */
public final class ModeSession implements AutoCloseable {
    /** What a migration step moved. */
    public record Moved(long keys, long bytes) {
        public static final Moved NOTHING = new Moved(0, 0);
    }

    /** A measurement phase: the report's row, and the latency histograms of all queries and of PUTs alone. */
    public record Measurement(ModeResult result, Histogram latencies, Histogram putLatencies) {
    }

    private final Phases config;
    private final Mode mode;
    private final BenchCluster cluster;
    private final long keys;
    private final String tag;
    private final PrintStream out;
    private final StartVertices startVertices;
    private final QueryThread.Counters w;
    private final Clients clients;
    private TimelineSampler timeline;
    /** The split migration control of this session (phased or automatic), closed with it. */
    private SplitMigration automatic;
    /** Whether split migration runs on by itself through the measurement ({@link #liveControl(boolean)}). */
    private boolean liveControl;
    /** The plan the shard baseline moves by. */
    private ShardPlan shardPlan = ShardPlan.BALANCED;
    /** Keys of the loaded graph's two-hop reads when a read census runs through the measurement, else null. */
    private LongPredicate censusKeys;
    /** The compulsory reads counted since the first query when a read census runs, else null. */
    private CompulsoryReads compulsory;

    /**
     * Starts {@code phases.threads()} query threads of {@code workload} on {@code cluster}, loaded with {@code keys}
     * keys; the session owns the cluster from here on.
     *
     * @param startVertices the workload's start vertices if a scenario may replace them, else null
     */
    public ModeSession(Phases phases, Mode mode, BenchCluster cluster, long keys, ClientWorkload workload,
                       StartVertices startVertices, PrintStream out) {
        this.config = phases;
        this.mode = mode;
        this.cluster = cluster;
        this.keys = keys;
        this.tag = "[" + mode.reportName() + "]";
        this.out = out;
        this.startVertices = startVertices;
        this.w = new QueryThread.Counters(new Recorder(3), new Recorder(3), new LongAdder(), new LongAdder());
        this.clients = new Clients(workload, w, cluster, phases.threads());
        clients.start();
    }

    public Mode mode() {
        return mode;
    }

    /**
     * Split modes: whether the control plane keeps running through the measurement after the phased intervals
     * (intervals end by themselves, instant reports and replica offers are acted on), as in a running system; off,
     * what the intervals before the measurement did stays as it is. Returns this session.
     */
    public ModeSession liveControl(boolean on) {
        this.liveControl = on;
        return this;
    }

    /**
     * Counts the measurement's value reads per key and reader and prints where the remote ones above the window's
     * single-copy floor come from ({@link ReadCensus}; in-process clusters only); {@code loaded} says whether a key is
     * among the loaded graph's two-hop reads. A diagnostic: {@code -Dpragh.bench.census=true}. Returns this session.
     */
    public ModeSession census(LongPredicate loaded) {
        this.censusKeys = loaded;
        return this;
    }

    /**
     * The plan the shard mode moves by: {@link ShardPlan#BALANCED} (the default, the paper's baseline: every machine
     * keeps its one hundred shards) or {@link ShardPlan#UNBOUNDED}. Returns this session.
     */
    public ModeSession shardPlan(ShardPlan plan) {
        this.shardPlan = plan;
        return this;
    }

    /**
     * Also prints the measurement's compulsory remote reads ({@link CompulsoryReads}, counted by the caller from
     * before the first query). Returns this session.
     */
    public ModeSession census(LongPredicate loaded, CompulsoryReads compulsoryReads) {
        this.compulsory = compulsoryReads;
        return census(loaded);
    }

    public BenchCluster cluster() {
        return cluster;
    }

    /** Keys loaded (adjacency lists of the vertices with edges). */
    public long keys() {
        return keys;
    }

    public StartVertices startVertices() {
        if (startVertices == null) {
            throw new IllegalStateException("this workload's start vertices cannot be replaced");
        }
        return startVertices;
    }

    /** Starts sampling throughput and remote access rate every {@code tickSeconds}; stopped on close. */
    public TimelineSampler startTimeline(double tickSeconds) {
        if (timeline != null) {
            throw new IllegalStateException("the timeline is already sampled");
        }
        timeline = new TimelineSampler(cluster, w.queries(), tickSeconds);
        return timeline;
    }

    /** Warm-up, the mode's migration, the measurement: the traversal benchmark's sequence. */
    public Measurement runPhases() throws Exception {
        phase("warm-up", config.warmupSeconds());
        return measure(migrate());
    }

    /** The mode's migration: split's monitoring intervals, shard's tracked interval and move; else nothing. */
    public Moved migrate() throws Exception {
        return switch (mode) {
            case SPLIT, SPLIT_CACHE, SPLIT_CACHE_REPLICA -> splitMigration();
            case SHARD -> shardMigration();
            default -> Moved.NOTHING;
        };
    }

    /** The measurement phase of {@code --duration}; {@code moved} is what the migration before it moved. */
    public Measurement measure(Moved moved) throws Exception {
        w.latencies().getIntervalHistogram();
        w.putLatencies().getIntervalHistogram();
        long q0 = w.queries().sum();
        long p0 = w.puts().sum();
        long f0 = cluster.forwardedUpdates();
        FabricStats.Snapshot s0 = cluster.stats();
        if (liveControl && automatic != null) {
            automatic.markInstantPolls();
            automatic.runAutomatically();
        }
        if (compulsory != null) {
            compulsory.chainInFront(); // behind the census, which chains in front of it and puts it back
            compulsory.openWindow();
        }
        ReadCensus census = censusKeys != null && cluster instanceof EmbeddedBenchCluster e
            ? ReadCensus.start(e.cluster()) : null;
        long m0 = System.nanoTime();
        long cpu0 = ProcessCpu.nanos();
        // In this JVM only: over server processes the machines' threads are not ours to see.
        DutyCpu.Window duties = cluster instanceof EmbeddedBenchCluster ? DutyCpu.open() : null;
        phase("measurement", config.durationSeconds());
        DutyCpu.Split byDuty = duties == null ? null : duties.close();
        long cpuNanos = ProcessCpu.nanos() - cpu0;
        if (census != null) {
            out.print(tag + " " + census.stop(censusKeys));
        }
        if (compulsory != null) {
            out.print(tag + " " + compulsory.closeWindow());
        }
        if (liveControl && automatic != null && !automatic.instantPollsSinceMark().isEmpty()) {
            out.printf(Locale.ROOT, "%s %s%n", tag, automatic.instantPollsSinceMark());
        }
        if (mode == Mode.SPLIT_CACHE_REPLICA && automatic != null) {
            out.printf(Locale.ROOT, "%s %s%n", tag, automatic.replicaSummary());
        }
        if (liveControl && automatic != null && !automatic.waitsSinceMark().isEmpty()) {
            out.printf(Locale.ROOT, "%s %s%n", tag, automatic.waitsSinceMark());
        }
        double seconds = (System.nanoTime() - m0) / 1e9;
        FabricStats.Snapshot s1 = cluster.stats();
        Histogram h = w.latencies().getIntervalHistogram();
        Histogram puts = w.putLatencies().getIntervalHistogram();
        long queries = w.queries().sum() - q0;
        out.println(tag + " " + ProcessCpu.perQuery(cpuNanos, seconds, queries));
        if (byDuty != null) {
            out.println(tag + " " + byDuty.line(queries));
        }
        ModeResult r = new ModeResult(queries / seconds, ms(h.getValueAtPercentile(50)),
            ms(h.getValueAtPercentile(99)), ms(h.getValueAtPercentile(99.9)),
            s1.minus(s0).remoteAccessRate(), moved.keys(), (double) moved.keys() / keys, moved.bytes(),
            cluster.forwardedUpdates() - f0, w.puts().sum() - p0, queries);
        return new Measurement(byDuty == null ? r : r.withCpuByDuty(byDuty.usPerQuery(queries)), h, puts);
    }

    /**
     * Split modes only: monitors and a coordinator that migrate by themselves at the end of every {@code --interval}
     * (and, in this JVM, on instant reports), until the session closes.
     */
    public SplitMigration startAutomaticMigration() {
        if (!mode.split()) {
            throw new IllegalStateException(mode.reportName() + " does not migrate by itself");
        }
        if (automatic != null) {
            throw new IllegalStateException("split migration already runs in this session");
        }
        automatic = cluster.splitMigration();
        automatic.startAutomatic();
        return automatic;
    }

    /**
     * Monitoring intervals (one eager, two deferred by default), each followed by the migrations it approved. The
     * monitors stay on through the measurement, as they do in a running system; the session's close stops them.
     */
    private Moved splitMigration() throws Exception {
        SplitMigration control = cluster.splitMigration();
        automatic = control;
        control.start();
        if (compulsory != null) {
            compulsory.chainInFront(); // the monitors replaced every machine's observer
        }
        for (int i = 1; i <= config.intervals(); i++) {
            phase("monitoring interval " + i, config.intervalSeconds());
            // Before the decision: its first migrations may finish before endInterval returns.
            long before = control.migratedKeys();
            SplitMigration.Interval d = control.endInterval();
            out.printf(Locale.ROOT, "%s interval %d: %d migrations approved, %d keys to track, %d to untrack%n", tag,
                i, d.approvals(), d.track(), d.untrack());
            event("interval " + i + " ends: " + d.approvals() + " migrations approved, " + d.track()
                + " keys to track");
            label("migration " + i);
            long t0 = System.nanoTime();
            long moved = control.awaitMigrations(120_000) - before;
            out.printf(Locale.ROOT, "%s migration: %d values moved in %.2f s while queries ran (%d bytes in all)%n",
                tag, moved, (System.nanoTime() - t0) / 1e9, control.migratedBytes());
            if (mode == Mode.SPLIT_CACHE_REPLICA) {
                out.printf(Locale.ROOT, "%s read replicas placed or kept so far: %d%n", tag, control.replicasPlaced());
            }
            event("migration " + i + " done: " + moved + " values moved");
            clients.check();
        }
        return new Moved(control.migratedKeys(), control.migratedBytes());
    }

    /** One interval of full per-shard tracking, then the optimal plan applied with the clients paused. */
    private Moved shardMigration() throws Exception {
        ShardMigration shards = cluster.shardMigration();
        shards.startTracking();
        phase("monitoring interval", config.intervalSeconds());
        shards.stopTracking();
        label("shard move");
        clients.stop();
        long t0 = System.nanoTime();
        ShardMigration.Moved moved = shards.moveToReaders(shardPlan);
        out.printf(Locale.ROOT, "%s migration: %d of %d shards (%d keys, %d bytes) moved in %.2f s, clients paused%n",
            tag, moved.shards(), moved.totalShards(), moved.keys(), moved.bytes(), (System.nanoTime() - t0) / 1e9);
        event("shard move done: " + moved.shards() + " shards");
        clients.start();
        return new Moved(moved.keys(), moved.bytes());
    }

    /** Runs the queries for {@code seconds}, printing the phase, elapsed time and throughput once a second. */
    public void phase(String name, double seconds) throws InterruptedException {
        label(name);
        long start = System.nanoTime();
        long end = start + (long) (seconds * 1e9);
        long lastQueries = w.queries().sum();
        long lastT = start;
        while (true) {
            long now = System.nanoTime();
            if (now >= end) {
                break;
            }
            Thread.sleep(Math.max(1, Math.min(1000, (end - now) / 1_000_000)));
            clients.check();
            long t = System.nanoTime();
            long q = w.queries().sum();
            out.printf(Locale.ROOT, "%s %-22s %5.1f/%.1f s %12.0f q/s%n", tag, name, (t - start) / 1e9, seconds,
                (q - lastQueries) / ((t - lastT) / 1e9));
            lastQueries = q;
            lastT = t;
        }
    }

    /** Records an event on the timeline, if one is sampled. */
    public void event(String what) {
        if (timeline != null) {
            timeline.event(what);
        }
    }

    private void label(String phase) {
        if (timeline != null) {
            timeline.phase(phase);
        }
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }

    /** Stops the query threads, the timeline and automatic migration, then the cluster. */
    @Override
    public void close() throws Exception {
        // Nested so that the cluster (server processes, with --fabric tcp) is closed whatever the others throw.
        try {
            clients.stop();
        } finally {
            try {
                if (timeline != null) {
                    timeline.stop();
                }
            } finally {
                try {
                    if (automatic != null) {
                        automatic.close();
                    }
                } finally {
                    cluster.close();
                }
            }
        }
    }

    /** The query threads of one mode; stopped and started again (a new generation) around a shard move. */
    private static final class Clients {
        /** Past the client RPC's request timeout (30 s), so that a stopped thread has finished its last request. */
        private static final long STOP_MILLIS = 60_000;
        private final ClientWorkload workload;
        private final QueryThread.Counters w;
        private final BenchCluster cluster;
        private final int count;
        private final List<QueryThread> queries = new ArrayList<>();
        private final List<Thread> threads = new ArrayList<>();
        private int generation;

        Clients(ClientWorkload workload, QueryThread.Counters w, BenchCluster cluster, int count) {
            this.workload = workload;
            this.w = w;
            this.cluster = cluster;
            this.count = count;
        }

        void start() {
            for (int i = 0; i < count; i++) {
                QueryThread q = new QueryThread(i, generation, workload, w, cluster);
                Thread t = new Thread(q, "pragh-bench-query-" + generation + "-" + i);
                t.setDaemon(true);
                queries.add(q);
                threads.add(t);
                t.start();
            }
            generation++;
        }

        void stop() throws InterruptedException {
            queries.forEach(QueryThread::stop);
            for (Thread t : threads) {
                // Longer than any request may take: a thread still inside an edge insert would write during a shard
                // move, which the mover does not support.
                t.join(STOP_MILLIS);
                if (t.isAlive()) {
                    throw new IllegalStateException(t.getName() + " did not stop within " + STOP_MILLIS + " ms");
                }
            }
            check();
            queries.clear();
            threads.clear();
        }

        void check() {
            for (QueryThread q : queries) {
                if (q.failure() != null) {
                    throw new IllegalStateException("a query thread failed: " + q.failure(), q.failure());
                }
            }
        }
    }
}
