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
 * @param reportRate     accesses per second below which an untracked key is left out of a periodic report, which
 *                       keeps reports to the keys worth a decision (default 10/s)
 * @param countRemoteInTable count remote accesses in the monitor's own table instead of reading the location cache's
 *                       counters. Off by default: the table is exactly the per-key cost the cache avoids; a machine
 *                       whose cache is disabled (split migration without a cache) counts in the table regardless.
 */
public record MonitorConfig(long intervalMillis, double instantRate, double reportRate, boolean countRemoteInTable) {
    public static final long DEFAULT_INTERVAL_MILLIS = 10_000;
    public static final double DEFAULT_INSTANT_RATE = 100;
    public static final double DEFAULT_REPORT_RATE = 10;

    public MonitorConfig {
        if (intervalMillis < 1) {
            throw new IllegalArgumentException("monitor interval must be >= 1 ms, got " + intervalMillis);
        }
        if (!(instantRate > 0) || !(reportRate >= 0) || reportRate > instantRate) {
            throw new IllegalArgumentException("need 0 <= reportRate <= instantRate and instantRate > 0, got reportRate "
                + reportRate + " and instantRate " + instantRate);
        }
    }

    public static MonitorConfig defaults() {
        return new MonitorConfig(DEFAULT_INTERVAL_MILLIS, DEFAULT_INSTANT_RATE, DEFAULT_REPORT_RATE, false);
    }

    public MonitorConfig withIntervalMillis(long ms) {
        return new MonitorConfig(ms, instantRate, reportRate, countRemoteInTable);
    }

    public MonitorConfig withRates(double instant, double report) {
        return new MonitorConfig(intervalMillis, instant, report, countRemoteInTable);
    }

    public MonitorConfig withRemoteCountedInTable(boolean inTable) {
        return new MonitorConfig(intervalMillis, instantRate, reportRate, inTable);
    }
}
