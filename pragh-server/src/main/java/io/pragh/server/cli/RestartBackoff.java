package io.pragh.server.cli;

/**
 * How long a supervisor waits before restarting a machine process that exited: {@code initial} after the first exit,
 * doubling with every exit that follows a short run, at most {@code max}; a run that lasted {@code stable} or longer
 * starts the sequence over. So a machine that crashes at once every time is restarted ever more slowly, while one that
 * served for a while and then lost its ZooKeeper session comes back after {@code initial}. Times are passed in, so the
 * policy is a pure function of what happened (and is tested without a clock). Not thread-safe: one supervisor thread.
 *
 * <p>Example: {@code RestartBackoff b = RestartBackoff.standard(); b.started(now); ...
 * long wait = b.exited(later); // 1000, then 2000, 4000, ... 30000}
 */
public final class RestartBackoff {
    private final long initialMillis;
    private final long maxMillis;
    private final long stableMillis;
    private long nextMillis;
    private long startedAtMillis = Long.MIN_VALUE;

    /** @throws IllegalArgumentException unless {@code 0 < initial <= max} and {@code stable > 0} */
    public RestartBackoff(long initialMillis, long maxMillis, long stableMillis) {
        if (initialMillis <= 0 || maxMillis < initialMillis || stableMillis <= 0) {
            throw new IllegalArgumentException("restart back-off needs 0 < initial <= max and stable > 0, got initial "
                + initialMillis + " ms, max " + maxMillis + " ms, stable " + stableMillis + " ms");
        }
        this.initialMillis = initialMillis;
        this.maxMillis = maxMillis;
        this.stableMillis = stableMillis;
        this.nextMillis = initialMillis;
    }

    /** 1 s doubling to 30 s, reset after a minute of running: what {@code ./pragh cluster} uses. */
    public static RestartBackoff standard() {
        return new RestartBackoff(1_000, 30_000, 60_000);
    }

    /** The process was (re)started at {@code nowMillis}. */
    public void started(long nowMillis) {
        startedAtMillis = nowMillis;
    }

    /** The process exited at {@code nowMillis}: returns how long to wait before starting it again. */
    public long exited(long nowMillis) {
        if (startedAtMillis != Long.MIN_VALUE && nowMillis - startedAtMillis >= stableMillis) {
            nextMillis = initialMillis;
        }
        long wait = nextMillis;
        nextMillis = Math.min(maxMillis, nextMillis * 2);
        startedAtMillis = Long.MIN_VALUE;
        return wait;
    }
}
