package io.pragh.monitor;

/**
 * Knobs of a machine's monitor.
 *
 * <pre>{@code
 * MonitorConfig c = MonitorConfig.defaults().withIntervalMillis(2_000);
 * }</pre>
 *
 * @param intervalMillis length of a monitoring interval; a periodic report is due at its end (default 10 s, as in
 *                       paper section 4.4)
 * @param instantRate    accesses per second at which a key is reported at once, before the interval ends
 *                       (default 100/s, the paper's); while the policy is relative ({@code reportRate} 0 and
 *                       {@code instantFactor} positive) it is the most the relative instant rate can be
 * @param reportRate     accesses per second below which an untracked key is left out of a periodic report; 0 (the
 *                       default) for none: the policy is then relative (see {@code minAccesses} and the coordinator's
 *                       approval budget), so that the same defaults work at 40 queries/s over processes and at millions
 *                       over RDMA. A positive rate is the paper's absolute threshold, an override
 * @param countRemoteInTable count remote accesses in the monitor's own table instead of reading the location cache's
 *                       counters. Off by default: the table is exactly the per-key cost the cache avoids; a machine
 *                       whose cache is disabled (split migration without a cache) counts in the table regardless.
 * @param minAccesses    accesses (this interval's, plus the decayed earlier ones) below which a key is left out of a
 *                       report whatever its rate (default 2): one access says nothing about which machine reads a key
 *                       most, and reporting every key touched once would send the whole working set each interval
 * @param minShare       the share of this machine's remote accesses in the interval (decayed the same way) below
 *                       which a key is left out of a periodic report (default 2^-21, about 4.8e-7); the relative
 *                       threshold is then {@code max(minAccesses, minShare * remote accesses)} accesses. The default is
 *                       the paper's 10 accesses/s expressed as a share of the paper's own remote reads (about 2.6e7/s
 *                       per machine at 2.35M queries/s over 8 machines, 101 GETs a query, 86% remote): at millions of
 *                       queries/s over RDMA it asks what the paper asked, and at our thousands in-process or 40 over
 *                       processes it falls below 2 accesses, so {@code minAccesses} decides. Applies only while
 *                       {@code reportRate} is 0: a positive report rate is the paper's absolute threshold and replaces
 *                       it; 0 for no share threshold
 * @param instantFactor  while {@code reportRate} is 0 (the relative policy), the instant rate is this many times the
 *                       rate of the latest periodic report's threshold ({@code Monitor#reportThreshold} accesses over
 *                       that interval), at most {@code instantRate} (default 10: the paper's instant 100/s is ten times
 *                       its periodic 10/s, and at the paper's throughput {@code minShare} gives exactly that 10/s, so
 *                       there the relative rate is the paper's 100/s; at our thousands of queries/s in-process, 2
 *                       accesses over a 2 s interval, it is 10/s). 0 keeps the absolute {@code instantRate}
 */
public record MonitorConfig(long intervalMillis, double instantRate, double reportRate, boolean countRemoteInTable,
                            long minAccesses, double minShare, double instantFactor) {
    public static final long DEFAULT_INTERVAL_MILLIS = 10_000;
    public static final double DEFAULT_INSTANT_RATE = 100;
    /** No absolute rate: the relative policy (see the record's javadoc). */
    public static final double DEFAULT_REPORT_RATE = 0;
    public static final long DEFAULT_MIN_ACCESSES = 2;
    /** 2^-21: the paper's 10/s at the paper's remote read rate, see the record's javadoc. */
    public static final double DEFAULT_MIN_SHARE = 0x1p-21;
    /** The instant rate is ten times the periodic threshold's rate, as the paper's 100/s is ten times its 10/s. */
    public static final double DEFAULT_INSTANT_FACTOR = 10;

    public MonitorConfig {
        if (intervalMillis < 1) {
            throw new IllegalArgumentException("monitor interval must be >= 1 ms, got " + intervalMillis);
        }
        if (!(instantRate > 0) || !(reportRate >= 0) || reportRate > instantRate) {
            throw new IllegalArgumentException("need 0 <= reportRate <= instantRate and instantRate > 0, got reportRate "
                + reportRate + " and instantRate " + instantRate);
        }
        if (minAccesses < 1) {
            throw new IllegalArgumentException("minAccesses must be >= 1, got " + minAccesses);
        }
        if (!(minShare >= 0 && minShare < 1)) {
            throw new IllegalArgumentException("minShare must be in [0, 1), got " + minShare);
        }
        if (!(instantFactor >= 0) || Double.isInfinite(instantFactor)) {
            throw new IllegalArgumentException("instantFactor must be finite and >= 0, got " + instantFactor);
        }
    }

    /** With the default {@code instantFactor}. */
    public MonitorConfig(long intervalMillis, double instantRate, double reportRate, boolean countRemoteInTable,
                         long minAccesses, double minShare) {
        this(intervalMillis, instantRate, reportRate, countRemoteInTable, minAccesses, minShare,
            DEFAULT_INSTANT_FACTOR);
    }

    /** With the default {@code minAccesses} and {@code minShare}. */
    public MonitorConfig(long intervalMillis, double instantRate, double reportRate, boolean countRemoteInTable) {
        this(intervalMillis, instantRate, reportRate, countRemoteInTable, DEFAULT_MIN_ACCESSES, DEFAULT_MIN_SHARE,
            DEFAULT_INSTANT_FACTOR);
    }

    public static MonitorConfig defaults() {
        return new MonitorConfig(DEFAULT_INTERVAL_MILLIS, DEFAULT_INSTANT_RATE, DEFAULT_REPORT_RATE, false);
    }

    public MonitorConfig withIntervalMillis(long ms) {
        return new MonitorConfig(ms, instantRate, reportRate, countRemoteInTable, minAccesses, minShare, instantFactor);
    }

    public MonitorConfig withRates(double instant, double report) {
        return new MonitorConfig(intervalMillis, instant, report, countRemoteInTable, minAccesses, minShare,
            instantFactor);
    }

    public MonitorConfig withRemoteCountedInTable(boolean inTable) {
        return new MonitorConfig(intervalMillis, instantRate, reportRate, inTable, minAccesses, minShare,
            instantFactor);
    }

    public MonitorConfig withMinAccesses(long n) {
        return new MonitorConfig(intervalMillis, instantRate, reportRate, countRemoteInTable, n, minShare,
            instantFactor);
    }

    public MonitorConfig withMinShare(double share) {
        return new MonitorConfig(intervalMillis, instantRate, reportRate, countRemoteInTable, minAccesses, share,
            instantFactor);
    }

    public MonitorConfig withInstantFactor(double factor) {
        return new MonitorConfig(intervalMillis, instantRate, reportRate, countRemoteInTable, minAccesses, minShare,
            factor);
    }

    /** Whether the instant rate follows each interval's observed rates ({@code instantFactor}), not instantRate. */
    public boolean relativeInstantRate() {
        return reportRate == 0 && instantFactor > 0;
    }
}
