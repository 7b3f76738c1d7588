package io.pragh.bench.traversal.deploy;

/**
 * The control of split migration on a bench cluster (paper section 4.4): monitors on every machine, a coordinator,
 * and the approved migrations. Driven either by the benchmark's phases ({@link #start}, {@link #endInterval},
 * {@link #awaitMigrations}) or by itself ({@link #startAutomatic}).
 *
 * <pre>{@code
 * try (SplitMigration m = cluster.splitMigration()) {
 *     m.start(); Thread.sleep(2_000);
 *     SplitMigration.Interval i = m.endInterval();
 *     m.awaitMigrations(120_000);
 * }
 * }</pre>
 */
public interface SplitMigration extends AutoCloseable {
    /** What the coordinator decided at the end of an interval. */
    record Interval(int approvals, int track, int untrack) {
    }

    /** Starts every machine's monitor on a fresh interval. */
    void start();

    /** Ends the interval on every machine and lets the coordinator decide; the approved migrations start. */
    Interval endInterval();

    /** Waits until every migration approved so far has finished; returns the values moved since {@link #start}. */
    long awaitMigrations(long timeoutMillis) throws Exception;

    /** Values moved since {@link #start}. */
    long migratedKeys();

    /** Bytes read by migrations since {@link #start}. */
    long migratedBytes();

    /** Read replicas placed (or kept) on the replica policy's offers since {@link #start}; 0 without replicas. */
    default long replicasPlaced() {
        return 0;
    }

    /** Where the read replicas stand now (held, bytes, renewals, invalidations, drops); empty without replicas. */
    default String replicaSummary() {
        return "";
    }

    /**
     * Since {@link #markInstantPolls}: GETs that waited for a pending record and for how long, migrations that waited
     * for their sources' replica leases, keys whose replicas all ran out (in this JVM; elsewhere empty): whether
     * queries stall on writes and moves, by count rather than by throughput.
     */
    default String waitsSinceMark() {
        return "";
    }

    /** Marks now for {@link #instantPollsSinceMark} (in this JVM; elsewhere nothing). */
    default void markInstantPolls() {
    }

    /**
     * How often instant reports were polled since {@link #markInstantPolls}, how long a poll took and what the polls
     * approved: a diagnostic of the control plane's reaction time; empty where not known (server processes).
     */
    default String instantPollsSinceMark() {
        return "";
    }

    /** Starts monitoring, and migration at the end of every interval without the caller's help. */
    void startAutomatic();

    /**
     * After {@link #start} and intervals the caller ended: from now on intervals end by themselves (and, in this JVM,
     * instant reports are acted on), as after {@link #startAutomatic}.
     */
    void runAutomatically();

    /**
     * Stops automatic migration, and the monitors where this JVM holds them (in-process); a server's monitor counts
     * on until its cluster stops.
     */
    @Override
    void close();
}
