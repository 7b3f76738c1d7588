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
 */
public record MonitorReport(int machine, boolean instant, List<KeyRate> keys) {
    public MonitorReport {
        keys = List.copyOf(keys);
    }
}
