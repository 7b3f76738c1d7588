package io.pragh.coordinator;

/**
 * Knobs of the threshold policy.
 *
 * <pre>{@code
 * CoordinatorConfig c = CoordinatorConfig.defaults().withMargin(1.0);
 * }</pre>
 *
 * @param mechanism         eager or deferred (default eager)
 * @param margin            an applicant's rate must beat the current host's, and every other contender's, by this
 *                          fraction (default 0.5: 50% more accesses per second, as in the paper)
 * @param minRate           accesses per second below which no migration is approved; 0 (the default) for none, the
 *                          relative policy: what a machine reports already passed its monitor's access count and
 *                          share of the machine's remote reads ({@code MonitorConfig.minShare}: only a monitor sees
 *                          that whole), and
 *                          the approval budget bounds each interval's work. A positive rate is the paper's absolute
 *                          threshold, an override (a rate that suits one throughput admits nothing, or everything,
 *                          at another)
 * @param cooldownIntervals whole intervals after the one of an approval during which the same key is not approved
 *                          again (0: only the rest of that interval), a damper against ping-pong on top of the
 *                          contention rule (default 1)
 * @param approvalBudget    migrations approved per target machine per interval, the keys its accesses rate highest
 *                          first (default 16,384): bounds an interval's migration work and the cache churn it causes,
 *                          while the next intervals take the rest
 */
public record CoordinatorConfig(Mechanism mechanism, double margin, double minRate, int cooldownIntervals,
                                int approvalBudget) {
    public static final double DEFAULT_MARGIN = 0.5;
    /** No absolute rate: the relative policy (see the record's javadoc). */
    public static final double DEFAULT_MIN_RATE = 0;
    public static final int DEFAULT_COOLDOWN_INTERVALS = 1;
    public static final int DEFAULT_APPROVAL_BUDGET = 16_384;

    public CoordinatorConfig {
        if (mechanism == null) {
            throw new IllegalArgumentException("mechanism must be set (EAGER or DEFERRED)");
        }
        if (!(margin >= 0)) {
            throw new IllegalArgumentException("margin must be >= 0, got " + margin);
        }
        if (!(minRate >= 0)) {
            throw new IllegalArgumentException("minRate must be >= 0, got " + minRate);
        }
        if (cooldownIntervals < 0) {
            throw new IllegalArgumentException("cooldownIntervals must be >= 0, got " + cooldownIntervals);
        }
        if (approvalBudget < 1) {
            throw new IllegalArgumentException("approvalBudget must be >= 1, got " + approvalBudget);
        }
    }

    /** With the default approval budget. */
    public CoordinatorConfig(Mechanism mechanism, double margin, double minRate, int cooldownIntervals) {
        this(mechanism, margin, minRate, cooldownIntervals, DEFAULT_APPROVAL_BUDGET);
    }

    public static CoordinatorConfig defaults() {
        return new CoordinatorConfig(Mechanism.EAGER, DEFAULT_MARGIN, DEFAULT_MIN_RATE, DEFAULT_COOLDOWN_INTERVALS);
    }

    public CoordinatorConfig withMechanism(Mechanism m) {
        return new CoordinatorConfig(m, margin, minRate, cooldownIntervals, approvalBudget);
    }

    public CoordinatorConfig withMargin(double m) {
        return new CoordinatorConfig(mechanism, m, minRate, cooldownIntervals, approvalBudget);
    }

    public CoordinatorConfig withMinRate(double r) {
        return new CoordinatorConfig(mechanism, margin, r, cooldownIntervals, approvalBudget);
    }

    public CoordinatorConfig withCooldownIntervals(int n) {
        return new CoordinatorConfig(mechanism, margin, minRate, n, approvalBudget);
    }

    public CoordinatorConfig withApprovalBudget(int n) {
        return new CoordinatorConfig(mechanism, margin, minRate, cooldownIntervals, n);
    }
}
