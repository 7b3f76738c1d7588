package io.pragh.bench.traversal;

import io.pragh.bench.traversal.history.HistoryCheck;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The measurement phase of one mode, with the report's field names.
 *
 * <pre>{@code
 * ModeResult r = runner.run(Mode.SPLIT_CACHE);
 * double speedup = r.throughputQps() / orig.throughputQps();
 * }</pre>
 *
 * @param throughputQps       queries (GETs and PUTs) completed per second
 * @param p50Ms               median query latency
 * @param p99Ms               99th percentile
 * @param p999Ms              99.9th percentile
 * @param remoteAccessRate    share of key and value accesses that were remote (one-sided fabric operations)
 * @param migratedKeys        values moved by MIGRATE before the measurement
 * @param migratedKeyFraction migrated keys over all keys of the graph
 * @param migratedBytes       bytes those migrations read
 * @param forwardedPuts       PUTs whose value lived away from the key's home when issued (check-and-forward)
 * @param puts                PUTs (edge inserts) measured
 * @param queries             queries measured (GETs and PUTs)
 * @param history             the check of the history of a sample of keys recorded from the load through the
 *                            measurement, or null when none was recorded
 * @param cpuByDuty           CPU microseconds per query of each duty over the measurement ({@link DutyCpu}), by the
 *                            duty's report name, or null when not measured
 */
public record ModeResult(double throughputQps, double p50Ms, double p99Ms, double p999Ms, double remoteAccessRate,
                         long migratedKeys, double migratedKeyFraction, long migratedBytes, long forwardedPuts,
                         long puts, long queries, HistoryCheck history, Map<String, Double> cpuByDuty) {
    /** A result without a history. */
    public ModeResult(double throughputQps, double p50Ms, double p99Ms, double p999Ms, double remoteAccessRate,
                      long migratedKeys, double migratedKeyFraction, long migratedBytes, long forwardedPuts, long puts,
                      long queries) {
        this(throughputQps, p50Ms, p99Ms, p999Ms, remoteAccessRate, migratedKeys, migratedKeyFraction, migratedBytes,
            forwardedPuts, puts, queries, null, null);
    }

    /** This result with {@code check} as its history's. */
    public ModeResult withHistory(HistoryCheck check) {
        return new ModeResult(throughputQps, p50Ms, p99Ms, p999Ms, remoteAccessRate, migratedKeys,
            migratedKeyFraction, migratedBytes, forwardedPuts, puts, queries, check, cpuByDuty);
    }

    /** This result with {@code usPerQuery} as its CPU per query by duty. */
    public ModeResult withCpuByDuty(Map<String, Double> usPerQuery) {
        return new ModeResult(throughputQps, p50Ms, p99Ms, p999Ms, remoteAccessRate, migratedKeys,
            migratedKeyFraction, migratedBytes, forwardedPuts, puts, queries, history, usPerQuery);
    }

    /** The report's object for this mode, fields named exactly as the issue states. */
    public Map<String, Object> asMap() {
        Map<String, Object> latency = new LinkedHashMap<>();
        latency.put("p50", p50Ms);
        latency.put("p99", p99Ms);
        latency.put("p999", p999Ms);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("throughput_qps", throughputQps);
        m.put("latency_ms", latency);
        m.put("remote_access_rate", remoteAccessRate);
        m.put("migrated_keys", migratedKeys);
        m.put("migrated_key_fraction", migratedKeyFraction);
        m.put("migrated_bytes", migratedBytes);
        m.put("forwarded_puts", forwardedPuts);
        m.put("puts", puts);
        m.put("queries", queries);
        if (history != null) {
            m.put("history", history.asMap());
        }
        if (cpuByDuty != null) {
            m.put("cpu_by_duty_us_per_query", cpuByDuty);
        }
        return m;
    }
}
