package io.pragh.bench.charts;

import io.pragh.bench.traversal.Mode;
import io.pragh.bench.traversal.ModeResult;
import io.pragh.bench.traversal.TimelineSampler;
import java.awt.Color;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * PNG charts of the traversal benchmark's scenarios: the scope sweep (Fig. 11), the PUT latency CDF and forwarded
 * share (Fig. 12), eager vs deferred timelines (Fig. 14, with the paper's steps beside ours) and the dynamic
 * workload's timeline (Fig. 15). Where the paper's text gives no numbers (Fig. 11, 15) the title says so.
 *
 * <pre>{@code
 * List<Path> files = ScenarioCharts.dynamic(Path.of("charts"), Map.of("split-cache", timeline));
 * }</pre>
 */
public final class ScenarioCharts {
    private ScenarioCharts() {
    }

    /**
     * Throughput (relative to orig when it ran) and remote access rate against log2 of the scope, per mode, with
     * each scope's single-copy floor (a fraction, by scope) on the remote rate chart.
     */
    public static List<Path> scopeSweep(Path dir, Map<Integer, Map<Mode, ModeResult>> byScope,
                                        Map<Integer, Double> floors) {
        boolean relative = byScope.values().stream()
            .allMatch(row -> row.containsKey(Mode.ORIG) && row.get(Mode.ORIG).throughputQps() > 0);
        XYChart throughput = ChartFiles.xy("Throughput by scope" + (relative ? ", relative to orig" : "")
            + " (paper Fig. 11 gives no numbers)", "scope (log2 of start vertices)", relative ? "x orig" : "queries / s");
        XYChart remote = ChartFiles.xy("Remote access rate by scope (paper Fig. 11 gives no numbers)",
            "scope (log2 of start vertices)", "% of key and value accesses");
        for (Mode mode : modes(byScope)) {
            List<Double> x = new ArrayList<>();
            List<Double> qps = new ArrayList<>();
            List<Double> rate = new ArrayList<>();
            byScope.forEach((scope, row) -> {
                ModeResult r = row.get(mode);
                if (r != null) {
                    x.add(log2(scope));
                    qps.add(relative ? r.throughputQps() / row.get(Mode.ORIG).throughputQps() : r.throughputQps());
                    rate.add(100 * r.remoteAccessRate());
                }
            });
            throughput.addSeries(mode.reportName(), x, qps);
            remote.addSeries(mode.reportName(), x, rate);
        }
        if (!floors.isEmpty()) {
            XYSeries floor = remote.addSeries(TraversalCharts.FLOOR_LABEL,
                floors.keySet().stream().map(ScenarioCharts::log2).toList(),
                floors.values().stream().map(f -> 100 * f).toList());
            floor.setLineStyle(SeriesLines.DASH_DASH);
        }
        return List.of(ChartFiles.save(dir.resolve("scope-sweep-throughput.png"), throughput),
            ChartFiles.save(dir.resolve("scope-sweep-remote-access-rate.png"), remote));
    }

    /**
     * The PUT latency CDF of each mode (latency on a log axis), and the forwarded share of PUTs of each migrating
     * mode beside the paper's 0.11% (given for Pragh with its location cache).
     *
     * @param cdfs      by mode, points of (percentile, latency ms)
     * @param forwarded by migrating mode, forwarded PUTs over PUTs
     */
    public static List<Path> putCdf(Path dir, Map<String, List<double[]>> cdfs, Map<String, Double> forwarded) {
        XYChart cdf = ChartFiles.xy("PUT latency CDF (this run; paper Fig. 12 is a plot without numbers)",
            "latency (ms, log)", "percentile");
        cdf.getStyler().setXAxisLogarithmic(true);
        cdfs.forEach((mode, points) -> {
            if (!points.isEmpty()) {
                // A log axis cannot show 0; HdrHistogram's lowest bucket is far below any PUT.
                cdf.addSeries(mode, column(points, p -> Math.max(p[1], 1e-6)), column(points, p -> p[0]));
            }
        });
        List<Path> files = new ArrayList<>();
        files.add(ChartFiles.save(dir.resolve("put-latency-cdf.png"), cdf));
        if (!forwarded.isEmpty()) {
            List<String> modes = new ArrayList<>(forwarded.keySet());
            CategoryChart c = TraversalCharts.chart("PUTs forwarded by check-and-forward (50/50 mix)", "% of PUTs");
            c.addSeries("this run", modes, forwarded.values().stream().map(f -> 100 * f).toList());
            c.addSeries("paper (split-cache, 8 machines, RMAT26)", modes, modes.stream()
                .map(m -> m.equals(Mode.SPLIT_CACHE.reportName()) ? 100 * PaperFigures.FORWARDED_PUT_FRACTION : 0.0)
                .toList());
            files.add(ChartFiles.save(dir.resolve("forwarded-puts.png"), c));
        }
        return files;
    }

    /**
     * Each mechanism's throughput timeline, and the same relative to its first monitoring interval against time in
     * intervals from the first interval's end, beside the paper's Fig. 14 steps (in its 10 s intervals).
     */
    public static List<Path> mechanisms(Path dir, Map<String, TimelineSampler> timelines, double intervalSeconds) {
        XYChart absolute = ChartFiles.xy("Throughput timeline, eager vs deferred (this run)", "s", "queries / s");
        XYChart relative = ChartFiles.xy("Throughput relative to before migration (paper Fig. 14 beside)",
            "monitoring intervals since the first report", "x throughput of the first interval");
        timelines.forEach((name, t) -> {
            List<TimelineSampler.Point> points = t.points();
            if (points.isEmpty()) {
                return;
            }
            absolute.addSeries(name, column(points, TimelineSampler.Point::seconds),
                column(points, TimelineSampler.Point::throughputQps));
            TimelineSampler.Point before = t.meanByPhase().get("monitoring interval 1");
            double origin = t.events().stream().filter(e -> e.what().startsWith("interval 1 ends")).findFirst()
                .map(TimelineSampler.Event::seconds).orElse(0.0);
            if (before != null && before.throughputQps() > 0) {
                relative.addSeries(name, column(points, p -> (p.seconds() - origin) / intervalSeconds),
                    column(points, p -> p.throughputQps() / before.throughputQps()));
            }
        });
        timelines.values().stream().findFirst().ifPresent(t -> markEvents(absolute, t.events(), "interval ",
            "intervals end (" + timelines.keySet().iterator().next() + ")", t.points().stream()
                .mapToDouble(TimelineSampler.Point::throughputQps).max().orElse(0)));
        PaperFigures.mechanismTimeline().forEach((name, xy) -> {
            if (timelines.containsKey(name)) {
                relative.addSeries("paper " + name, xy[0], xy[1]);
            }
        });
        return List.of(ChartFiles.save(dir.resolve("mechanisms-timeline.png"), absolute),
            ChartFiles.save(dir.resolve("mechanisms-vs-paper.png"), relative));
    }

    /** Throughput and remote access rate timelines of each mode as the scope moves. */
    public static List<Path> dynamic(Path dir, Map<String, TimelineSampler> timelines) {
        XYChart throughput = ChartFiles.xy("Dynamic workload: throughput (paper Fig. 15 gives no numbers)", "s",
            "queries / s");
        XYChart remote = ChartFiles.xy("Dynamic workload: remote access rate", "s", "% of key and value accesses");
        double maxQps = 0;
        for (Map.Entry<String, TimelineSampler> e : timelines.entrySet()) {
            List<TimelineSampler.Point> points = e.getValue().points();
            if (!points.isEmpty()) {
                double[] x = column(points, TimelineSampler.Point::seconds);
                double[] qps = column(points, TimelineSampler.Point::throughputQps);
                throughput.addSeries(e.getKey(), x, qps);
                remote.addSeries(e.getKey(), x, column(points, p -> 100 * p.remoteAccessRate()));
                for (double q : qps) {
                    maxQps = Math.max(maxQps, q);
                }
            }
        }
        if (!timelines.isEmpty()) {
            // Every mode changes scope on the same schedule from its own start; the first one's times stand for all.
            List<TimelineSampler.Event> events = timelines.values().iterator().next().events();
            markEvents(throughput, events, "window ", "scope changes", maxQps);
            markEvents(remote, events, "window ", "scope changes", 100);
        }
        return List.of(ChartFiles.save(dir.resolve("dynamic-throughput.png"), throughput),
            ChartFiles.save(dir.resolve("dynamic-remote-access-rate.png"), remote));
    }

    /**
     * Migration throughput against payload size (Fig. 13): values per second and payload GB/s, one line per
     * migration thread count, beside the paper's floors (one thread past 1M values/s below 4 KB; 24 threads past
     * 10M/s) as dashed lines.
     *
     * @param valuesPerSecond by series name ("1 thread", ...), payload bytes to values migrated per second
     */
    public static List<Path> migrationSpeed(Path dir, Map<String, Map<Integer, Double>> valuesPerSecond) {
        XYChart values = ChartFiles.xy("Migration throughput by payload (paper Fig. 13: the text gives floors)",
            "payload (bytes, log)", "values migrated / s (log)");
        XYChart bandwidth = ChartFiles.xy("Migration bandwidth by payload (this run)", "payload (bytes, log)",
            "payload GB / s");
        values.getStyler().setXAxisLogarithmic(true);
        values.getStyler().setYAxisLogarithmic(true);
        bandwidth.getStyler().setXAxisLogarithmic(true);
        valuesPerSecond.forEach((name, byPayload) -> {
            if (!byPayload.isEmpty()) {
                List<Double> x = byPayload.keySet().stream().map(Integer::doubleValue).toList();
                values.addSeries(name, x, List.copyOf(byPayload.values()));
                bandwidth.addSeries(name, x, byPayload.entrySet().stream()
                    .map(e -> e.getKey() * e.getValue() / 1e9).toList());
            }
        });
        dashed(values.addSeries("paper: 1 thread > 1M/s below 4 KB", new double[] {64,
            PaperFigures.ONE_THREAD_PAYLOAD_LIMIT}, new double[] {PaperFigures.ONE_THREAD_VALUES_PER_SECOND,
            PaperFigures.ONE_THREAD_VALUES_PER_SECOND}));
        dashed(values.addSeries("paper: 24 threads > 10M/s", new double[] {64, PaperFigures.ONE_THREAD_PAYLOAD_LIMIT},
            new double[] {PaperFigures.PARALLEL_VALUES_PER_SECOND, PaperFigures.PARALLEL_VALUES_PER_SECOND}));
        return List.of(ChartFiles.save(dir.resolve("migration-speed.png"), values),
            ChartFiles.save(dir.resolve("migration-bandwidth.png"), bandwidth));
    }

    private static void dashed(XYSeries s) {
        s.setMarker(SeriesMarkers.NONE);
        s.setLineStyle(SeriesLines.DASH_DASH);
    }

    /** A vertical dashed line from 0 to {@code top} at each event whose text starts with {@code prefix}. */
    private static void markEvents(XYChart c, List<TimelineSampler.Event> events, String prefix, String label,
                                   double top) {
        int n = 0;
        for (TimelineSampler.Event e : events) {
            if (e.what().startsWith(prefix)) {
                XYSeries line = c.addSeries(n == 0 ? label : label + " " + n, new double[] {e.seconds(), e.seconds()},
                    new double[] {0, top});
                line.setMarker(SeriesMarkers.NONE);
                line.setLineColor(Color.GRAY);
                line.setLineStyle(SeriesLines.DASH_DASH);
                line.setShowInLegend(n == 0);
                n++;
            }
        }
    }

    private static List<Mode> modes(Map<Integer, Map<Mode, ModeResult>> byScope) {
        List<Mode> modes = new ArrayList<>();
        byScope.values().forEach(row -> row.keySet().forEach(m -> {
            if (!modes.contains(m)) {
                modes.add(m);
            }
        }));
        return modes;
    }

    private static double log2(int n) {
        return Math.log(n) / Math.log(2);
    }

    private static <T> double[] column(List<T> rows, ToDoubleFunction<T> f) {
        double[] out = new double[rows.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = f.applyAsDouble(rows.get(i));
        }
        return out;
    }
}
