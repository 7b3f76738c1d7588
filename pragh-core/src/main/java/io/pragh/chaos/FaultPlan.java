package io.pragh.chaos;

/**
 * The faults a {@link ChaosWorkload} injects while it runs. Background faults act on a share of all traffic for the
 * whole window; holds and partitions come and go on the workload's fault thread: every {@code holdEveryMillis} one
 * machine's next CAS (batched, as a MIGRATE's, or single, as a PUT's on a migrated value) is held for up to
 * {@code maxHoldMillis}, longer than a short reclaim lease; every {@code partitionEveryMillis} one machine is cut off
 * from the others for {@code partitionMillis}. A zero probability or period turns a fault off.
 *
 * <pre>{@code
 * FaultPlan plan = FaultPlan.all();
 * FaultPlan calm = FaultPlan.none();
 * FaultPlan noCuts = FaultPlan.all().withPartitions(0, 0);
 * }</pre>
 *
 * @param delayProbability        share of one-sided operations delayed by up to {@code maxDelayMicros}
 * @param maxDelayMicros          longest injected delay of an operation or a message
 * @param reorderProbability      share of batch posts run in a shuffled order, and of messages overtaken
 * @param messageDelayProbability share of messages delivered up to {@code maxDelayMicros} late
 * @param messageDropProbability  share of messages lost (the operations waiting for them time out)
 * @param lostReplyProbability    share of single CASes that take effect but report a failure
 * @param holdEveryMillis         period of CAS holds
 * @param maxHoldMillis           longest hold
 * @param partitionEveryMillis    period of partitions
 * @param partitionMillis         how long a machine stays cut off
 * @param lateProbability         share of CASes (single or batched) and of message sends that fail at their issuer,
 *                                as on a timeout, and still take effect at their target up to {@code maxLateMillis}
 *                                later ({@code FaultSelector#applyLate}); a window ends once they all landed
 * @param maxLateMillis           latest landing of such an operation after its failure
 */
public record FaultPlan(double delayProbability, long maxDelayMicros, double reorderProbability,
                        double messageDelayProbability, double messageDropProbability, double lostReplyProbability,
                        long holdEveryMillis, long maxHoldMillis, long partitionEveryMillis, long partitionMillis,
                        double lateProbability, long maxLateMillis) {
    public FaultPlan {
        for (double p : new double[] {delayProbability, reorderProbability, messageDelayProbability,
            messageDropProbability, lostReplyProbability, lateProbability}) {
            if (!(p >= 0 && p <= 1)) {
                throw new IllegalArgumentException("a fault probability must be in 0..1, got " + p);
            }
        }
        if (maxDelayMicros < 0 || holdEveryMillis < 0 || maxHoldMillis < 0 || partitionEveryMillis < 0
            || partitionMillis < 0 || maxLateMillis < 0) {
            throw new IllegalArgumentException("fault delays and periods must be >= 0");
        }
    }

    /** No fault at all. */
    public static FaultPlan none() {
        return new FaultPlan(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    }

    /**
     * Every kind of fault: 2% of operations delayed up to 2 ms, 5% of batches and messages reordered, 2% of messages
     * late, 0.1% lost, 0.1% of single CAS replies lost, a CAS held for up to 60 ms every 100 ms, a machine cut off for
     * 50 ms every 400 ms, 0.1% of CASes and message sends failed and landing up to 60 ms later.
     */
    public static FaultPlan all() {
        return new FaultPlan(0.02, 2_000, 0.05, 0.02, 0.001, 0.001, 100, 60, 400, 50, 0.001, 60);
    }

    /**
     * Every kind of fault, at rates a long run sustains while most operations still answer: 1% of operations and
     * of messages delayed up to 200 us, 1% of batches and messages reordered, 0.005% of messages lost and of single
     * CAS replies lost, a CAS held for up to 50 ms (past a 20 ms reclaim lease) every second, a machine cut off for
     * 20 ms every 2 s, 0.005% of CASes and message sends failed and landing up to 50 ms later. What
     * {@code ./pragh bench soak} runs.
     */
    public static FaultPlan soak() {
        return new FaultPlan(0.01, 200, 0.01, 0.01, 0.000_05, 0.000_05, 1_000, 50, 2_000, 20, 0.000_05, 50);
    }

    public FaultPlan withDelays(double probability, long maxMicros) {
        return new FaultPlan(probability, maxMicros, reorderProbability, messageDelayProbability,
            messageDropProbability, lostReplyProbability, holdEveryMillis, maxHoldMillis, partitionEveryMillis,
            partitionMillis, lateProbability, maxLateMillis);
    }

    /** The kinds of fault {@link #only} knows, as named on a command line. */
    public static final java.util.List<String> KINDS = java.util.List.of("delays", "reorders", "late-messages",
        "lost-messages", "lost-replies", "holds", "partitions", "late-landing");

    /**
     * This plan with only the named kinds of fault on (see {@link #KINDS}).
     *
     * @throws IllegalArgumentException naming a kind it does not know
     */
    public FaultPlan only(java.util.Collection<String> kinds) {
        for (String k : kinds) {
            if (!KINDS.contains(k)) {
                throw new IllegalArgumentException("unknown kind of fault '" + k + "' (known: "
                    + String.join(", ", KINDS) + ")");
            }
        }
        return new FaultPlan(kinds.contains("delays") ? delayProbability : 0, maxDelayMicros,
            kinds.contains("reorders") ? reorderProbability : 0,
            kinds.contains("late-messages") ? messageDelayProbability : 0,
            kinds.contains("lost-messages") ? messageDropProbability : 0,
            kinds.contains("lost-replies") ? lostReplyProbability : 0,
            kinds.contains("holds") ? holdEveryMillis : 0, maxHoldMillis,
            kinds.contains("partitions") ? partitionEveryMillis : 0, partitionMillis,
            kinds.contains("late-landing") ? lateProbability : 0, maxLateMillis);
    }

    public FaultPlan withPartitions(long everyMillis, long forMillis) {
        return new FaultPlan(delayProbability, maxDelayMicros, reorderProbability, messageDelayProbability,
            messageDropProbability, lostReplyProbability, holdEveryMillis, maxHoldMillis, everyMillis, forMillis,
            lateProbability, maxLateMillis);
    }

    public FaultPlan withHolds(long everyMillis, long maxMillis) {
        return new FaultPlan(delayProbability, maxDelayMicros, reorderProbability, messageDelayProbability,
            messageDropProbability, lostReplyProbability, everyMillis, maxMillis, partitionEveryMillis,
            partitionMillis, lateProbability, maxLateMillis);
    }

    public FaultPlan withLostReplies(double probability) {
        return new FaultPlan(delayProbability, maxDelayMicros, reorderProbability, messageDelayProbability,
            messageDropProbability, probability, holdEveryMillis, maxHoldMillis, partitionEveryMillis,
            partitionMillis, lateProbability, maxLateMillis);
    }

    public FaultPlan withMessageDrops(double probability) {
        return new FaultPlan(delayProbability, maxDelayMicros, reorderProbability, messageDelayProbability,
            probability, lostReplyProbability, holdEveryMillis, maxHoldMillis, partitionEveryMillis,
            partitionMillis, lateProbability, maxLateMillis);
    }

    /**
     * This plan with a share {@code probability} of CASes and message sends failing at their issuer and landing at
     * their target up to {@code maxMillis} later.
     */
    public FaultPlan withLateLandings(double probability, long maxMillis) {
        return new FaultPlan(delayProbability, maxDelayMicros, reorderProbability, messageDelayProbability,
            messageDropProbability, lostReplyProbability, holdEveryMillis, maxHoldMillis, partitionEveryMillis,
            partitionMillis, probability, maxMillis);
    }

    /** One line for reports. */
    public String describe() {
        return String.format(java.util.Locale.ROOT, "delays %.1f%% (<= %d us), reorders %.1f%%, late messages %.1f%%,"
                + " lost messages %.3f%%, lost CAS replies %.3f%%, CAS holds %s, partitions %s, failed CASes and sends"
                + " landing late %.3f%% (<= %d ms)",
            100 * delayProbability, maxDelayMicros, 100 * reorderProbability, 100 * messageDelayProbability,
            100 * messageDropProbability, 100 * lostReplyProbability,
            holdEveryMillis == 0 ? "off" : "<= " + maxHoldMillis + " ms every " + holdEveryMillis + " ms",
            partitionEveryMillis == 0 ? "off" : partitionMillis + " ms every " + partitionEveryMillis + " ms",
            100 * lateProbability, maxLateMillis);
    }
}
