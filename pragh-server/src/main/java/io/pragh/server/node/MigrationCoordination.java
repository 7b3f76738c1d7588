package io.pragh.server.node;

import io.pragh.cluster.Machine;
import io.pragh.coordinator.Coordinator;
import io.pragh.coordinator.CoordinatorConfig;
import io.pragh.coordinator.DecisionLog;
import io.pragh.coordinator.Decisions;
import io.pragh.coordinator.Mechanism;
import io.pragh.fabric.FabricException;
import io.pragh.migration.Migrator;
import io.pragh.monitor.KeyRate;
import io.pragh.monitor.Monitor;
import io.pragh.monitor.MonitorConfig;
import io.pragh.monitor.MonitorReport;
import io.pragh.reclaim.Leases;
import io.pragh.runtime.DutyExecutor;
import io.pragh.server.config.MigrationPolicy;
import io.pragh.server.membership.ZooKeeperMembership;
import io.pragh.server.rpc.Decided;
import io.pragh.server.rpc.MigrationDriver;
import io.pragh.store.MachineStore;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
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
 * count local accesses. A machine that becomes coordinator starts from empty state; reports sent to a former one
 * are lost, which costs one interval.
 *
 * <p>With the policy's trigger {@code manual} nothing happens by itself: clients drive the phases through the client
 * RPC ({@link MigrationDriver}): {@link #startMonitoring} on every machine, load, {@link #endInterval} on every
 * machine (each sends its periodic report), then {@link #decide} on the coordinator, which waits for every live
 * machine's report and decides. Instant reports are not polled then. Every MIGRATE this machine's migration thread is
 * handed, by a decision or by a client, goes through {@link #migrate} and is counted there.
 *
 * <p>Messages (extension types): REPORT {@code | 18 | instant (1) | count (4) | count x (key 8, host 4, rate 8,
 * tracked 1) |}, DECISION {@code | 19 | kind (1): 0 migrate here, 1 track, 2 untrack | key (8) |}.
 *
 * <pre>{@code
 * MigrationCoordination c = new MigrationCoordination(machine, policy, membership, maxMessageBytes);
 * c.start();
 * }</pre>
 */
public final class MigrationCoordination implements MigrationDriver, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MigrationCoordination.class);

    public static final int REPORT = 18;
    public static final int DECISION = 19;
    private static final int REPORT_HEADER = 6;
    private static final int KEY_RATE_BYTES = 21;
    private static final int DECISION_LENGTH = 10;
    private static final long POLL_MILLIS = 100;
    /** How often a waiting DECIDE looks for the reports it still misses. */
    private static final long DECIDE_POLL_MILLIS = 10;
    /** How long a close waits for the monitoring thread to end. */
    private static final long CLOSE_PATIENCE_MILLIS = TimeUnit.MINUTES.toMillis(1);

    private final Machine machine;
    private final MachineStore store;
    private final ZooKeeperMembership membership;
    private final Monitor monitor;
    private final CoordinatorConfig coordinatorConfig;
    private final long intervalMillis;
    private final int maxKeysPerReport;
    private final MigrationPolicy.Trigger trigger;
    /** Runs everything that touches the monitor's intervals or the coordinator: one thread, so neither locks. */
    private final DutyExecutor control;
    private final Thread ticker;
    private final List<MonitorReport> periodic = new ArrayList<>();
    private final AtomicLong approvals = new AtomicLong();
    private final AtomicLong migrationsRequested = new AtomicLong();
    private final AtomicLong migrationsDone = new AtomicLong();
    private final AtomicLong valuesMigrated = new AtomicLong();
    private final AtomicLong migrationsFailed = new AtomicLong();
    /** The coordinator's decisions, one log line per interval (on the control thread, as the coordinator). */
    private final DecisionLog decisionLog = new DecisionLog();
    /** Manual trigger: whether a MONITOR_START has started the monitor (written and read on the control thread). */
    private boolean monitoring;
    private volatile long seededTargets = -1;
    private Coordinator coordinator;
    private volatile boolean closed;

    public MigrationCoordination(Machine machine, MigrationPolicy policy, ZooKeeperMembership membership,
                                 int maxMessageBytes) {
        this.machine = machine;
        this.store = machine.store();
        this.membership = membership;
        this.intervalMillis = policy.reportInterval().toMillis();
        this.trigger = policy.trigger();
        double instant = policy.instantReportRate() == 0 ? Double.MAX_VALUE : policy.instantReportRate();
        // As the embedded control and the benchmark build them: one minimum rate for what a periodic report names
        // and what the coordinator approves (kept below the instant rate, which the monitor requires).
        MonitorConfig mc = MonitorConfig.defaults().withIntervalMillis(intervalMillis)
            .withRates(instant, Math.min(policy.minimumRate(), instant));
        this.monitor = new Monitor(store.id(), store.placement(), store.cache(), mc);
        this.coordinatorConfig = CoordinatorConfig.defaults().withMargin(policy.thresholdMargin())
            .withMechanism(policy.mode() == MigrationPolicy.Mode.EAGER ? Mechanism.EAGER : Mechanism.DEFERRED)
            .withMinRate(policy.minimumRate());
        this.maxKeysPerReport = Math.max(1, (maxMessageBytes - REPORT_HEADER) / KEY_RATE_BYTES);
        this.control = DutyExecutor.single("m" + store.id() + "-coordinator");
        this.ticker = new Thread(this::tick, "pragh-m" + store.id() + "-monitor");
        ticker.setDaemon(true);
        store.registerHandler(REPORT, this::onReport);
        store.registerHandler(DECISION, this::onDecision);
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

    /** Migrations this machine approved while it was the coordinator and carried out or sent to their targets. */
    @Override
    public long approvals() {
        return approvals.get();
    }

    @Override
    public CompletableFuture<Migrator.Outcome> migrate(long key) {
        migrationsRequested.incrementAndGet();
        // The returned stage completes after the counts: whoever awaits the outcome sees it counted.
        return machine.migrateAsync(key).whenComplete((outcome, failure) -> {
            if (outcome == Migrator.Outcome.MIGRATED) {
                valuesMigrated.incrementAndGet();
            } else if (failure != null) {
                migrationsFailed.incrementAndGet();
            }
            migrationsDone.incrementAndGet();
        });
    }

    @Override
    public long migrationsRequested() {
        return migrationsRequested.get();
    }

    @Override
    public long migrationsDone() {
        return migrationsDone.get();
    }

    @Override
    public long valuesMigrated() {
        return valuesMigrated.get();
    }

    /** MIGRATEs handed to this machine's migration thread that ended with an error rather than an outcome. */
    public long migrationsFailed() {
        return migrationsFailed.get();
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
            int sent = apply(d);
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
        return seededTargets;
    }

    private int coordinatorId() {
        return membership == null ? 0 : membership.coordinator();
    }

    /** The monitoring thread: instant reports every poll, periodic ones (and, here, decisions) every interval. */
    private void tick() {
        long next = Leases.nowMillis() + intervalMillis;
        while (!closed) {
            try {
                Thread.sleep(POLL_MILLIS);
                long now = Leases.nowMillis();
                MonitorReport hot = monitor.poll(now);
                if (hot != null) {
                    report(hot);
                }
                if (now >= next) {
                    next = now + intervalMillis;
                    report(monitor.endInterval(now));
                    // Machines' intervals are not aligned: the coordinator decides on its own clock with the periodic
                    // reports that arrived since its last decision.
                    control.execute(this::endIntervalIfCoordinator);
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                if (!closed) {
                    LOG.error("machine {} monitoring failed", store.id(), e);
                }
            }
        }
    }

    private void report(MonitorReport r) {
        int to = coordinatorId();
        if (to < 0) {
            return;
        }
        List<KeyRate> keys = r.keys();
        int n = Math.min(keys.size(), maxKeysPerReport);
        UnsafeBuffer msg = new UnsafeBuffer(new byte[REPORT_HEADER + n * KEY_RATE_BYTES]);
        msg.putByte(0, (byte) REPORT);
        msg.putByte(1, (byte) (r.instant() ? 1 : 0));
        msg.putInt(2, n);
        for (int i = 0; i < n; i++) {
            KeyRate k = keys.get(i);
            int at = REPORT_HEADER + i * KEY_RATE_BYTES;
            msg.putLong(at, k.key());
            msg.putInt(at + 8, k.host());
            msg.putDouble(at + 12, k.rate());
            msg.putByte(at + 20, (byte) (k.tracked() ? 1 : 0));
        }
        if (to == store.id()) {
            MonitorReport copy = new MonitorReport(store.id(), r.instant(), keys.subList(0, n));
            control.execute(() -> absorb(copy));
            return;
        }
        try {
            store.send(to, msg, 0, msg.capacity());
        } catch (FabricException e) {
            // The coordinator is down: this interval's figures are lost, the next ones go to its successor.
        }
    }

    private void onReport(int from, DirectBuffer msg, int off, int len) {
        int n = len >= REPORT_HEADER ? msg.getInt(off + 2) : -1;
        if (n < 0 || len != REPORT_HEADER + (long) n * KEY_RATE_BYTES) {
            LOG.warn("machine {} dropped a malformed REPORT from machine {}", store.id(), from);
            return;
        }
        List<KeyRate> keys = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int at = off + REPORT_HEADER + i * KEY_RATE_BYTES;
            int host = msg.getInt(at + 8);
            if (host < 0 || host >= store.machineCount()) {
                LOG.warn("machine {} dropped a REPORT naming machine {}", store.id(), host);
                return;
            }
            keys.add(new KeyRate(msg.getLong(at), host, msg.getDouble(at + 12), msg.getByte(at + 20) != 0));
        }
        MonitorReport r = new MonitorReport(from, msg.getByte(off + 1) != 0, keys);
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
            apply(coordinator.onInstantReport(r));
        } else {
            periodic.add(r);
        }
    }

    /**
     * A coordinator that knows where every value went: seeded with the targets its predecessors recorded in
     * ZooKeeper, so it never weighs a key against (or approves moving it from) a host the value already left.
     */
    private Coordinator newCoordinator() {
        Coordinator c = new Coordinator(store.machineCount(), store.placement(), coordinatorConfig);
        if (membership != null) {
            Map<Long, Integer> recorded = membership.recordedTargets();
            recorded.forEach((key, target) -> apply(c.seedHost(key, target)));
            seededTargets = recorded.size();
            if (!recorded.isEmpty()) {
                LOG.info("machine {} coordinates, seeded with {} recorded migration targets", store.id(), recorded.size());
            }
        }
        return c;
    }

    private void endIntervalIfCoordinator() {
        if (coordinator == null || coordinatorId() != store.id()) {
            periodic.clear();
            return;
        }
        List<MonitorReport> reports = new ArrayList<>(periodic);
        periodic.clear();
        apply(coordinator.endInterval(reports));
        decisionLog.endInterval(coordinator.interval(), Double.NaN);
    }

    /** Carries the decisions out; returns how many approvals it sent (an approval ZooKeeper did not record is not). */
    private int apply(Decisions d) {
        int sent = 0;
        for (Decisions.Track t : d.track()) {
            decide(t.machine(), 1, t.key());
        }
        for (Decisions.Track t : d.untrack()) {
            decide(t.machine(), 2, t.key());
        }
        for (Decisions.Approval a : d.approvals()) {
            if (membership != null) {
                try {
                    membership.recordMigration(a.key(), a.target());
                } catch (RuntimeException e) {
                    LOG.warn("not approving key {}: {}", a.key(), e.getMessage());
                    continue;
                }
            }
            // Counted once it reached its target: a waiter compares approvals with the MIGRATEs targets received.
            if (decide(a.target(), 0, a.key())) {
                approvals.incrementAndGet();
                decisionLog.add(a);
                sent++;
            }
        }
        return sent;
    }

    /** Carries a decision out here or sends it to {@code machineId}; returns whether it was carried out or sent. */
    private boolean decide(int machineId, int kind, long key) {
        if (machineId == store.id()) {
            carryOut(kind, key);
            return true;
        }
        UnsafeBuffer msg = new UnsafeBuffer(new byte[DECISION_LENGTH]);
        msg.putByte(0, (byte) DECISION);
        msg.putByte(1, (byte) kind);
        msg.putLong(2, key);
        try {
            store.send(machineId, msg, 0, msg.capacity());
            return true;
        } catch (FabricException e) {
            LOG.warn("machine {} did not get a decision on key {}: {}", machineId, key, e.getMessage());
            return false;
        }
    }

    private void onDecision(int from, DirectBuffer msg, int off, int len) {
        int kind = len == DECISION_LENGTH ? msg.getByte(off + 1) : -1;
        if (kind < 0 || kind > 2) {
            LOG.warn("machine {} dropped a malformed DECISION from machine {}", store.id(), from);
            return;
        }
        carryOut(kind, msg.getLong(off + 2));
    }

    private void carryOut(int kind, long key) {
        switch (kind) {
            case 0 -> migrate(key);
            case 1 -> monitor.track(key);
            default -> monitor.untrack(key);
        }
    }

    @Override
    public void close() {
        closed = true;
        store.setAccessObserver(null);
        ticker.interrupt();
        control.close();
        if (ticker.isAlive() && Thread.currentThread() != ticker) {
            try {
                ticker.join(CLOSE_PATIENCE_MILLIS);
                if (ticker.isAlive()) {
                    LOG.warn("{} did not stop within a minute of being closed", ticker.getName());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
