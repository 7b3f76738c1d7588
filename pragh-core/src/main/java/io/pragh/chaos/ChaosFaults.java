package io.pragh.chaos;

import io.pragh.fabric.fault.FaultFabric;
import io.pragh.fabric.fault.FaultRule;
import io.pragh.fabric.fault.HoldRule;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * The faults of one {@link ChaosWorkload} window, as its {@link FaultPlan} says: the background rules (lost replies
 * and messages, reordering, delays, operations failed and landing late) installed for the whole window, and the fault thread's CAS holds and partitions
 * that come and go until the window stops, counted as they are removed.
 *
 * <pre>{@code
 * ChaosFaults faults = new ChaosFaults(fabric, plan, seed, 4, () -> stop);
 * Map<String, FaultRule> background = faults.installBackground();
 * new Thread(faults::run, "chaos-faults").start();
 * }</pre>
 */
final class ChaosFaults {
    private final FaultFabric fabric;
    private final FaultPlan plan;
    private final long seed;
    private final int machines;
    private final BooleanSupplier stop;
    /** Operations held, and refused by partitions, by the fault thread's rules in this window. */
    private final AtomicLong held = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();

    ChaosFaults(FaultFabric fabric, FaultPlan plan, long seed, int machines, BooleanSupplier stop) {
        this.fabric = fabric;
        this.plan = plan;
        this.seed = seed;
        this.machines = machines;
        this.stop = stop;
    }

    /** Operations the fault thread's holds held, once they were removed. */
    long held() {
        return held.get();
    }

    /** Operations its partitions refused, once they were removed. */
    long refused() {
        return refused.get();
    }

    /** The plan's background rules for one window, by the kind of fault each counts as. */
    Map<String, FaultRule> installBackground() {
        FaultPlan p = plan;
        Map<String, FaultRule> rules = new LinkedHashMap<>();
        if (p.lostReplyProbability() > 0) {
            rules.put("lost CAS replies",
                fabric.when().cas().single().probability(p.lostReplyProbability()).applyThenFail());
        }
        if (p.messageDropProbability() > 0) {
            rules.put("lost messages", fabric.when().messages().probability(p.messageDropProbability()).drop());
        }
        if (p.reorderProbability() > 0) {
            rules.put("reordered batches", fabric.when().batched().probability(p.reorderProbability()).reorder());
            rules.put("reordered messages", fabric.when().messages().probability(p.reorderProbability()).reorder());
        }
        if (p.delayProbability() > 0) {
            rules.put("delayed operations", fabric.when().oneSided().probability(p.delayProbability())
                .delay(0, p.maxDelayMicros(), TimeUnit.MICROSECONDS));
        }
        if (p.messageDelayProbability() > 0) {
            rules.put("delayed messages", fabric.when().messages().probability(p.messageDelayProbability())
                .delay(0, p.maxDelayMicros(), TimeUnit.MICROSECONDS));
        }
        if (p.lateProbability() > 0) {
            rules.put("CASes landing late", fabric.when().cas().probability(p.lateProbability())
                .applyLate(0, p.maxLateMillis(), TimeUnit.MILLISECONDS));
            rules.put("sends landing late", fabric.when().messages().probability(p.lateProbability())
                .applyLate(0, p.maxLateMillis(), TimeUnit.MILLISECONDS));
        }
        return rules;
    }

    /** The fault thread: CAS holds and partitions come and go until the window stops; leaves none behind. */
    void run() {
        FaultPlan p = plan;
        SplittableRandom rnd = new SplittableRandom(seed);
        long now = System.nanoTime();
        long nextHold = p.holdEveryMillis() > 0 ? now + TimeUnit.MILLISECONDS.toNanos(p.holdEveryMillis()) : -1;
        long nextCut = p.partitionEveryMillis() > 0 ? now + TimeUnit.MILLISECONDS.toNanos(p.partitionEveryMillis())
            : -1;
        HoldRule hold = null;
        long holdEnds = 0;
        FaultRule cut = null;
        long cutEnds = 0;
        try {
            while (!stop.getAsBoolean()) {
                now = System.nanoTime();
                if (hold != null && now >= holdEnds) {
                    held.addAndGet(hold.everHeld());
                    hold.remove();
                    hold = null;
                    nextHold = now + TimeUnit.MILLISECONDS.toNanos(p.holdEveryMillis());
                } else if (hold == null && nextHold >= 0 && now >= nextHold) {
                    int m = rnd.nextInt(machines);
                    hold = rnd.nextBoolean() ? fabric.when().cas().batched().from(m).times(1).first().hold()
                        : fabric.when().cas().single().from(m).times(1).first().hold();
                    holdEnds = now + TimeUnit.MILLISECONDS.toNanos(1 + rnd.nextLong(Math.max(1, p.maxHoldMillis())));
                }
                if (cut != null && now >= cutEnds) {
                    refused.addAndGet(cut.fired());
                    cut.remove();
                    cut = null;
                    nextCut = now + TimeUnit.MILLISECONDS.toNanos(p.partitionEveryMillis());
                } else if (cut == null && nextCut >= 0 && now >= nextCut) {
                    cut = fabric.when().crossing(rnd.nextInt(machines)).first().refuse();
                    cutEnds = now + TimeUnit.MILLISECONDS.toNanos(p.partitionMillis());
                }
                Thread.sleep(1);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (hold != null) {
                held.addAndGet(hold.everHeld());
                hold.remove();
            }
            if (cut != null) {
                refused.addAndGet(cut.fired());
                cut.remove();
            }
        }
    }
}
