package io.pragh.bench.charts;

import io.pragh.bench.traversal.Mode;
import io.pragh.bench.traversal.ModeResult;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;

/**
 * PNG charts of a traversal benchmark run, one per figure: throughput as a multiple of {@code orig} and remote
 * access rate, each with the paper's figure beside ours where the paper has one, and median / p99 latency.
 *
 * <pre>{@code
 * List<Path> files = TraversalCharts.write(Path.of("charts"), report.results());
 * }</pre>
 */
public final class TraversalCharts {
    /** The legend of the single-copy floor wherever a chart draws it. */
    public static final String FLOOR_LABEL = "single-copy floor (any placement, local lookups)";

    private TraversalCharts() {
    }

    /** Writes the charts into {@code dir} (created if needed) beside the traversal figures; returns the files. */
    public static List<Path> write(Path dir, Map<Mode, ModeResult> results) {
        return write(dir, results, PaperFigures.TRAVERSAL);
    }

    /**
     * Writes the charts of {@code results} into {@code dir} (created if needed), {@code paper}'s figures beside
     * ours, each file's name starting with its prefix; returns the files written.
     */
    public static List<Path> write(Path dir, Map<Mode, ModeResult> results, PaperFigures.Figure paper) {
        return write(dir, results, paper, Double.NaN);
    }

    /**
     * As {@link #write(Path, Map, PaperFigures.Figure)}, the remote access rate chart also showing {@code floor} (the
     * single-copy floor, {@code LocalityBound}, a fraction) beside every mode; NaN draws none.
     */
    public static List<Path> write(Path dir, Map<Mode, ModeResult> results, PaperFigures.Figure paper, double floor) {
        List<Path> files = new ArrayList<>();
        List<String> modes = new ArrayList<>();
        results.keySet().forEach(m -> modes.add(m.reportName()));
        String prefix = paper.filePrefix();
        files.add(ChartFiles.save(dir.resolve(prefix + "throughput.png"), speedup(results, modes, paper)));
        files.add(ChartFiles.save(dir.resolve(prefix + "latency.png"), latency(results, modes)));
        files.add(ChartFiles.save(dir.resolve(prefix + "remote-access-rate.png"), remoteRate(results, modes, paper, floor)));
        return files;
    }

    private static CategoryChart speedup(Map<Mode, ModeResult> results, List<String> modes, PaperFigures.Figure paper) {
        CategoryChart c = chart("Throughput relative to orig", "x orig");
        ModeResult orig = results.get(Mode.ORIG);
        if (orig == null || orig.throughputQps() <= 0) {
            c.addSeries("this run (q/s)", modes, values(results, ModeResult::throughputQps));
            c.setYAxisTitle("queries / s");
            return c;
        }
        c.addSeries("this run", modes, values(results, r -> r.throughputQps() / orig.throughputQps()));
        c.addSeries(paper.label(), modes, paperValues(results, paper.throughputRatio(), 1));
        return c;
    }

    private static CategoryChart latency(Map<Mode, ModeResult> results, List<String> modes) {
        CategoryChart c = chart("Query latency (this run)", "ms");
        c.addSeries("p50", modes, values(results, ModeResult::p50Ms));
        c.addSeries("p99", modes, values(results, ModeResult::p99Ms));
        return c;
    }

    private static CategoryChart remoteRate(Map<Mode, ModeResult> results, List<String> modes,
                                            PaperFigures.Figure paper, double floor) {
        CategoryChart c = chart("Remote access rate", "% of key and value accesses");
        c.addSeries("this run", modes, values(results, r -> 100 * r.remoteAccessRate()));
        c.addSeries(paper.label(), modes, paperValues(results, paper.remoteAccessRate(), 0.01));
        if (!Double.isNaN(floor)) {
            // The floor bounds any placement of values over the machines with every key lookup local: the same bar
            // beside every mode but ideal, whose one machine has no remote reads to bound.
            c.addSeries(FLOOR_LABEL, modes, results.keySet().stream().map(m -> m == Mode.IDEAL ? 0.0 : 100 * floor)
                .toList());
        }
        return c;
    }

    private static List<Double> values(Map<Mode, ModeResult> results, ToDoubleFunction<ModeResult> f) {
        List<Double> out = new ArrayList<>();
        for (ModeResult r : results.values()) {
            out.add(f.applyAsDouble(r));
        }
        return out;
    }

    private static List<Double> paperValues(Map<Mode, ModeResult> results, Map<Mode, Double> paper, double divisor) {
        List<Double> out = new ArrayList<>();
        for (Mode m : results.keySet()) {
            out.add(paper.getOrDefault(m, 0.0) / divisor);
        }
        return out;
    }

    /** A bar chart by mode, of the common size. */
    static CategoryChart chart(String title, String yAxis) {
        CategoryChart c = new CategoryChartBuilder().width(ChartFiles.WIDTH).height(ChartFiles.HEIGHT).title(title)
            .xAxisTitle("mode").yAxisTitle(yAxis).build();
        c.getStyler().setLegendVisible(true);
        c.getStyler().setAvailableSpaceFill(0.7);
        // Slanted: six modes' names side by side ran into each other ("split-cache" and "split-cache-replica") in a
        // figure's half-width panels.
        c.getStyler().setXAxisLabelRotation(30);
        return c;
    }
}
