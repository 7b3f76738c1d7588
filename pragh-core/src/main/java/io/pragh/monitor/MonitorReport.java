package io.pragh.monitor;

import java.util.List;

/**
 * What one machine's monitor tells the coordinator: periodic at the end of each interval, or instant when keys
 * pass the instant rate.
 *
 * <pre>{@code
 * MonitorReport r = monitor.endInterval(Leases.nowMillis());
 * for (KeyRate k : r.keys()) { ... }
 * }</pre>
 *
 * @param machine the reporting machine
 * @param instant true for an instant report (only the keys that passed the instant rate)
 * @param keys    the keys reported
 * @param instantRate the reporter's instant rate when it made the report (for a periodic report: of the interval
 *                that starts), NaN when not known (a report from a peer that does not send it): a machine that has
 *                not reported a key instantly reads it at less than that, as far as its last poll saw
 */
public record MonitorReport(int machine, boolean instant, List<KeyRate> keys, double instantRate) {
    public MonitorReport {
        keys = List.copyOf(keys);
    }

    /** A report whose instant rate is not known. */
    public MonitorReport(int machine, boolean instant, List<KeyRate> keys) {
        this(machine, instant, keys, Double.NaN);
    }
}
