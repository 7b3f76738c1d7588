package io.pragh.fabric.fault;

import io.pragh.fabric.Endpoint;
import io.pragh.fabric.Fabric;
import io.pragh.fabric.MachineMemory;
import io.pragh.fabric.MessageHandler;
import io.pragh.fabric.Region;
import io.pragh.runtime.DutyExecutor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A fabric that runs another one under faults: every operation and message passes through the installed
 * {@link FaultRule}s, and the first rule that acts on it delays, holds, reorders, drops or refuses it, or fails it
 * at its issuer and applies it at its target later ({@link FaultSelector#applyLate}: what a real fabric's timeout
 * leaves possible, since neither a TCP frame nor a verbs operation carries anything its host checks against its
 * issuer having given up). With no rule
 * installed every call goes straight to the wrapped fabric (one volatile read more), so a whole cluster can run under
 * it and have faults switched on and off during the run. Works over any fabric: what a rule does happens before the
 * wrapped fabric sees the operation (or, for a lost reply, after it performed it).
 *
 * <p>Faulted batches: a batch none of whose operations a rule acts on is posted to the wrapped fabric's batch as it
 * is; one with a faulted operation is performed, in order (or shuffled, by {@link FaultSelector#reorder}), by a
 * thread of this fabric through the wrapped endpoint's single operations, and completes when they all did. A
 * delayed or held message is delivered later by a thread of this fabric, so messages overtaking it break the SPI's
 * per-sender order on purpose.
 *
 * <p>Determinism: each rule draws its chances and delays from its own random source, seeded from {@code seed} and
 * the rule's place in the installation order; given the same operations in the same order, a run makes the same
 * choices. Which operation comes first among threads is up to the scheduler.
 *
 * <pre>{@code
 * FaultFabric fabric = new FaultFabric(new InProcessFabric(4, 0), 42);
 * EmbeddedCluster cluster = EmbeddedCluster.builder().machines(4).fabricPerMachine(i -> fabric).build();
 * fabric.when().oneSided().probability(0.01).delay(0, 2, TimeUnit.MILLISECONDS);
 * FaultRule cut = fabric.isolate(2);     // machine 2 cut off from the others
 * cut.remove();                          // healed
 * }</pre>
 */
public final class FaultFabric implements Fabric {
    private static final Logger LOG = LoggerFactory.getLogger(FaultFabric.class);

    private static final FaultRule[] NONE = new FaultRule[0];
    private static final long CLOSE_PATIENCE_MILLIS = 60_000;

    private final Fabric inner;
    private final long seed;
    private final AtomicLong ruleSeeds = new AtomicLong();
    private volatile FaultRule[] rules = NONE;
    private final DutyExecutor wire;
    private final DutyExecutor timer;
    private volatile boolean closed;
    /** Operations that failed at their issuer and have not landed yet ({@link FaultAction#APPLY_LATE}). */
    private final Object lateLock = new Object();
    private long lateInFlight;
    private long lateLanded;
    private long lateTookEffect;

    public FaultFabric(Fabric inner, long seed) {
        this.inner = inner;
        this.seed = seed;
        this.wire = DutyExecutor.pool("fault-wire");
        this.timer = DutyExecutor.single("fault-timer");
    }

    /** The wrapped fabric. */
    public Fabric inner() {
        return inner;
    }

    public long seed() {
        return seed;
    }

    @Override
    public String name() {
        return "fault(" + inner.name() + ")";
    }

    @Override
    public String describe() {
        return "fault(" + inner.describe() + ")";
    }

    @Override
    public void presumeDead(int peer, String why) {
        inner.presumeDead(peer, why);
    }

    @Override
    public void peerRejoined(int peer) {
        inner.peerRejoined(peer);
    }

    @Override
    public Endpoint attach(int machine, MachineMemory memory, MessageHandler handler) {
        return new FaultEndpoint(this, inner.attach(machine, memory, handler));
    }

    /** Starts a rule: select operations, then name what happens to them. */
    public FaultSelector when() {
        return new FaultSelector(this);
    }

    /** Cuts every path between {@code machine} and the others, both ways, until the rule is removed. */
    public FaultRule isolate(int machine) {
        return when().crossing(machine).refuse();
    }

    /** Cuts every path between the machines of {@code side} and the rest, until the rule is removed. */
    public FaultRule partition(int... side) {
        return when().crossing(side).refuse();
    }

    /** The rules installed now, in the order they are consulted. */
    public List<FaultRule> rules() {
        return List.of(rules);
    }

    /** Removes every rule; holds release what they hold. */
    public void clear() {
        for (FaultRule r : rules) {
            r.remove();
        }
    }

    synchronized <R extends FaultRule> R install(R rule) {
        if (closed) {
            throw new IllegalStateException("fault fabric is closed");
        }
        FaultRule[] next = new FaultRule[rules.length + 1];
        if (rule.first()) {
            next[0] = rule;
            System.arraycopy(rules, 0, next, 1, rules.length);
        } else {
            System.arraycopy(rules, 0, next, 0, rules.length);
            next[rules.length] = rule;
        }
        rules = next;
        return rule;
    }

    synchronized void uninstall(FaultRule rule) {
        List<FaultRule> next = new ArrayList<>(Arrays.asList(rules));
        if (next.remove(rule)) {
            rules = next.toArray(NONE);
        }
    }

    long nextRuleSeed() {
        // SplitMix64 of (seed, n): neighbouring rules get unrelated streams.
        long z = seed + 0x9E3779B97F4A7C15L * ruleSeeds.incrementAndGet();
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** The first installed rule's verdict on an operation, or null to let it pass. */
    FaultRule.Decision decide(OpKind kind, boolean batched, int source, int target, Region region, int length) {
        FaultRule[] rs = rules;
        for (FaultRule r : rs) {
            FaultRule.Decision d = r.decide(kind, batched, source, target, region, length);
            if (d != null) {
                return d;
            }
        }
        return null;
    }

    /** Whether a partition rule cuts {@code source} off from {@code target}. */
    boolean cut(int source, int target) {
        for (FaultRule r : rules) {
            if (r.cuts(source, target)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Lands an operation its issuer was told failed: at the rule's release (a {@link HoldRule}), or after the
     * decision's pause on a thread of this fabric. Counted until it ran, whatever its outcome at the target.
     */
    void applyLater(FaultRule.Decision d, BooleanSupplier operation) {
        synchronized (lateLock) {
            lateInFlight++;
        }
        Runnable once = () -> {
            boolean tookEffect = false;
            try {
                tookEffect = operation.getAsBoolean();
            } catch (RuntimeException lostWithItsTarget) {
                // The target closed meanwhile: as on a real network, the operation is lost; nobody waits for it.
            } finally {
                landed(true, tookEffect);
            }
        };
        if (d.rule() instanceof HoldRule held && held.enqueue(once)) {
            return;
        }
        try {
            long delay = d.rule() instanceof HoldRule ? 0 : d.delayNanos();
            // The timer only hands over: a late CAS over TCP may block for a request timeout, and must not hold up
            // the timer's other work (late messages).
            timer.schedule(() -> {
                try {
                    wire.execute(once);
                } catch (RejectedExecutionException closing) {
                    landed(false, false);
                }
            }, delay, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException closing) {
            landed(false, false); // the fabric is closing: lost with it
        }
    }

    private void landed(boolean ran, boolean tookEffect) {
        synchronized (lateLock) {
            lateInFlight--;
            if (ran) {
                lateLanded++;
            }
            if (tookEffect) {
                lateTookEffect++;
            }
            lateLock.notifyAll();
        }
    }

    /** Operations whose issuer was told they failed that have not landed yet (held or waiting out their pause). */
    public long lateOperationsInFlight() {
        synchronized (lateLock) {
            return lateInFlight;
        }
    }

    /** Operations whose issuer was told they failed that have landed at their target since this fabric started. */
    public long lateOperationsLanded() {
        synchronized (lateLock) {
            return lateLanded;
        }
    }

    /**
     * Of the {@link #lateOperationsLanded}, those that changed their target: a CAS that found what it expected (so
     * took effect after its issuer was told it failed), any WRITE, any message delivered.
     */
    public long lateOperationsTookEffect() {
        synchronized (lateLock) {
            return lateTookEffect;
        }
    }

    /**
     * Waits until every operation an {@code applyLate} rule failed has landed (held ones land only once their rule
     * is released or removed, {@link #clear} included): a history must see the last effects of its operations
     * before it is closed.
     *
     * @return false when the time ran out first
     */
    public boolean awaitLateOperations(long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        synchronized (lateLock) {
            while (lateInFlight > 0) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(lateLock, left);
            }
            return true;
        }
    }

    DutyExecutor wire() {
        return wire;
    }

    DutyExecutor timer() {
        return timer;
    }

    boolean closed() {
        return closed;
    }

    /**
     * Releases every hold, closes the wrapped fabric (so that what was held fails there, or runs to its end), then
     * stops this fabric's threads and waits for them: a thread performing a faulted batch touches a machine's memory,
     * which must not be freed before it ends. Late messages not delivered yet are lost, and so are late operations
     * still waiting out their pause (held ones land on the release, before the wrapped fabric closes).
     */
    @Override
    public void close() {
        synchronized (this) {
            closed = true;
        }
        clear();
        inner.close();
        timer.shutdownNow();
        wire.shutdown();
        boolean ended = wire.awaitEnded(CLOSE_PATIENCE_MILLIS) & timer.awaitEnded(CLOSE_PATIENCE_MILLIS);
        if (!ended) {
            LOG.warn("a thread of the fault fabric did not end within {} ms of its close", CLOSE_PATIENCE_MILLIS);
        }
        synchronized (lateLock) {
            // What still waited out its pause was dropped with the timer: lost, so nobody waits for it to land.
            lateInFlight = 0;
            lateLock.notifyAll();
        }
    }
}
