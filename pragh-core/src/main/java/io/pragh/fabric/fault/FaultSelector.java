package io.pragh.fabric.fault;

import io.pragh.fabric.Region;
import java.util.BitSet;
import java.util.concurrent.TimeUnit;

/**
 * Which operations a fault rule acts on, built fluently and ended by the action that installs the rule. Every
 * filter left out matches everything: {@code fabric.when().drop()} drops every operation and message. Filters of one
 * kind add up ({@code reads().cas()} selects both), filters of different kinds must all hold.
 *
 * <pre>{@code
 * FaultFabric fabric = new FaultFabric(new InProcessFabric(4, 0), 42);
 * HoldRule held = fabric.when().cas().batched().from(1).to(0).region(Region.KEYS).times(1).hold();
 * fabric.when().oneSided().probability(0.02).delay(50, 500, TimeUnit.MICROSECONDS);
 * fabric.when().messages().to(3).probability(0.01).drop();
 * }</pre>
 */
public final class FaultSelector {
    /** How long {@link #reorder} may delay a single operation or a message so that later ones overtake it. */
    public static final long REORDER_MAX_NANOS = 2_000_000;

    private final FaultFabric fabric;
    int kinds;
    Boolean batched;
    BitSet from;
    BitSet to;
    BitSet crossing;
    Region region;
    int length = -1;
    double probability = 1.0;
    long skip;
    long times = Long.MAX_VALUE;
    boolean first;

    FaultSelector(FaultFabric fabric) {
        this.fabric = fabric;
    }

    public FaultSelector reads() {
        return kinds(OpKind.READ);
    }

    public FaultSelector writes() {
        return kinds(OpKind.WRITE);
    }

    public FaultSelector cas() {
        return kinds(OpKind.CAS);
    }

    /** READ, WRITE and CAS. */
    public FaultSelector oneSided() {
        return kinds(OpKind.READ, OpKind.WRITE, OpKind.CAS);
    }

    public FaultSelector messages() {
        return kinds(OpKind.MESSAGE);
    }

    public FaultSelector kinds(OpKind... selected) {
        for (OpKind k : selected) {
            kinds |= k.bit();
        }
        return this;
    }

    /** Only one-sided operations issued one at a time (not in a batch). */
    public FaultSelector single() {
        batched = false;
        return this;
    }

    /** Only one-sided operations posted in a batch. */
    public FaultSelector batched() {
        batched = true;
        return this;
    }

    /** Only operations issued by one of these machines. */
    public FaultSelector from(int... machines) {
        from = add(from, machines);
        return this;
    }

    /** Only operations addressed to one of these machines. */
    public FaultSelector to(int... machines) {
        to = add(to, machines);
        return this;
    }

    /** Only operations between one of these machines and a machine outside them, either way: a partition's cut. */
    public FaultSelector crossing(int... side) {
        crossing = add(crossing, side);
        return this;
    }

    public FaultSelector region(Region r) {
        this.region = r;
        return this;
    }

    /** Only operations (or messages) of exactly this many bytes. */
    public FaultSelector length(int bytes) {
        this.length = bytes;
        return this;
    }

    /** Acts on each selected operation with this probability, drawn from the rule's own seeded random source. */
    public FaultSelector probability(double p) {
        if (!(p >= 0 && p <= 1)) {
            throw new IllegalArgumentException("probability must be in 0..1, got " + p);
        }
        this.probability = p;
        return this;
    }

    /** Lets the first {@code n} selected operations pass untouched. */
    public FaultSelector after(long n) {
        if (n < 0) {
            throw new IllegalArgumentException("after must be >= 0, got " + n);
        }
        this.skip = n;
        return this;
    }

    /** Acts at most {@code n} times, then lets everything pass. */
    public FaultSelector times(long n) {
        if (n < 1) {
            throw new IllegalArgumentException("times must be >= 1, got " + n);
        }
        this.times = n;
        return this;
    }

    /**
     * Installs the rule ahead of every rule installed so far, so that it decides first (a partition or a hold that
     * must win over background delays); by default a rule goes last.
     */
    public FaultSelector first() {
        this.first = true;
        return this;
    }

    /** Performs each selected operation after a pause drawn uniformly from {@code min..max}. */
    public FaultRule delay(long min, long max, TimeUnit unit) {
        if (min < 0 || max < min) {
            throw new IllegalArgumentException("delay needs 0 <= min <= max, got " + min + ".." + max);
        }
        return fabric.install(new FaultRule(fabric, this, FaultAction.DELAY, unit.toNanos(min), unit.toNanos(max)));
    }

    public FaultRule delay(long pause, TimeUnit unit) {
        return delay(pause, pause, unit);
    }

    /** Holds each selected operation until {@link HoldRule#release}; afterwards the rule lets everything pass. */
    public HoldRule hold() {
        return fabric.install(new HoldRule(fabric, this));
    }

    /**
     * Lets each selected operation take effect at once but holds its reply until {@link HoldRule#release}: freezes
     * the issuer right after a step that happened (a PUT between its won CAS and its invalidation, say).
     */
    public HoldRule holdReply() {
        return fabric.install(new HoldRule(fabric, this, FaultAction.HOLD_REPLY));
    }

    /** Selected operations never reach their target; messages are lost silently (see {@link #refuse}). */
    public FaultRule drop() {
        return fabric.install(new FaultRule(fabric, this, FaultAction.DROP, 0, 0));
    }

    /** Selected operations and message sends fail at once, retryably, without reaching their target. */
    public FaultRule refuse() {
        return fabric.install(new FaultRule(fabric, this, FaultAction.REFUSE, 0, 0));
    }

    /** Selected operations take effect at their target but their issuer sees a retryable failure. */
    public FaultRule applyThenFail() {
        return fabric.install(new FaultRule(fabric, this, FaultAction.APPLY_THEN_FAIL, 0, 0));
    }

    /**
     * Selected operations fail at once at their issuer with a retryable {@link io.pragh.fabric.FabricException}, as
     * one that got no answer in time does, and take effect at their target after a pause drawn uniformly from
     * {@code min..max} (see {@link FaultFabric#awaitLateOperations}): a CAS or WRITE its issuer was told failed lands
     * later, possibly after other machines' operations on the same word. Messages fail to send and are delivered
     * late; READs only fail.
     *
     * <pre>{@code
     * fabric.when().cas().probability(0.01).applyLate(0, 50, TimeUnit.MILLISECONDS);
     * }</pre>
     */
    public FaultRule applyLate(long min, long max, TimeUnit unit) {
        if (min < 0 || max < min) {
            throw new IllegalArgumentException("applyLate needs 0 <= min <= max, got " + min + ".." + max);
        }
        return fabric.install(new FaultRule(fabric, this, FaultAction.APPLY_LATE, unit.toNanos(min),
            unit.toNanos(max)));
    }

    /**
     * As {@link #applyLate(long, long, TimeUnit)}, but the selected operations take effect when the rule is
     * released ({@link HoldRule#release}, in the order they were issued), so a test decides what happens before.
     */
    public HoldRule applyLateOnRelease() {
        return fabric.install(new HoldRule(fabric, this, FaultAction.APPLY_LATE));
    }

    /** Selected batched operations run in a shuffled order; single ones and messages get overtaken. */
    public FaultRule reorder() {
        return fabric.install(new FaultRule(fabric, this, FaultAction.REORDER, 0, REORDER_MAX_NANOS));
    }

    private static BitSet add(BitSet set, int[] machines) {
        BitSet s = set == null ? new BitSet() : set;
        for (int m : machines) {
            if (m < 0) {
                throw new IllegalArgumentException("machine id must be >= 0, got " + m);
            }
            s.set(m);
        }
        return s;
    }
}
