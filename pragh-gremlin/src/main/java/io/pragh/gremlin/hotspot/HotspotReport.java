package io.pragh.gremlin.hotspot;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What one round saw of one watched view and did about it: the reads its counter took since the view's last round
 * (and how many read a value on another machine than the reader's), their rate against the view's threshold, and the
 * values moved when it was hot.
 *
 * <p>Example: {@code for (HotspotReport r : hotspots.runRound()) System.out.println(r.toMap());}
 */
public final class HotspotReport {
    private final String view;
    private final long reads;
    private final long remoteReads;
    private final double readsPerSecond;
    private final double threshold;
    private final int moved;
    private final long[] readsByMachine;

    HotspotReport(final String view, final long[] readsByMachine, final long remoteReads, final double readsPerSecond,
                  final double threshold, final int moved) {
        this.view = view;
        this.readsByMachine = readsByMachine.clone();
        final long reads = java.util.Arrays.stream(readsByMachine).sum();
        this.reads = reads;
        this.remoteReads = remoteReads;
        this.readsPerSecond = readsPerSecond;
        this.threshold = threshold;
        this.moved = moved;
    }

    public String view() {
        return view;
    }

    /** GETs of the view's members counted since its last round. */
    public long reads() {
        return reads;
    }

    /** Of {@link #reads}, those through each machine (index = machine id): what the placement went by. */
    public long[] readsByMachine() {
        return readsByMachine.clone();
    }

    /** Of {@link #reads}, those whose value was on another machine than the reader. */
    public long remoteReads() {
        return remoteReads;
    }

    public double readsPerSecond() {
        return readsPerSecond;
    }

    /** The view's threshold: at or above it, the round placed the view's members. */
    public double threshold() {
        return threshold;
    }

    public boolean hot() {
        return reads > 0 && readsPerSecond >= threshold;
    }

    /** Values this round moved (MIGRATEd) for the view. */
    public int moved() {
        return moved;
    }

    /** The report as plain values, as {@code g.call("pragh.hotspot", [op: "round"])} answers it. */
    public Map<String, Object> toMap() {
        final Map<String, Object> m = new LinkedHashMap<>();
        m.put("view", view);
        m.put("reads", reads);
        m.put("readsByMachine", java.util.Arrays.stream(readsByMachine).boxed().toList());
        m.put("remoteReads", remoteReads);
        m.put("readsPerSecond", readsPerSecond);
        m.put("threshold", threshold);
        m.put("hot", hot());
        m.put("moved", moved);
        return m;
    }

    @Override
    public String toString() {
        return toMap().toString();
    }
}
