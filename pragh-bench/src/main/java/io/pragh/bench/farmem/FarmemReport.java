package io.pragh.bench.farmem;

import io.pragh.bench.charts.ChartFiles;
import io.pragh.bench.traversal.JsonFile;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.knowm.xchart.XYChart;

/**
 * What {@code ./pragh bench farmem} writes: {@code farmem.json} (config, graph, every point, the chunk sweep and, per
 * algorithm and ratio, the chunked run's speed-up over on-demand and its slowdown against all-local), one PNG per
 * algorithm (seconds against far ratio, a line per mode) and {@code farmem-chunks.png} (the sweep).
 *
 * <pre>{@code
 * new FarmemReport(config, System.out).write(results);
 * }</pre>
 */
final class FarmemReport {
    private final FarmemConfig config;
    private final PrintStream out;

    FarmemReport(FarmemConfig config, PrintStream out) {
        this.config = config;
        this.out = out;
    }

    void write(FarmemBench.Results r) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("config", config.asMap());
        json.put("graph", Map.of("vertices", r.vertices(), "edges", r.edges(), "bfsSource", r.source()));
        json.put("points", r.points().stream().map(FarmemReport::asMap).toList());
        json.put("chunkSweep", r.sweep().stream().map(FarmemReport::asMap).toList());
        List<Map<String, Object>> comparisons = new ArrayList<>();
        for (String algorithm : List.of("bfs", "pagerank")) {
            double local = seconds(r.points(), algorithm, FarmemBench.ALL_LOCAL, 0);
            double localCpu = cpu(r.points(), algorithm, FarmemBench.ALL_LOCAL, 0);
            for (double ratio : config.ratios()) {
                if (ratio == 0) {
                    continue;
                }
                double chunked = seconds(r.points(), algorithm, FarmemBench.CHUNKED, ratio);
                double onDemand = seconds(r.points(), algorithm, FarmemBench.ON_DEMAND, ratio);
                Map<String, Object> c = new LinkedHashMap<>();
                c.put("algorithm", algorithm);
                c.put("ratio", ratio);
                c.put("chunkedSpeedupOverOnDemand", onDemand / chunked);
                c.put("chunkedSlowdownVsAllLocal", chunked / local);
                double chunkedCpu = cpu(r.points(), algorithm, FarmemBench.CHUNKED, ratio);
                double onDemandCpu = cpu(r.points(), algorithm, FarmemBench.ON_DEMAND, ratio);
                c.put("cpuChunkedSpeedupOverOnDemand", onDemandCpu / chunkedCpu);
                c.put("cpuChunkedVsAllLocal", chunkedCpu / localCpu);
                // No far-read path beats reading every value in place, so this bounds the speedup above.
                c.put("onDemandOverAllLocal", onDemand / local);
                comparisons.add(c);
                out.printf(Locale.ROOT, "%-8s ratio %.2f: chunked %.2fx faster than on-demand, %.2fx the all-local time"
                    + " (in CPU time: %.2fx and %.2fx); ceiling: on-demand is %.2fx all-local%n", algorithm, ratio,
                    onDemand / chunked, chunked / local, onDemandCpu / chunkedCpu, chunkedCpu / localCpu,
                    onDemand / local);
            }
            chart(r.points(), algorithm);
        }
        json.put("comparisons", comparisons);
        sweepChart(r.sweep());
        JsonFile.write(config.out().resolve("farmem.json"), json);
        out.println("wrote " + config.out().resolve("farmem.json") + " and its charts");
    }

    private static Map<String, Object> asMap(FarmemBench.Point p) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("algorithm", p.algorithm());
        m.put("mode", p.mode());
        m.put("ratio", p.ratio());
        m.put("farShare", p.farShare());
        m.put("chunkBytes", p.chunkBytes());
        m.put("seconds", p.seconds());
        m.put("farReadsPerRun", p.farReadsPerRun());
        m.put("cpuSeconds", p.cpuSeconds());
        m.put("farBytesPerRun", p.farBytesPerRun());
        return m;
    }

    private static double cpu(List<FarmemBench.Point> points, String algorithm, String mode, double ratio) {
        return pick(points, algorithm, mode, ratio, FarmemBench.Point::cpuSeconds);
    }

    private static double seconds(List<FarmemBench.Point> points, String algorithm, String mode, double ratio) {
        return pick(points, algorithm, mode, ratio, FarmemBench.Point::seconds);
    }

    private static double pick(List<FarmemBench.Point> points, String algorithm, String mode, double ratio,
                               java.util.function.ToDoubleFunction<FarmemBench.Point> figure) {
        return points.stream().filter(p -> p.algorithm().equals(algorithm) && p.mode().equals(mode)
            && p.ratio() == ratio).mapToDouble(figure).findFirst().orElse(Double.NaN);
    }

    private void chart(List<FarmemBench.Point> points, String algorithm) {
        XYChart c = ChartFiles.xy(algorithm.toUpperCase(Locale.ROOT) + " over far memory (scale " + config.scale() + ")",
            "far-memory ratio", "seconds (median)");
        List<Double> ratios = config.ratios().stream().filter(x -> x > 0).toList();
        double local = seconds(points, algorithm, FarmemBench.ALL_LOCAL, 0);
        double[] x = ratios.stream().mapToDouble(Double::doubleValue).toArray();
        if (x.length == 0) {
            return;
        }
        c.addSeries(FarmemBench.ALL_LOCAL, x, ratios.stream().mapToDouble(rt -> local).toArray());
        for (String mode : List.of(FarmemBench.CHUNKED, FarmemBench.ON_DEMAND)) {
            c.addSeries(mode.equals(FarmemBench.CHUNKED) ? "tiering + chunked READs" : "on-demand (swap-like)", x,
                ratios.stream().mapToDouble(rt -> seconds(points, algorithm, mode, rt)).toArray());
        }
        ChartFiles.save(config.out().resolve("farmem-" + algorithm + ".png"), c);
    }

    private void sweepChart(List<FarmemBench.Point> sweep) {
        if (sweep.isEmpty()) {
            return;
        }
        XYChart c = ChartFiles.xy("Chunk size sweep at far ratio " + config.sweepRatio(), "chunk KiB (log)",
            "seconds (median)");
        c.getStyler().setXAxisLogarithmic(true);
        for (String algorithm : List.of("bfs", "pagerank")) {
            List<FarmemBench.Point> ps = sweep.stream().filter(p -> p.algorithm().equals(algorithm)).toList();
            c.addSeries(algorithm, ps.stream().mapToDouble(p -> p.chunkBytes() / 1024.0).toArray(),
                ps.stream().mapToDouble(FarmemBench.Point::seconds).toArray());
        }
        ChartFiles.save(config.out().resolve("farmem-chunks.png"), c);
    }
}
