package io.pragh.bench.traversal.scenarios;

import io.pragh.bench.charts.ScenarioCharts;
import io.pragh.bench.traversal.Mode;
import io.pragh.bench.traversal.ModeSession;
import io.pragh.bench.traversal.TraversalConfig;
import io.pragh.bench.traversal.TraversalRunner;
import io.pragh.bench.workload.AdjacencyGraph;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import org.HdrHistogram.Histogram;

/**
 * {@code ./pragh bench put-cdf} (paper Fig. 12): the latency distribution of PUTs (edge inserts) in the 50/50 mix,
 * without migration ({@code orig}) and with it ({@code split-cache}), and the share of PUTs forwarded by
 * check-and-forward because their value had migrated.
 *
 * <pre>{@code
 * ./pragh bench put-cdf --machines 4 --scale 14 --duration 5 --json target/put-cdf.json --charts target/charts
 * }</pre>
 */
public final class PutLatencyCdf implements Scenario {
    /** The percentiles of the CDF: dense in the tail, where forwarding shows (paper: only the 99.9th moves). */
    static final double[] PERCENTILES = {0, 1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 97, 98, 99, 99.5, 99.9,
        99.95, 99.99, 100};

    @Override
    public String name() {
        return "put-cdf";
    }

    @Override
    public String usage() {
        return String.join("\n",
            "usage: ./pragh bench put-cdf [flags]   (paper Fig. 12: PUT latency CDF with and without migration)",
            "  --get-ratio R           default here: 0.5 (the update-heavy mix); must leave PUTs (< 1)",
            "  --modes LIST            default here: orig,split-cache (without and with migration)");
    }

    @Override
    public Map<String, String> ownFlags() {
        return Map.of();
    }

    @Override
    public List<String> changedDefaults() {
        return List.of("--get-ratio", "0.5", "--modes", "orig,split-cache");
    }

    @Override
    public Map<String, String> refusedFlags() {
        return Map.of();
    }

    @Override
    public Result run(ScenarioArgs args, Supplier<AdjacencyGraph> graphs, PrintStream out) throws Exception {
        TraversalConfig c = args.config();
        if (c.getRatio() >= 1) {
            throw new IllegalArgumentException("--get-ratio " + c.getRatio() + " leaves no PUTs to measure");
        }
        AdjacencyGraph graph = graphs.get();
        TraversalRunner runner = new TraversalRunner(c, graph, out);
        Map<Mode, ModeSession.Measurement> results = new LinkedHashMap<>();
        for (Mode m : c.modes()) {
            try (ModeSession s = runner.open(m)) {
                results.put(m, s.runPhases());
            }
        }
        return new CdfResult(args, results);
    }

    /** Percentile to latency (ms) of {@code h}, at {@link #PERCENTILES}; empty if nothing was recorded. */
    static List<double[]> cdf(Histogram h) {
        List<double[]> points = new ArrayList<>();
        if (h.getTotalCount() == 0) {
            return points;
        }
        for (double p : PERCENTILES) {
            long v = p == 0 ? h.getMinValue() : h.getValueAtPercentile(p);
            points.add(new double[] {p, v / 1e6});
        }
        return points;
    }

    /** Forwarded PUTs over PUTs measured (0 when there were none). */
    static double forwardedFraction(ModeSession.Measurement m) {
        return m.result().puts() == 0 ? 0 : (double) m.result().forwardedPuts() / m.result().puts();
    }

    /** Each mode's measurement and its PUT latencies. */
    record CdfResult(ScenarioArgs args, Map<Mode, ModeSession.Measurement> byMode) implements Result {
        @Override
        public Map<String, Object> asMap() {
            Map<String, Object> modes = new LinkedHashMap<>();
            byMode.forEach((mode, m) -> {
                List<Map<String, Object>> points = new ArrayList<>();
                for (double[] p : cdf(m.putLatencies())) {
                    Map<String, Object> point = new LinkedHashMap<>();
                    point.put("percentile", p[0]);
                    point.put("latency_ms", p[1]);
                    points.add(point);
                }
                Map<String, Object> o = new LinkedHashMap<>();
                o.put("migrates", mode.migrates());
                o.put("puts", m.result().puts());
                o.put("forwarded_puts", m.result().forwardedPuts());
                o.put("forwarded_fraction", forwardedFraction(m));
                o.put("put_latency_cdf", points);
                o.put("result", m.result().asMap());
                modes.put(mode.reportName(), o);
            });
            return args.report("modes", modes);
        }

        @Override
        public void print(PrintStream out) {
            out.printf("%-12s %10s %10s %9s %11s %11s %11s %11s %12s%n", "mode", "puts", "forwarded", "fwd %",
                "PUT p50 ms", "PUT p99 ms", "PUT p999 ms", "PUT max ms", "q/s");
            byMode.forEach((mode, m) -> {
                Histogram h = m.putLatencies();
                out.printf(Locale.ROOT, "%-12s %10d %10d %9.4f %11.3f %11.3f %11.3f %11.3f %12.0f%n",
                    mode.reportName(), m.result().puts(), m.result().forwardedPuts(), 100 * forwardedFraction(m),
                    h.getValueAtPercentile(50) / 1e6, h.getValueAtPercentile(99) / 1e6,
                    h.getValueAtPercentile(99.9) / 1e6, h.getMaxValue() / 1e6, m.result().throughputQps());
            });
        }

        @Override
        public List<Path> writeCharts(Path dir) {
            Map<String, List<double[]>> cdfs = new LinkedHashMap<>();
            Map<String, Double> forwarded = new LinkedHashMap<>();
            byMode.forEach((mode, m) -> {
                cdfs.put(mode.reportName(), cdf(m.putLatencies()));
                if (mode.migrates()) {
                    forwarded.put(mode.reportName(), forwardedFraction(m));
                }
            });
            return ScenarioCharts.putCdf(dir, cdfs, forwarded);
        }
    }
}
