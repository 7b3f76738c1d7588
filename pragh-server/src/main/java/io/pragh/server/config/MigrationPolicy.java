package io.pragh.server.config;

import io.pragh.monitor.MonitorConfig;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The migration policy of paper section 4.4: monitors report remote accesses periodically, or at once when a key is
 * accessed remotely faster than the instant-report rate; the coordinator approves a migration when the applicant's
 * accesses exceed the current host's by the threshold margin, either at once (eager) or after watching the key for
 * a report interval (deferred).
 *
 * <pre>{@code
 * MigrationPolicy p = config.policy();   // margin 0.5, report every 10s, instantly above 100/s, eager, auto, relative
 * }</pre>
 *
 * @param thresholdMargin   how much more (0.5 = 50% more) the applicant must access a value than its host
 * @param reportInterval    period of monitor reports
 * @param instantReportRate remote accesses per second to one key that trigger an immediate report; 0 for never. While
 *                          the policy is relative (no minimumRate) the monitor's instant rate follows each interval's
 *                          observed rates ({@code MonitorConfig#instantFactor}) and this is the most it can be
 * @param mode              eager or deferred approval (a deferred decision watches the home's own accesses for one
 *                          reportInterval)
 * @param trigger           auto: the monitor reports and the coordinator decides on their own schedule; manual: only
 *                          when clients say so (the client RPC's MONITOR_START, END_INTERVAL and DECIDE), as a
 *                          benchmark that runs the paper's phases needs
 * @param minimumRate       accesses per second one machine must make to a key for a periodic report to name it and
 *                          for the coordinator to approve its migration: the paper's absolute threshold, an override.
 *                          Unset (0), the policy is relative: a report names the keys read at least twice in its
 *                          interval and the coordinator approves the hottest first, up to a budget per machine; the
 *                          instant rate is relative too (see instantReportRate)
 */
public record MigrationPolicy(double thresholdMargin, Duration reportInterval, int instantReportRate, Mode mode,
                              Trigger trigger, double minimumRate) {
    /** Eager: approve at once, the new host tracks accesses and may migrate back. Deferred: watch first. */
    public enum Mode {
        EAGER,
        DEFERRED
    }

    /** Auto: monitoring and decisions run by themselves. Manual: only on clients' requests, phase by phase. */
    public enum Trigger {
        AUTO,
        MANUAL
    }

    /** The largest {@code minimumRate}: far above any rate one machine can make to one key. */
    public static final double MAX_MINIMUM_RATE = 1e9;

    public static final MigrationPolicy DEFAULT = new MigrationPolicy(0.5, Duration.ofSeconds(10), 100, Mode.EAGER,
        Trigger.AUTO, MonitorConfig.DEFAULT_REPORT_RATE);

    private static final Map<String, Mode> MODES = new LinkedHashMap<>();
    private static final Map<String, Trigger> TRIGGERS = new LinkedHashMap<>();

    static {
        MODES.put("eager", Mode.EAGER);
        MODES.put("deferred", Mode.DEFERRED);
        TRIGGERS.put("auto", Trigger.AUTO);
        TRIGGERS.put("manual", Trigger.MANUAL);
    }

    static MigrationPolicy read(ConfigNode n) {
        n.allow("migrationThresholdMargin", "reportInterval", "instantReportRate", "migration",
            "deferredInterval", "trigger", "minimumRate");
        double margin = n.percent("migrationThresholdMargin", DEFAULT.thresholdMargin, 0.0, 10.0);
        Duration report = n.duration("reportInterval", DEFAULT.reportInterval, Duration.ofMillis(10),
            Duration.ofHours(1));
        int rate = n.integer("instantReportRate", DEFAULT.instantReportRate, 0, 1_000_000);
        Mode mode = n.choice("migration", DEFAULT.mode, MODES);
        if (n.has("deferredInterval")) {
            // The coordinator decides a deferred key when the next report interval ends: no window of its own.
            throw n.error("deferredInterval", "is not a setting: a deferred decision watches the home's accesses for "
                + "one reportInterval (set policy.reportInterval instead)");
        }
        Trigger trigger = n.choice("trigger", DEFAULT.trigger, TRIGGERS);
        double minimumRate = n.nonNegativeNumber("minimumRate", DEFAULT.minimumRate, MAX_MINIMUM_RATE);
        return new MigrationPolicy(margin, report, rate, mode, trigger, minimumRate);
    }
}
