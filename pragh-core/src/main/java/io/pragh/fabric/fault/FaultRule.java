package io.pragh.fabric.fault;

import io.pragh.fabric.Region;
import java.util.BitSet;
import java.util.SplittableRandom;

/**
 * A fault rule installed in a {@link FaultFabric}: which operations it selects ({@link FaultSelector}) and what it
 * does to them. Rules are consulted in the order they were installed; the first that acts on an operation decides
 * its fate. A rule's chance draws come from its own random source, seeded from the fabric's seed and the rule's
 * place in the installation order.
 *
 * <pre>{@code
 * FaultRule slow = fabric.when().reads().to(2).delay(1, TimeUnit.MILLISECONDS);
 * ...
 * long hits = slow.fired();
 * slow.remove();
 * }</pre>
 */
public class FaultRule {
    private final FaultFabric fabric;
    private final int kinds;
    private final Boolean batched;
    private final BitSet from;
    private final BitSet to;
    private final BitSet crossing;
    private final Region region;
    private final int length;
    private final double probability;
    private final long skip;
    private final long times;
    private final FaultAction action;
    private final long minDelayNanos;
    private final long maxDelayNanos;
    private final boolean first;
    private final SplittableRandom random;
    private long matched;
    private long fired;
    private volatile boolean removed;

    FaultRule(FaultFabric fabric, FaultSelector s, FaultAction action, long minDelayNanos, long maxDelayNanos) {
        this.fabric = fabric;
        this.kinds = s.kinds;
        this.batched = s.batched;
        this.from = s.from == null ? null : (BitSet) s.from.clone();
        this.to = s.to == null ? null : (BitSet) s.to.clone();
        this.crossing = s.crossing == null ? null : (BitSet) s.crossing.clone();
        this.region = s.region;
        this.length = s.length;
        this.probability = s.probability;
        this.skip = s.skip;
        this.times = s.times;
        this.action = action;
        this.minDelayNanos = minDelayNanos;
        this.maxDelayNanos = maxDelayNanos;
        this.first = s.first;
        this.random = new SplittableRandom(fabric.nextRuleSeed());
    }

    /** Whether the operation is one this rule selects, chance and counts aside. */
    final boolean selects(OpKind kind, boolean inBatch, int source, int target, Region r, int bytes) {
        if (kinds != 0 && (kinds & kind.bit()) == 0) {
            return false;
        }
        if (batched != null && (kind == OpKind.MESSAGE || batched != inBatch)) {
            return false;
        }
        if (from != null && !from.get(source)) {
            return false;
        }
        if (to != null && !to.get(target)) {
            return false;
        }
        if (crossing != null && crossing.get(source) == crossing.get(target)) {
            return false;
        }
        if (region != null && (kind == OpKind.MESSAGE || region != r)) {
            return false;
        }
        return length < 0 || length == bytes;
    }

    /** What the rule does to this operation, or null when it lets it pass. */
    synchronized Decision decide(OpKind kind, boolean inBatch, int source, int target, Region r, int bytes) {
        if (removed || !active() || !selects(kind, inBatch, source, target, r, bytes)) {
            return null;
        }
        matched++;
        if (matched <= skip || fired >= times || (probability < 1.0 && random.nextDouble() >= probability)) {
            return null;
        }
        fired++;
        long delay = maxDelayNanos == minDelayNanos ? minDelayNanos
            : minDelayNanos + random.nextLong(maxDelayNanos - minDelayNanos + 1);
        return new Decision(this, action, delay, random.nextLong());
    }

    /** Whether the rule still acts (a released hold does not). */
    boolean active() {
        return true;
    }

    /** Whether this rule cuts every path between two sides (what {@link FaultFabric#partition} installs). */
    final boolean cuts(int source, int target) {
        return !removed && action == FaultAction.REFUSE && crossing != null && kinds == 0 && batched == null
            && region == null && length < 0 && probability == 1.0 && skip == 0 && times == Long.MAX_VALUE
            && selects(OpKind.MESSAGE, false, source, target, null, -1);
    }

    /** Whether it was installed ahead of the others ({@link FaultSelector#first}). */
    final boolean first() {
        return first;
    }

    final FaultAction action() {
        return action;
    }

    /** Operations this rule selected so far (whether it then acted or not). */
    public synchronized long matched() {
        return matched;
    }

    /** Operations this rule acted on so far. */
    public synchronized long fired() {
        return fired;
    }

    /** Uninstalls the rule; a hold releases what it holds. */
    public void remove() {
        removed = true;
        fabric.uninstall(this);
    }

    @Override
    public String toString() {
        return action + " rule (fired " + fired() + " times)";
    }

    /** One rule's verdict on one operation. */
    record Decision(FaultRule rule, FaultAction action, long delayNanos, long seed) {
    }
}
