package io.pragh.bench.traversal;

/**
 * The phases a {@link ModeSession} runs and how many query threads it runs them with: what the traversal benchmark's
 * flags and another benchmark's on the same mode machinery have in common.
 *
 * <pre>{@code
 * Phases p = new Phases(2, 10, 2, 1, 8);
 * }</pre>
 *
 * @param warmupSeconds   warm-up phase length
 * @param durationSeconds measurement phase length
 * @param intervalSeconds monitoring interval length
 * @param intervals       monitoring intervals (each followed by its migrations) before the measurement
 * @param threads         query threads
 */
public record Phases(double warmupSeconds, double durationSeconds, double intervalSeconds, int intervals,
                     int threads) {
    public Phases {
        if (!(warmupSeconds >= 0) || !(durationSeconds > 0) || !(intervalSeconds > 0) || intervals < 1 || threads < 1) {
            throw new IllegalArgumentException("invalid phases: warm-up " + warmupSeconds + " s, duration "
                + durationSeconds + " s, interval " + intervalSeconds + " s, " + intervals + " intervals, " + threads
                + " threads");
        }
    }
}
