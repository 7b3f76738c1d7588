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
 * @param minRate           accesses per second below which no migration is worth it (default 10/s)
 * @param cooldownIntervals whole intervals after the one of an approval during which the same key is not approved
 *                          again (0: only the rest of that interval), a damper against ping-pong on top of the
 *                          contention rule (default 1)
 */
public record CoordinatorConfig(Mechanism mechanism, double margin, double minRate, int cooldownIntervals) {
    public static final double DEFAULT_MARGIN = 0.5;
    public static final double DEFAULT_MIN_RATE = 10;
    public static final int DEFAULT_COOLDOWN_INTERVALS = 1;

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
    }

    public static CoordinatorConfig defaults() {
        return new CoordinatorConfig(Mechanism.EAGER, DEFAULT_MARGIN, DEFAULT_MIN_RATE, DEFAULT_COOLDOWN_INTERVALS);
    }

    public CoordinatorConfig withMechanism(Mechanism m) {
        return new CoordinatorConfig(m, margin, minRate, cooldownIntervals);
    }

    public CoordinatorConfig withMargin(double m) {
        return new CoordinatorConfig(mechanism, m, minRate, cooldownIntervals);
    }

    public CoordinatorConfig withMinRate(double r) {
        return new CoordinatorConfig(mechanism, margin, r, cooldownIntervals);
    }

    public CoordinatorConfig withCooldownIntervals(int n) {
        return new CoordinatorConfig(mechanism, margin, minRate, n);
    }
}
