package io.pragh.bench.charts;

import io.pragh.bench.traversal.Mode;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The Pragh paper's section 6 figures for the traversal benchmark (8 machines, RMAT26, Zipf 0.99, scope 2^10,
 * fanout 100, 95% two-hop GETs / 5% PUTs), as listed in shared/papers/README.md, to chart beside ours. Throughput
 * is kept as a ratio to Orig, because absolute rates of an 8-node RDMA cluster and of this machine do not compare.
 * Split's figures are the paper's approximations ("about 2x Orig", "about 43%").
 */
public final class PaperFigures {
    private PaperFigures() {
    }

    /** Throughput in queries per second, as reported. */
    public static Map<Mode, Double> throughputQps() {
        Map<Mode, Double> m = new EnumMap<>(Mode.class);
        m.put(Mode.ORIG, 123_000.0);
        m.put(Mode.SHARD, 171_000.0);
        m.put(Mode.SPLIT, 246_000.0);
        m.put(Mode.SPLIT_CACHE, 2_352_000.0);
        m.put(Mode.IDEAL, 3_248_000.0);
        return m;
    }

    /** Remote access rate, as a fraction. */
    public static Map<Mode, Double> remoteAccessRate() {
        Map<Mode, Double> m = new EnumMap<>(Mode.class);
        m.put(Mode.ORIG, 0.862);
        m.put(Mode.SHARD, 0.644);
        m.put(Mode.SPLIT, 0.43);
        m.put(Mode.SPLIT_CACHE, 0.020);
        m.put(Mode.IDEAL, 0.0);
        return m;
    }

    /**
     * One figure of modes as charts draw it beside ours: throughput relative to orig and remote access rate (a
     * fraction), by mode, where the paper gives them; {@code label} names the setting in the legend and
     * {@code filePrefix} starts the chart files' names.
     */
    public record Figure(String label, Map<Mode, Double> throughputRatio, Map<Mode, Double> remoteAccessRate,
                         String filePrefix) {
    }

    /** The traversal benchmark's figures (section 6), throughput as a ratio to orig. */
    public static final Figure TRAVERSAL = new Figure("paper (8 machines, RMAT26)", ratios(throughputQps()),
        remoteAccessRate(), "");

    /**
     * Fig. 16 (section 6, the Wukong+M port: 8 machines, LUBM-10240, 6 query classes, Zipf 0.99 start vertices):
     * split migration with the location cache cuts remote accesses from 86% to 10% and lifts throughput 2.53x over
     * orig; shard-based gains 5%, split alone 1.52x shard. The paper gives no ideal bar and no remote rate for shard
     * and split: those are left out.
     */
    public static final Figure RDF_FIG16 = new Figure("paper Fig. 16 (8 machines, LUBM-10240; 0: not given)",
        rdfThroughputRatio(), rdfRemoteAccessRate(), "rdf-");

    private static Map<Mode, Double> rdfThroughputRatio() {
        Map<Mode, Double> m = new EnumMap<>(Mode.class);
        m.put(Mode.ORIG, 1.0);
        m.put(Mode.SHARD, 1.05);
        m.put(Mode.SPLIT, 1.05 * 1.52);
        m.put(Mode.SPLIT_CACHE, 2.53);
        return m;
    }

    private static Map<Mode, Double> rdfRemoteAccessRate() {
        Map<Mode, Double> m = new EnumMap<>(Mode.class);
        m.put(Mode.ORIG, 0.86);
        m.put(Mode.SPLIT_CACHE, 0.10);
        return m;
    }

    private static Map<Mode, Double> ratios(Map<Mode, Double> qps) {
        Map<Mode, Double> m = new EnumMap<>(Mode.class);
        qps.forEach((mode, q) -> m.put(mode, q / qps.get(Mode.ORIG)));
        return m;
    }

    /** Share of PUTs forwarded by check-and-forward in the 50/50 mix after migration (Fig. 12, section 6.1). */
    public static final double FORWARDED_PUT_FRACTION = 0.0011;

    /** The paper's monitoring interval, seconds; Fig. 14's timeline is in these. */
    public static final double INTERVAL_SECONDS = 10;

    /** Fig. 14: throughput before migration, q/s. */
    public static final double FIG14_BEFORE_QPS = 239_000;
    /** Fig. 14: eager, right after its first migration, q/s. */
    public static final double FIG14_EAGER_FIRST_QPS = 2_142_000;
    /** Fig. 14: both mechanisms once settled (eager after its second migration, deferred after its one), q/s. */
    public static final double FIG14_SETTLED_QPS = 2_362_000;

    /**
     * Fig. 14 (section 6.3) as step lines in throughput relative to before migration (239K q/s), against time in
     * monitoring intervals from the first report (0): eager jumps to 2,142K at once and to 2,362K after its second
     * migration one interval later; deferred tracks for one interval, then jumps to 2,362K.
     *
     * @return by mechanism ("eager", "deferred"), the x values then the y values
     */
    public static Map<String, double[][]> mechanismTimeline() {
        double before = FIG14_BEFORE_QPS;
        double first = FIG14_EAGER_FIRST_QPS / before;
        double settled = FIG14_SETTLED_QPS / before;
        Map<String, double[][]> m = new LinkedHashMap<>();
        m.put("eager", new double[][] {{-1, 0, 0, 1, 1, 3}, {1, 1, first, first, settled, settled}});
        m.put("deferred", new double[][] {{-1, 1, 1, 3}, {1, 1, settled, settled}});
        return m;
    }

    /**
     * Table 1 (section 2.2): the shard-based baseline before and after its migration, beside ideal, on the traversal
     * benchmark. Rows by mode (orig is "before"); columns throughput (K ops/s), median and 99th percentile latency
     * (ms), remote access rate and data migration rate (fractions; NaN where the table has a dash).
     */
    public static Map<Mode, double[]> table1() {
        Map<Mode, double[]> m = new EnumMap<>(Mode.class);
        m.put(Mode.IDEAL, new double[] {3_248, 0.75, 4.2, 0.0, Double.NaN});
        m.put(Mode.ORIG, new double[] {123, 22.5, 76.6, 0.862, Double.NaN});
        m.put(Mode.SHARD, new double[] {171, 15.9, 59.2, 0.644, 0.856});
        return m;
    }

    /** Table 1's columns, in {@link #table1()}'s order, as the JSON names them. */
    public static final java.util.List<String> TABLE1_COLUMNS = java.util.List.of("throughput_kqps", "p50_ms",
        "p99_ms", "remote_access_rate", "data_migration_rate");

    /** Fig. 13 (section 6.2): one migration thread moves more than this many values per second below 4 KB payloads. */
    public static final double ONE_THREAD_VALUES_PER_SECOND = 1_000_000;

    /** Fig. 13: 24 parallel migration threads move more than this many values per second. */
    public static final double PARALLEL_VALUES_PER_SECOND = 10_000_000;

    /** Fig. 13: the payload below which one thread passes {@link #ONE_THREAD_VALUES_PER_SECOND}, bytes. */
    public static final int ONE_THREAD_PAYLOAD_LIMIT = 4096;
}
