package io.pragh.bench.charts;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.internal.chartpart.Chart;

/**
 * Where every benchmark chart is made and written: one size, headless AWT, PNG files named as given.
 *
 * <pre>{@code
 * XYChart c = ChartFiles.xy("Throughput timeline", "s", "queries / s");
 * Path file = ChartFiles.save(dir.resolve("timeline.png"), c);
 * }</pre>
 */
public final class ChartFiles {
    static final int WIDTH = 800;
    static final int HEIGHT = 500;

    private ChartFiles() {
    }

    /** A line chart of the common size, its legend shown. */
    public static XYChart xy(String title, String xAxis, String yAxis) {
        XYChart c = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title).xAxisTitle(xAxis).yAxisTitle(yAxis)
            .build();
        c.getStyler().setLegendVisible(true);
        return c;
    }

    /** Writes {@code chart} to {@code file} (a .png path), creating its directory. */
    public static Path save(Path file, Chart<?, ?> chart) {
        System.setProperty("java.awt.headless", "true");
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            String base = file.toString().replaceFirst("\\.png$", "");
            BitmapEncoder.saveBitmap(chart, base, BitmapEncoder.BitmapFormat.PNG);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write chart " + file + ": " + e.getMessage(), e);
        }
    }
}
