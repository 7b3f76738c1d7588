package io.pragh.coordinator;

import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operator's view of the coordinator's decisions: approvals are gathered as they are made (instant reports
 * included) and summed up in one INFO line when an interval ends, on the logger {@code io.pragh.migration}:
 *
 * <pre>
 * migration interval 7: approved 12 keys, to machine 1: 9, machine 3: 3; remote rate before 4,210.0/s
 *   (applicants' accesses to those keys), 310.0/s at their hosts; remote access rate 0.412
 * </pre>
 * The "remote rate before" is what the applicants reported: accesses per second they made to the keys they were
 * approved, all remote until the values arrive, beside the rate of the machines that hosted them where the
 * coordinator measured it (the eager mechanism approves without measuring a home's own rate). An interval that
 * approved nothing logs nothing. Not thread-safe: one control thread owns it, as it owns the coordinator.
 *
 * <pre>{@code
 * DecisionLog log = new DecisionLog();
 * log.add(coordinator.onInstantReport(report));
 * log.add(coordinator.endInterval(reports));
 * log.endInterval(coordinator.interval(), Double.NaN);   // logs the line, if anything was approved
 * }</pre>
 */
public final class DecisionLog {
    private static final Logger LOG = LoggerFactory.getLogger("io.pragh.migration");

    private final Map<Integer, Integer> perTarget = new TreeMap<>();
    private int approved;
    private double applicantRate;
    private double hostRate;
    private int hostRatesMeasured;

    /** Gathers the approvals of one decision. */
    public void add(Decisions d) {
        for (Decisions.Approval a : d.approvals()) {
            add(a);
        }
    }

    /** Gathers one approval (a caller that carries out only some of a decision's approvals names those). */
    public void add(Decisions.Approval a) {
        approved++;
        perTarget.merge(a.target(), 1, Integer::sum);
        applicantRate += finite(a.targetRate());
        if (Double.isFinite(a.sourceRate())) {
            hostRate += a.sourceRate();
            hostRatesMeasured++;
        }
    }

    private static double finite(double rate) {
        return Double.isFinite(rate) ? rate : 0;
    }

    /**
     * Ends the interval: returns the line (and logs it at INFO) when something was approved since the last call,
     * else returns null; either way starts gathering afresh.
     *
     * @param interval          the coordinator's interval number, for the line
     * @param remoteAccessRate  the share of one-sided accesses that were remote over the interval, where the caller
     *                          measures it (an embedded cluster does); NaN leaves it out
     */
    public String endInterval(long interval, double remoteAccessRate) {
        if (approved == 0) {
            return null;
        }
        StringBuilder line = new StringBuilder("migration interval ").append(interval).append(": approved ")
            .append(approved).append(approved == 1 ? " key" : " keys").append(", to ");
        String sep = "";
        for (Map.Entry<Integer, Integer> e : perTarget.entrySet()) {
            line.append(sep).append("machine ").append(e.getKey()).append(": ").append(e.getValue());
            sep = ", ";
        }
        line.append(String.format(java.util.Locale.ROOT, "; remote rate before %,.1f/s (applicants' accesses to"
            + " those keys)", applicantRate));
        line.append(hostRatesMeasured == 0 ? ", their hosts' rates not measured (eager)"
            : String.format(java.util.Locale.ROOT, ", %,.1f/s at their hosts", hostRate));
        if (!Double.isNaN(remoteAccessRate)) {
            line.append(String.format(java.util.Locale.ROOT, "; remote access rate %.3f", remoteAccessRate));
        }
        perTarget.clear();
        approved = 0;
        applicantRate = 0;
        hostRate = 0;
        hostRatesMeasured = 0;
        String text = line.toString();
        LOG.info(text);
        return text;
    }
}
