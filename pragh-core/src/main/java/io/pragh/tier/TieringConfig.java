package io.pragh.tier;

/**
 * Knobs of the far-memory tier.
 *
 * <pre>{@code
 * TieringConfig c = TieringConfig.defaults().withLocalBudgetBytes(64L << 20);   // 64 MiB of values per machine
 * }</pre>
 *
 * @param localBudgetBytes bytes of values (records, headers and size-class rounding included) a compute machine keeps
 *                         in its local memory; {@link #UNBOUNDED} (the default) turns tiering off
 * @param warmKeptLocal    the share of warm bytes kept local when the budget allows (default 0.5): cold values always
 *                         go out first, and far warm values come back while less than this share of warm bytes is
 *                         local and they fit in the budget
 * @param hotAccesses      decayed accesses per round at which a value is hot (default 8); a value not read is cold
 * @param intervalMillis   time between two rounds of the tiering duty (default 1 s); counts halve every round.
 *                         {@link #MANUAL} (0): no thread, rounds run only when {@code Tiering#runRound} is called
 */
public record TieringConfig(long localBudgetBytes, double warmKeptLocal, long hotAccesses, long intervalMillis) {
    public static final long UNBOUNDED = Long.MAX_VALUE;
    public static final double DEFAULT_WARM_KEPT_LOCAL = 0.5;
    public static final long DEFAULT_HOT_ACCESSES = 8;
    public static final long DEFAULT_INTERVAL_MILLIS = 1_000;
    public static final long MANUAL = 0;

    public TieringConfig {
        if (localBudgetBytes < 0) {
            throw new IllegalArgumentException("local value budget must be >= 0 bytes, got " + localBudgetBytes);
        }
        if (!(warmKeptLocal >= 0 && warmKeptLocal <= 1)) {
            throw new IllegalArgumentException("warmKeptLocal must be in [0, 1], got " + warmKeptLocal);
        }
        if (hotAccesses < 1) {
            throw new IllegalArgumentException("hotAccesses must be >= 1, got " + hotAccesses);
        }
        if (intervalMillis < 0) {
            throw new IllegalArgumentException("tiering interval must be >= 0 ms (0: manual rounds), got "
                + intervalMillis);
        }
    }

    public static TieringConfig defaults() {
        return new TieringConfig(UNBOUNDED, DEFAULT_WARM_KEPT_LOCAL, DEFAULT_HOT_ACCESSES, DEFAULT_INTERVAL_MILLIS);
    }

    /** Whether a budget is set: without one the tier moves nothing. */
    public boolean bounded() {
        return localBudgetBytes != UNBOUNDED;
    }

    public TieringConfig withLocalBudgetBytes(long bytes) {
        return new TieringConfig(bytes, warmKeptLocal, hotAccesses, intervalMillis);
    }

    public TieringConfig withWarmKeptLocal(double share) {
        return new TieringConfig(localBudgetBytes, share, hotAccesses, intervalMillis);
    }

    public TieringConfig withHotAccesses(long n) {
        return new TieringConfig(localBudgetBytes, warmKeptLocal, n, intervalMillis);
    }

    public TieringConfig withIntervalMillis(long ms) {
        return new TieringConfig(localBudgetBytes, warmKeptLocal, hotAccesses, ms);
    }
}
