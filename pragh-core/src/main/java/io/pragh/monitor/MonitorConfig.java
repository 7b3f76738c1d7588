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
 *                       (default 100/s)
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
 */
public record MonitorConfig(long intervalMillis, double instantRate, double reportRate, boolean countRemoteInTable,
                            long minAccesses) {
    public static final long DEFAULT_INTERVAL_MILLIS = 10_000;
    public static final double DEFAULT_INSTANT_RATE = 100;
    /** No absolute rate: the relative policy (see the record's javadoc). */
    public static final double DEFAULT_REPORT_RATE = 0;
    public static final long DEFAULT_MIN_ACCESSES = 2;

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
    }

    /** With the default {@code minAccesses}. */
    public MonitorConfig(long intervalMillis, double instantRate, double reportRate, boolean countRemoteInTable) {
        this(intervalMillis, instantRate, reportRate, countRemoteInTable, DEFAULT_MIN_ACCESSES);
    }

    public static MonitorConfig defaults() {
        return new MonitorConfig(DEFAULT_INTERVAL_MILLIS, DEFAULT_INSTANT_RATE, DEFAULT_REPORT_RATE, false);
    }

    public MonitorConfig withIntervalMillis(long ms) {
        return new MonitorConfig(ms, instantRate, reportRate, countRemoteInTable, minAccesses);
    }

    public MonitorConfig withRates(double instant, double report) {
        return new MonitorConfig(intervalMillis, instant, report, countRemoteInTable, minAccesses);
    }

    public MonitorConfig withRemoteCountedInTable(boolean inTable) {
        return new MonitorConfig(intervalMillis, instantRate, reportRate, inTable, minAccesses);
    }

    public MonitorConfig withMinAccesses(long n) {
        return new MonitorConfig(intervalMillis, instantRate, reportRate, countRemoteInTable, n);
    }
}
