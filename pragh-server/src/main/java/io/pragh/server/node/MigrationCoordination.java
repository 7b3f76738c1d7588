package io.pragh.server.node;

import io.pragh.coordinator.Coordinator;
import io.pragh.coordinator.CoordinatorConfig;
import io.pragh.coordinator.DecisionLog;
import io.pragh.coordinator.Decisions;
import io.pragh.coordinator.Mechanism;
import io.pragh.coordinator.ReplicaPolicy;
import io.pragh.embedded.Machine;
import io.pragh.fabric.FabricException;
import io.pragh.migration.Migrator;
import io.pragh.monitor.Monitor;
import io.pragh.monitor.MonitorConfig;
import io.pragh.monitor.MonitorReport;
import io.pragh.reclaim.Leases;
import io.pragh.runtime.DutyExecutor;
import io.pragh.runtime.DutyThread;
import io.pragh.server.config.MigrationPolicy;
import io.pragh.server.membership.ZooKeeperMembership;
import io.pragh.server.rpc.Decided;
import io.pragh.server.rpc.MigrationDriver;
import io.pragh.store.MachineStore;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The migration policy of paper section 4.4 across processes. Every machine runs a {@link Monitor} and sends its
 * reports (instant ones as they come, periodic ones every report interval) to the coordinator: the machine elected
 * in ZooKeeper, or machine 0 without membership. The coordinator feeds them to a {@link Coordinator} and carries out
 * its decisions: for each approval it first records the target in ZooKeeper (paper section 5: a new coordinator
 * must know where values went), then tells the target to MIGRATE; tracking requests go to the machines asked to
 * count local accesses ({@code DecisionDelivery}). A machine that becomes coordinator starts from empty state but
 * for the recorded targets ({@code ApprovalRecovery}); reports sent to a former one are lost, which costs one
 * interval.
 *
 * <p>With the policy's trigger {@code manual} nothing happens by itself: clients drive the phases through the client
 * RPC ({@link MigrationDriver}): {@link #startMonitoring} on every machine, load, {@link #endInterval} on every
 * machine (each sends its periodic report), then {@link #decide} on the coordinator, which waits for every live
 * machine's report and decides. Instant reports are not polled then. Every MIGRATE this machine's migration thread is
 * handed, by a decision or by a client, goes through {@link #migrate} and is counted there. Moves decided outside
 * the policy (a hot view's placement, the client protocol's PLACE) are taken in by {@link #place} on the
 * coordinator as its own approvals: recorded first, then sent to their targets.
 *
 * <p>Its messages between machines, REPORT and DECISION ({@code DecisionKind}), are encoded and checked by
 * {@code PolicyMessages}.
 *
 * <pre>{@code
 * MigrationCoordination c = new MigrationCoordination(machine, policy, membership, maxMessageBytes);
 * c.start();
 * }</pre>
 */
public final class MigrationCoordination implements MigrationDriver, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MigrationCoordination.class);

    /** How often the monitoring thread polls for instant reports. */
    private static final long POLL_MILLIS = 100;
    /** Replicas offered to one machine per interval at most, as in the embedded control. */
    private static final int REPLICAS_PER_MACHINE = 16_384;
    /** How often a waiting DECIDE looks for the reports it still misses. */
    private static final long DECIDE_POLL_MILLIS = 10;

    private final Machine machine;
    private final MachineStore store;
    private final ZooKeeperMembership membership;
    private final ApprovalRecovery recovery;
    private final Monitor monitor;
    private final CoordinatorConfig coordinatorConfig;
    private final long intervalMillis;
    private final int maxKeysPerReport;
    private final MigrationPolicy.Trigger trigger;
    /** Runs everything that touches the monitor's intervals or the coordinator: one thread, so neither locks. */
    private final DutyExecutor control;
    /** Places the replicas offered to this machine (remote reads that wait: not on a delivery thread). */
    private final DutyExecutor placing;
    /** Polls the monitor: instant reports every poll, periodic ones every interval ({@link #tick}). */
    private final DutyThread ticker;
    /** When this machine's current report interval ends; read and written by the monitoring thread only. */
    private long intervalEnd;
    /** When the next instant poll is due; the monitoring thread's. */
    private long nextPoll;
    private final List<MonitorReport> periodic = new ArrayList<>();
    private final CountedMigrations migrations;
    private final DecisionDelivery delivery;
    /** The coordinator's decisions, one log line per interval (on the control thread, as the coordinator). */
    private final DecisionLog decisionLog = new DecisionLog();
    /** Manual trigger: whether a MONITOR_START has started the monitor (written and read on the control thread). */
    private boolean monitoring;
    private Coordinator coordinator;
    private volatile boolean closed;

    public MigrationCoordination(Machine machine, MigrationPolicy policy, ZooKeeperMembership membership,
                                 int maxMessageBytes) {
        this.machine = machine;
        this.store = machine.store();
        this.membership = membership;
        this.recovery = new ApprovalRecovery(store.id(), membership);
        this.migrations = new CountedMigrations(machine);
        this.intervalMillis = policy.reportInterval().toMillis();
        this.trigger = policy.trigger();
        double instant = policy.instantReportRate() == 0 ? Double.MAX_VALUE : policy.instantReportRate();
        // As the embedded control and the benchmark build them: one minimum rate for what a periodic report names
        // and what the coordinator approves (kept below the instant rate, which the monitor requires).
        MonitorConfig mc = MonitorConfig.defaults().withIntervalMillis(intervalMillis)
            .withRates(instant, Math.min(policy.minimumRate(), instant))
            // No instant reports when configured so; otherwise the relative instant rate, at most the configured one.
            .withInstantFactor(policy.instantReportRate() == 0 ? 0 : MonitorConfig.DEFAULT_INSTANT_FACTOR);
        this.monitor = new Monitor(store.id(), store.placement(), store.cache(), mc);
        this.placing = DutyExecutor.single("m" + store.id() + "-replicas");
        this.delivery = new DecisionDelivery(store, monitor, migrations, recovery, decisionLog, placing);
        this.coordinatorConfig = CoordinatorConfig.defaults().withMargin(policy.thresholdMargin())
            .withMechanism(policy.mode() == MigrationPolicy.Mode.EAGER ? Mechanism.EAGER : Mechanism.DEFERRED)
            .withMinRate(policy.minimumRate());
        this.maxKeysPerReport = PolicyMessages.maxKeysPerReport(maxMessageBytes);
        this.control = DutyExecutor.single("m" + store.id() + "-coordinator");
        this.ticker = new DutyThread("m" + store.id() + "-monitor", TimeUnit.MILLISECONDS.toNanos(POLL_MILLIS)) {
            @Override
            protected int doWork() {
                // The monitor is polled, never woken: park until the next poll, unless an interval end's slices are
                // under way (they run back to back, a poll between two whenever one is due).
                return tick() ? 1 : 0;
            }
        };
        store.registerHandler(PolicyMessages.REPORT, this::onReport);
        store.registerHandler(PolicyMessages.DECISION, delivery::onDecision);
    }

    /**
     * Starts monitoring (and, on the coordinator, deciding); with the manual trigger only the handling of peers'
     * messages, monitoring waits for {@link #startMonitoring}.
     */
    public void start() {
        if (trigger == MigrationPolicy.Trigger.MANUAL) {
            return;
        }
        monitor.start(Leases.nowMillis());
        store.setAccessObserver(monitor);
        ticker.start();
    }

    /** This machine's monitor: the far-memory tier reads its held-value counts ({@code ServerTiering}). */
    Monitor monitor() {
        return monitor;
    }

    /** Migrations this machine approved while it was the coordinator and carried out or sent to their targets. */
    @Override
    public long approvals() {
        return delivery.approvals();
    }

    @Override
    public CompletableFuture<Migrator.Outcome> migrate(long key) {
        return migrations.migrate(key);
    }

    /**
     * Moves decided outside the policy (a hot view's placement, {@code ClientProtocol.PLACE}) taken in as the
     * coordinator's own: on the control thread, each is recorded like an approval (ZooKeeper first, so a successor
     * knows where the value went; a move it could not record is not sent), the coordinator takes its target as the
     * key's host (and asks the home to count it, to weigh a later move back), and the target is told to MIGRATE it.
     * Nothing waits for the MIGRATEs. Works under either trigger; refused (naming the coordinator) elsewhere.
     */
    @Override
    public CompletableFuture<Integer> place(long[] keys, int[] targets) {
        CompletableFuture<Integer> placed = new CompletableFuture<>();
        control.execute(() -> {
            try {
                int coordinates = coordinatorId();
                if (coordinates != store.id()) {
                    throw coordinates < 0 ? new io.pragh.PraghException("no coordinator is elected yet; PLACE again"
                        + " shortly") : new IllegalArgumentException("machine " + coordinates + " coordinates, not"
                        + " machine " + store.id() + ": PLACE there");
                }
                if (coordinator == null) {
                    coordinator = newCoordinator();
                }
                List<Decisions.Approval> approvals = new ArrayList<>(keys.length);
                for (int i = 0; i < keys.length; i++) {
                    int source = coordinator.hostOf(keys[i]);
                    delivery.apply(coordinator.seedHost(keys[i], targets[i]));
                    approvals.add(new Decisions.Approval(keys[i], source, targets[i], Double.NaN, Double.NaN));
                }
                placed.complete(delivery.apply(new Decisions(approvals, List.of(), List.of())));
            } catch (RuntimeException e) {
                placed.completeExceptionally(e);
            }
        });
        return placed;
    }

    @Override
    public long migrationsRequested() {
        return migrations.requested();
    }

    @Override
    public long migrationsDone() {
        return migrations.done();
    }

    @Override
    public long valuesMigrated() {
        return migrations.migrated();
    }

    /** MIGRATEs handed to this machine's migration thread that ended with an error rather than an outcome. */
    public long migrationsFailed() {
        return migrations.failed();
    }

    @Override
    public boolean isCoordinator() {
        return membership == null ? store.id() == 0 : membership.isCoordinator();
    }

    @Override
    public CompletableFuture<Void> startMonitoring() {
        return onControl(() -> {
            monitor.start(Leases.nowMillis());
            store.setAccessObserver(monitor);
            monitoring = true;
            return null;
        });
    }

    @Override
    public CompletableFuture<Void> endInterval() {
        return onControl(() -> {
            if (!monitoring) {
                throw new IllegalArgumentException("machine " + store.id() + " is not monitoring: MONITOR_START first");
            }
            report(monitor.endInterval(Leases.nowMillis()));
            return null;
        });
    }

    @Override
    public CompletableFuture<Decided> decide(long timeoutMillis) {
        CompletableFuture<Decided> decided = new CompletableFuture<>();
        long deadline = Leases.nowMillis() + timeoutMillis;
        if (trigger != MigrationPolicy.Trigger.MANUAL) {
            decided.completeExceptionally(notManual());
        } else {
            control.execute(() -> decideWhenReported(decided, deadline));
        }
        return decided;
    }

    /** A manual phase on the control thread, refused unless the trigger is manual. */
    private <T> CompletableFuture<T> onControl(java.util.concurrent.Callable<T> phase) {
        if (trigger != MigrationPolicy.Trigger.MANUAL) {
            return CompletableFuture.failedFuture(notManual());
        }
        CompletableFuture<T> done = new CompletableFuture<>();
        control.execute(() -> {
            try {
                done.complete(phase.call());
            } catch (Exception e) {
                done.completeExceptionally(e);
            }
        });
        return done;
    }

    private IllegalArgumentException notManual() {
        return new IllegalArgumentException("machine " + store.id() + " runs its migration policy by itself"
            + " (policy.trigger: auto); manual phases need policy.trigger: manual");
    }

    /**
     * On the control thread: decides once every live machine's periodic report is in (or at the deadline), else
     * looks again shortly, so that no thread blocks while reports travel.
     */
    private void decideWhenReported(CompletableFuture<Decided> decided, long deadline) {
        try {
            int coordinates = coordinatorId();
            if (coordinates < 0) {
                throw new io.pragh.PraghException("no coordinator is elected yet; DECIDE again shortly");
            }
            if (coordinates != store.id()) {
                throw new IllegalArgumentException("machine " + coordinates + " coordinates, not machine "
                    + store.id());
            }
            if (coordinator == null) {
                coordinator = newCoordinator();
            }
            Set<Integer> reported = new HashSet<>();
            periodic.forEach(r -> reported.add(r.machine()));
            if (!reported.containsAll(liveMachines()) && Leases.nowMillis() < deadline) {
                control.schedule(() -> decideWhenReported(decided, deadline), DECIDE_POLL_MILLIS,
                    TimeUnit.MILLISECONDS);
                return;
            }
            List<MonitorReport> reports = new ArrayList<>(periodic);
            periodic.clear();
            Decisions d = coordinator.endInterval(reports);
            int sent = delivery.apply(d);
            offerReplicas(reports, d);
            decisionLog.endInterval(coordinator.interval(), Double.NaN);
            decided.complete(new Decided(sent, d.track().size(), d.untrack().size()));
        } catch (RuntimeException e) {
            decided.completeExceptionally(e);
        }
    }

    private Set<Integer> liveMachines() {
        if (membership != null) {
            return membership.liveMachines();
        }
        Set<Integer> all = new HashSet<>();
        for (int m = 0; m < store.machineCount(); m++) {
            all.add(m);
        }
        return all;
    }

    /**
     * Recorded migration targets this machine's coordinator was seeded with when it last took over, or -1 when it
     * has not coordinated yet.
     */
    public long seededTargets() {
        return recovery.seededTargets();
    }

    private int coordinatorId() {
        return membership == null ? 0 : membership.coordinator();
    }

    /**
     * One pass of the monitoring thread: an instant report if a poll is due, and at the end of an interval the
     * periodic one (and, here, decisions), made in slices ({@link Monitor#continueEnd}) one a pass, so that a poll
     * waits for one slice at most. Returns whether an end is under way (the thread then does not park). A failed pass
     * is logged and the next one goes on.
     */
    private boolean tick() {
        try {
            long now = Leases.nowMillis();
            if (intervalEnd == 0) {
                intervalEnd = now + intervalMillis;
            }
            if (now >= nextPoll) {
                nextPoll = now + POLL_MILLIS;
                MonitorReport hot = monitor.poll(now);
                if (hot != null) {
                    report(hot);
                }
            }
            if (!monitor.ending() && now >= intervalEnd) {
                intervalEnd = now + intervalMillis;
                monitor.beginEnd(now);
            }
            if (monitor.ending()) {
                MonitorReport periodic = monitor.continueEnd(now);
                if (periodic == null) {
                    return true;
                }
                report(periodic);
                // Machines' intervals are not aligned: the coordinator decides on its own clock with the periodic
                // reports that arrived since its last decision.
                control.execute(this::endIntervalIfCoordinator);
            }
        } catch (RuntimeException e) {
            if (!closed) {
                LOG.error("machine {} monitoring failed", store.id(), e);
            }
        }
        return false;
    }

    private void report(MonitorReport r) {
        int to = coordinatorId();
        if (to < 0) {
            return;
        }
        int n = Math.min(r.keys().size(), maxKeysPerReport);
        if (to == store.id()) {
            MonitorReport copy = new MonitorReport(store.id(), r.instant(), r.keys().subList(0, n), r.instantRate());
            control.execute(() -> absorb(copy));
            return;
        }
        UnsafeBuffer msg = PolicyMessages.report(r, n);
        try {
            store.send(to, msg, 0, msg.capacity());
        } catch (FabricException e) {
            // The coordinator is down: this interval's figures are lost, the next ones go to its successor.
        }
    }

    private void onReport(int from, DirectBuffer msg, int off, int len) {
        MonitorReport r;
        try {
            r = PolicyMessages.readReport(from, msg, off, len, store.machineCount());
        } catch (IllegalArgumentException e) {
            LOG.warn("machine {} dropped {} from machine {}", store.id(), e.getMessage(), from);
            return;
        }
        control.execute(() -> absorb(r));
    }

    /** On the control thread: instant reports are decided at once, periodic ones wait for the interval's end. */
    private void absorb(MonitorReport r) {
        if (coordinatorId() != store.id()) {
            coordinator = null; // not (or no longer) the coordinator: a later election starts afresh
            return;
        }
        if (coordinator == null) {
            try {
                coordinator = newCoordinator();
            } catch (RuntimeException e) {
                // Without the recorded targets it could approve moves from stale hosts: decide nothing until it can.
                LOG.warn("machine {} does not coordinate yet: {}", store.id(), e.getMessage());
                return;
            }
        }
        if (r.instant()) {
            delivery.apply(coordinator.onInstantReport(r));
        } else {
            periodic.add(r);
        }
    }

    /** A coordinator that knows where every value went ({@code ApprovalRecovery.seed}). */
    private Coordinator newCoordinator() {
        return recovery.seed(new Coordinator(store.machineCount(), store.placement(), coordinatorConfig),
            delivery::apply);
    }

    private void endIntervalIfCoordinator() {
        if (coordinator == null || coordinatorId() != store.id()) {
            periodic.clear();
            return;
        }
        List<MonitorReport> reports = new ArrayList<>(periodic);
        periodic.clear();
        Decisions d = coordinator.endInterval(reports);
        delivery.apply(d);
        offerReplicas(reports, d);
        decisionLog.endInterval(coordinator.interval(), Double.NaN);
    }

    /**
     * With read replicas on, offers the interval's replicas ({@link ReplicaPolicy}) to their machines and keeps their
     * keys in place ({@link Coordinator#keepInPlace}). Not of a key whose migration this interval approved: the
     * embedded control places replicas once the interval's migrations are done, which no machine here knows of the
     * others, and a replica of a source about to move would keep its migration waiting out the replica lease; its
     * readers are offered one next interval, at its new host.
     */
    private void offerReplicas(List<MonitorReport> reports, Decisions d) {
        if (!store.replication().settings().enabled()) {
            return;
        }
        Set<Long> moving = new HashSet<>();
        for (Decisions.Approval a : d.approvals()) {
            moving.add(a.key());
        }
        List<ReplicaPolicy.Choice> offers = new ArrayList<>();
        for (ReplicaPolicy.Choice c : ReplicaPolicy.choose(reports, store.placement(), store.machineCount(), d,
            REPLICAS_PER_MACHINE)) {
            if (!moving.contains(c.key())) {
                offers.add(c);
                coordinator.keepInPlace(c.key());
            }
        }
        delivery.offer(offers);
    }

    /** Replicas this machine placed (or kept) on the replica policy's offers. */
    public long replicasPlaced() {
        return delivery.replicasPlaced();
    }

    @Override
    public void close() {
        closed = true;
        store.setAccessObserver(null);
        control.close();
        placing.close();
        ticker.close(); // waits up to a minute for a poll under way, and logs it if it does not end
    }
}
