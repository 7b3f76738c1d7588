package io.pragh.embedded;

import io.pragh.coordinator.Coordinator;
import io.pragh.coordinator.CoordinatorConfig;
import io.pragh.coordinator.DecisionLog;
import io.pragh.coordinator.Decisions;
import io.pragh.coordinator.ReplicaPolicy;
import io.pragh.fabric.FabricStats;
import io.pragh.migration.Migrator;
import io.pragh.monitor.Monitor;
import io.pragh.monitor.MonitorConfig;
import io.pragh.monitor.MonitorReport;
import io.pragh.reclaim.Leases;
import io.pragh.runtime.DutyThread;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The control plane of split migration in an embedded cluster: one monitor per machine (installed as the machine's
 * access observer), one coordinator, and the application of its decisions (tracking requests to monitors, approved
 * MIGRATEs to the targets' migration threads). Driven either by the caller ({@link #endInterval}, as the benchmark
 * does to control its phases) or by its own thread ({@link #startAutomatic}): instant reports are polled every
 * 100 ms and intervals end on the monitor's schedule, so migration happens by itself; or first one, then the other
 * ({@link #runAutomatically}: the benchmark's {@code --control live}). With read replicas on, the keys the replica
 * policy placed replicas of are kept in place by the coordinator ({@link Coordinator#keepInPlace}).
 *
 * <p>The automatic thread ends an interval in steps ({@link #beginIntervalEnd}, {@link #continueIntervalEnd}): one
 * slice of one machine's monitor at a time ({@link Monitor#continueEnd}), then the coordinator's decision, with the
 * instant polls run between them whenever one is due. Made in one go, the end (8 location caches of 128 MiB at scale
 * 20) held the polls up for 440-843 ms every interval: reads were not reported instantly meanwhile.
 *
 * <pre>{@code
 * MigrationControl control = new MigrationControl(cluster, MonitorConfig.defaults(), CoordinatorConfig.defaults());
 * control.startAutomatic();          // or: control.start(); ... control.endInterval(); control.awaitMigrations(60_000);
 * }</pre>
 */
public final class MigrationControl implements AutoCloseable {
    private static final long INSTANT_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    /** Polls of instant reports take at most 1/this of the control thread's time (see {@link #runAutomatically}). */
    private static final long POLL_DUTY_INVERSE = 10;
    /** Replicas offered to one machine per interval at most ({@link ReplicaPolicy}). */
    private static final int REPLICAS_PER_MACHINE = 16_384;

    private final EmbeddedCluster cluster;
    private final Monitor[] monitors;
    private final Coordinator coordinator;
    private final List<CompletableFuture<Migrator.Outcome>> inFlight = new ArrayList<>();
    private final AtomicLong migrated = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final DecisionLog decisionLog = new DecisionLog();
    /** The cluster's fabric counts when the last interval ended: the decision line's remote access rate. */
    private FabricStats.Snapshot statsAtInterval = FabricStats.Snapshot.ZERO;
    private long bytesAtStart;
    private DutyThread automatic;
    /** Replicas chosen at the last interval's end, placed once its migrations are done (see {@link #reapFinished}). */
    private List<ReplicaPolicy.Choice> replicasToPlace = List.of();
    private long replicasOffered;
    /** Instant-report polls so far, their time in all and migrations they approved (see {@link #instantPolls}). */
    private long polls;
    private long pollNanos;
    private long pollApprovals;
    private long intervalEnds;
    private long intervalEndNanos;
    /**
     * How long each step of an interval end held the polls up: the monitors' steps (the begin, a slice; an end in one
     * go is one step) and the coordinator's decisions apart, each a count per power of two of microseconds, so that a
     * window's longest is a difference of two snapshots.
     */
    private final long[] holds = new long[HOLD_BUCKETS];
    private final long[] decisionHolds = new long[HOLD_BUCKETS];
    private long decisionNanos;
    /** The interval end under way in steps: the reports so far (by machine), or null when none is. */
    private List<MonitorReport> endReports;
    /** While {@link #endInterval} makes every step at once: the polls wait for all of them, one hold. */
    private boolean inOneGo;
    private static final int HOLD_BUCKETS = 32;

    public MigrationControl(EmbeddedCluster cluster, MonitorConfig monitorConfig, CoordinatorConfig coordinatorConfig) {
        this.cluster = cluster;
        this.monitors = new Monitor[cluster.machineCount()];
        for (int m = 0; m < monitors.length; m++) {
            var store = cluster.machine(m).store();
            monitors[m] = new Monitor(m, store.placement(), store.cache(), monitorConfig);
        }
        this.coordinator = new Coordinator(cluster.machineCount(), cluster.placement(), coordinatorConfig);
    }

    public Monitor[] monitors() {
        return monitors;
    }

    public Coordinator coordinator() {
        return coordinator;
    }

    /** Installs every monitor as its machine's access observer and starts the first interval. */
    public synchronized void start() {
        long now = Leases.nowMillis();
        for (Monitor m : monitors) {
            m.start(now);
            cluster.machine(m.machine()).store().setAccessObserver(m);
        }
        bytesAtStart = bytesMoved();
        statsAtInterval = cluster.stats();
    }

    /** Starts monitoring and a thread that migrates on instant reports and at the end of every interval. */
    public synchronized void startAutomatic() {
        if (automatic != null) {
            return;
        }
        start();
        runAutomatically();
    }

    /**
     * Started already (by {@link #start}, the caller ending intervals so far): from now on a thread polls instant
     * reports and ends intervals by itself, as {@link #startAutomatic} does, until {@link #close}. It polls every
     * 100 ms, or less often when a poll takes more than a tenth of the time between polls (a large cache on a busy
     * CPU): the control plane's share of a core stays bounded, and the queries keep theirs.
     */
    public synchronized void runAutomatically() {
        if (automatic != null) {
            return;
        }
        long intervalNanos = TimeUnit.MILLISECONDS.toNanos(monitors[0].config().intervalMillis());
        automatic = new DutyThread("migration-control", INSTANT_POLL_NANOS) {
            private long intervalEnds = System.nanoTime() + intervalNanos;
            private long nextPoll = System.nanoTime();

            @Override
            protected int doWork() {
                long start = System.nanoTime();
                if (start >= nextPoll) {
                    pollInstant();
                    // A poll costs the keys that became busy, but a burst of them on a busy CPU can make it long: the
                    // next one waits so that polling takes at most a tenth of this thread's time (and comes 100 ms
                    // after this one at the soonest, also while an interval end's steps keep the thread from parking).
                    nextPoll = start + Math.max(INSTANT_POLL_NANOS, POLL_DUTY_INVERSE * (System.nanoTime() - start));
                }
                if (!ending() && System.nanoTime() >= intervalEnds) {
                    intervalEnds = System.nanoTime() + intervalNanos;
                    beginIntervalEnd();
                }
                if (ending()) {
                    // One step, then back to the top: a poll that fell due waits for this step only. No park between
                    // steps, so the end takes about as long as made in one go.
                    continueIntervalEnd();
                    reapFinished();
                    return 1;
                }
                reapFinished();
                return 0;
            }
        };
        automatic.start();
    }

    /**
     * Feeds every machine's instant report (keys past the instant rate) to the coordinator, together, and applies its
     * answer; returns how many migrations that approved.
     */
    public synchronized int pollInstant() {
        long t0 = System.nanoTime();
        long now = Leases.nowMillis();
        List<MonitorReport> reports = new ArrayList<>();
        for (Monitor m : monitors) {
            MonitorReport report = m.poll(now);
            if (report != null) {
                reports.add(report);
            }
        }
        int approved = 0;
        if (!reports.isEmpty()) {
            // One decision over the whole poll: a key two machines reported is not handed to the first of them.
            Decisions d = coordinator.onInstantReports(reports);
            apply(d);
            offerReplicas(reports, d);
            decisionLog.add(d);
            approved = d.approvals().size();
        }
        polls++;
        pollNanos += System.nanoTime() - t0;
        pollApprovals += approved;
        return approved;
    }

    /**
     * Instant-report polls so far, how long they took in all, and the migrations they approved; interval ends so far
     * and how long they took (the same thread's time, polling included in neither), of which the coordinator's
     * decisions; and how long the steps of interval ends held the polls up ({@code holds[b]}: monitors' steps of
     * {@code [2^(b-1), 2^b)} microseconds, {@code holds[0]} under one; {@code decisionHolds} the same of the
     * coordinator's decisions).
     */
    public record InstantPolls(long polls, long nanos, long approvals, long intervalEnds, long intervalEndNanos,
                               long decisionNanos, long[] holds, long[] decisionHolds) {
        public static final InstantPolls ZERO = new InstantPolls(0, 0, 0, 0, 0, 0, new long[HOLD_BUCKETS],
            new long[HOLD_BUCKETS]);

        /** What happened between {@code earlier} and this. */
        public InstantPolls minus(InstantPolls earlier) {
            return new InstantPolls(polls - earlier.polls, nanos - earlier.nanos, approvals - earlier.approvals,
                intervalEnds - earlier.intervalEnds, intervalEndNanos - earlier.intervalEndNanos,
                decisionNanos - earlier.decisionNanos, minus(holds, earlier.holds),
                minus(decisionHolds, earlier.decisionHolds));
        }

        private static long[] minus(long[] later, long[] earlier) {
            long[] h = later.clone();
            for (int b = 0; b < h.length; b++) {
                h[b] -= earlier[b];
            }
            return h;
        }

        /** The longest a monitors' step held the polls up, as an upper bound in milliseconds (0: no step). */
        public double longestHoldMillisAtMost() {
            return atMostMillis(holds);
        }

        /** The longest a coordinator's decision held the polls up, as an upper bound in milliseconds (0: none). */
        public double longestDecisionMillisAtMost() {
            return atMostMillis(decisionHolds);
        }

        private static double atMostMillis(long[] histogram) {
            for (int b = histogram.length - 1; b >= 0; b--) {
                if (histogram[b] > 0) {
                    return (1L << b) / 1e3;
                }
            }
            return 0;
        }

        /** Monitors' steps of interval ends made (the decisions not counted). */
        public long holdSteps() {
            long n = 0;
            for (long c : holds) {
                n += c;
            }
            return n;
        }
    }

    /**
     * The instant-report polls so far (a diagnostic of the control plane's reaction time: how often the automatic
     * thread could poll under its duty bound, and what the polls approved).
     */
    public synchronized InstantPolls instantPolls() {
        return new InstantPolls(polls, pollNanos, pollApprovals, intervalEnds, intervalEndNanos, decisionNanos,
            holds.clone(), decisionHolds.clone());
    }

    /** Counts a step of an interval end that started at {@code t0}: the polls waited that long. */
    private void held(long t0, long[] histogram) {
        long nanos = System.nanoTime() - t0;
        intervalEndNanos += nanos;
        if (!inOneGo) {
            countHold(histogram, nanos);
        }
    }

    private static void countHold(long[] histogram, long nanos) {
        histogram[Math.min(HOLD_BUCKETS - 1, 64 - Long.numberOfLeadingZeros(nanos / 1_000))]++;
    }

    /**
     * Ends the interval on every machine, lets the coordinator decide, and applies its decisions: in one go (the
     * polls wait for all of it). An end under way in steps is finished instead, and its decisions returned.
     */
    public synchronized Decisions endInterval() {
        long t0 = System.nanoTime();
        inOneGo = true;
        try {
            if (endReports == null) {
                beginIntervalEnd();
            }
            Decisions d;
            do {
                d = continueIntervalEnd();
            } while (d == null);
            return d;
        } finally {
            inOneGo = false;
            countHold(holds, System.nanoTime() - t0);
        }
    }

    /**
     * Starts ending the interval on every machine ({@link Monitor#beginEnd}): the next one starts now. Then {@link
     * #continueIntervalEnd} until it returns the decisions, with {@link #pollInstant} between the steps as often as
     * wanted.
     *
     * <pre>{@code
     * control.beginIntervalEnd();
     * Decisions d;
     * while ((d = control.continueIntervalEnd()) == null) {
     *     control.pollInstant();   // instant reports go on while the interval ends
     * }
     * }</pre>
     *
     * @throws IllegalStateException when an end is under way already
     */
    public synchronized void beginIntervalEnd() {
        if (endReports != null) {
            throw new IllegalStateException("an interval end is under way; continueIntervalEnd until it decides");
        }
        long t0 = System.nanoTime();
        long now = Leases.nowMillis();
        for (Monitor m : monitors) {
            m.beginEnd(now);
        }
        endReports = new ArrayList<>(monitors.length);
        held(t0, holds);
    }

    /** Whether an interval end is under way ({@link #beginIntervalEnd} made, not decided yet). */
    public synchronized boolean ending() {
        return endReports != null;
    }

    /**
     * One step of the interval end under way: a slice of the next machine's monitor ({@link Monitor#continueEnd}), or,
     * once every machine reported, the coordinator's decision, applied; returns that decision, else null.
     *
     * @throws IllegalStateException when no end is under way
     */
    public synchronized Decisions continueIntervalEnd() {
        if (endReports == null) {
            throw new IllegalStateException("no interval end is under way; beginIntervalEnd first");
        }
        long t0 = System.nanoTime();
        if (endReports.size() < monitors.length) {
            MonitorReport r = monitors[endReports.size()].continueEnd(Leases.nowMillis());
            if (r != null) {
                endReports.add(r);
            }
            held(t0, holds);
            return null;
        }
        List<MonitorReport> reports = endReports;
        endReports = null;
        Decisions d = decide(reports);
        decisionNanos += System.nanoTime() - t0;
        held(t0, decisionHolds);
        intervalEnds++;
        return d;
    }

    /** The coordinator's decision on an interval's periodic reports, applied. */
    private Decisions decide(List<MonitorReport> reports) {
        keepReplicatedInPlace();
        Decisions d = coordinator.endInterval(reports);
        apply(d);
        replicasToPlace = List.of(); // the interval's reports cover what the polls since the last end offered
        offerReplicas(reports, d);
        decisionLog.add(d);
        FabricStats.Snapshot stats = cluster.stats();
        FabricStats.Snapshot interval = stats.minus(statsAtInterval);
        // A caller that reset the counters (a benchmark between phases) leaves no interval to measure.
        decisionLog.endInterval(coordinator.interval(), interval.localOps() < 0 || interval.remoteOps() < 0
            ? Double.NaN : interval.remoteAccessRate());
        statsAtInterval = stats;
        return d;
    }

    private void apply(Decisions d) {
        for (Decisions.Track t : d.track()) {
            monitors[t.machine()].track(t.key());
        }
        for (Decisions.Track t : d.untrack()) {
            monitors[t.machine()].untrack(t.key());
        }
        for (Decisions.Approval a : d.approvals()) {
            inFlight.add(cluster.machine(a.target()).migrateAsync(a.key()));
        }
    }

    /**
     * Moves {@code key}'s value to machine {@code target} on a policy's word other than the coordinator's (a hot
     * view's, issue 17), telling the coordinator where it goes first ({@link Coordinator#seedHost}), so it weighs later
     * reports against the right host and its home counts the accesses that may bring the value back.
     *
     * <pre>{@code
     * control.migrate(key, 2).join();   // the value lives on machine 2; the key stays at its home
     * }</pre>
     */
    public synchronized CompletableFuture<Migrator.Outcome> migrate(long key, int target) {
        apply(coordinator.seedHost(key, target));
        CompletableFuture<Migrator.Outcome> move = cluster.machine(target).migrateAsync(key);
        inFlight.add(move);
        return move;
    }

    public synchronized int inFlight() {
        return inFlight.size();
    }

    /** Waits for every approved migration; returns how many values moved so far. */
    public long awaitMigrations(long timeoutMillis) throws Exception {
        List<CompletableFuture<Migrator.Outcome>> pending;
        synchronized (this) {
            pending = new ArrayList<>(inFlight);
        }
        CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new)).get(timeoutMillis, TimeUnit.MILLISECONDS);
        reapFinished();
        return migrated.get();
    }

    private synchronized void reapFinished() {
        reapMigrations();
        if (inFlight.isEmpty() && !replicasToPlace.isEmpty()) {
            for (ReplicaPolicy.Choice c : replicasToPlace) {
                if (cluster.machine(c.machine()).store().replication().replicas().place(c.key(), c.readsPerSecond())) {
                    replicasOffered++;
                    coordinator.keepInPlace(c.key());
                }
            }
            replicasToPlace = List.of();
        }
    }

    /**
     * Offers the replicas the policy chooses from {@code reports} (an interval's, or an instant poll's: a key several
     * machines read past the instant rate, which the coordinator's guard leaves where it is, or one read past it from
     * a machine its value did not move to, is served at once rather than after the interval's end), placed once the
     * migrations in flight are done: a replica of a source about to move would make its migration wait out the
     * replica lease.
     */
    private void offerReplicas(List<MonitorReport> reports, Decisions d) {
        if (!cluster.machine(0).store().replication().settings().enabled()) {
            return;
        }
        List<ReplicaPolicy.Choice> chosen = ReplicaPolicy.choose(reports, cluster.placement(), cluster.machineCount(),
            d, REPLICAS_PER_MACHINE);
        if (chosen.isEmpty()) {
            return;
        }
        if (replicasToPlace.isEmpty()) {
            replicasToPlace = chosen;
        } else {
            List<ReplicaPolicy.Choice> all = new ArrayList<>(replicasToPlace);
            all.addAll(chosen);
            replicasToPlace = all;
        }
    }

    /**
     * Keeps in place every value a machine holds a replica of, for the coordinator's next {@code KEEP_INTERVALS}
     * intervals. The policy's offers keep a key only while two machines report it, and a holder reads its replica
     * locally, so it stops reporting it: the keep lapsed after four intervals while the replicas were still read, and
     * the coordinator then moved the value to its one reporter. Moving a replicated source keeps the new record
     * pending, and its GETs waiting, for a replica lease plus a reclaim lease; at scale 20 those waits on hot values
     * stalled the query threads about 10 s into every split-cache-replica measurement (main's and this change's, at a
     * 30 s window), the replicas unread meanwhile ran out, and their values moved in turn.
     */
    private void keepReplicatedInPlace() {
        if (!cluster.machine(0).store().replication().settings().enabled()) {
            return;
        }
        for (int m = 0; m < cluster.machineCount(); m++) {
            cluster.machine(m).store().replication().replicas().forEachHeld(coordinator::keepInPlace);
        }
    }

    /** Replicas placed (or kept) on the policy's offer since this control started. */
    public synchronized long replicasPlaced() {
        return replicasOffered;
    }

    private void reapMigrations() {
        inFlight.removeIf(f -> {
            if (!f.isDone()) {
                return false;
            }
            if (f.isCompletedExceptionally()) {
                failed.incrementAndGet();
            } else if (f.join() == Migrator.Outcome.MIGRATED) {
                migrated.incrementAndGet();
            }
            return true;
        });
    }

    /** Values moved so far. */
    public long migratedKeys() {
        return migrated.get();
    }

    /** Approved migrations that ended with an error (an unreachable host, a timeout) rather than an outcome. */
    public long failedMigrations() {
        return failed.get();
    }

    /** Bytes read by migrations since {@link #start}. */
    public long migratedBytes() {
        return bytesMoved() - bytesAtStart;
    }

    private long bytesMoved() {
        long sum = 0;
        for (int m = 0; m < cluster.machineCount(); m++) {
            sum += cluster.machine(m).migrationThread().migrator().bytesMoved();
        }
        return sum;
    }

    /** Stops the automatic thread and removes the monitors from their machines. */
    @Override
    public void close() {
        DutyThread t;
        synchronized (this) {
            t = automatic;
            automatic = null;
        }
        if (t != null) {
            t.close();
        }
        for (Monitor m : monitors) {
            cluster.machine(m.machine()).store().setAccessObserver(null);
        }
    }
}
