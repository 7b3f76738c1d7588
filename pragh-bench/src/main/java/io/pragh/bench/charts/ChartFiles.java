package io.pragh.bench.charts;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;
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

    /**
     * Tiles the PNG files {@code parts} into one PNG {@code file}, two a row in order, on white: one figure made of
     * several charts (a paper figure's panels (a), (b), ...).
     */
    public static Path tile(Path file, List<Path> parts) {
        if (parts.isEmpty()) {
            throw new IllegalArgumentException("no chart to tile into " + file);
        }
        System.setProperty("java.awt.headless", "true");
        try {
            List<BufferedImage> images = new ArrayList<>();
            int w = 0;
            int h = 0;
            for (Path p : parts) {
                BufferedImage img = ImageIO.read(p.toFile());
                if (img == null) {
                    throw new IOException(p + " is not an image");
                }
                images.add(img);
                w = Math.max(w, img.getWidth());
                h = Math.max(h, img.getHeight());
            }
            int cols = Math.min(2, images.size());
            int rows = (images.size() + cols - 1) / cols;
            BufferedImage out = new BufferedImage(cols * w, rows * h, BufferedImage.TYPE_INT_RGB);
            Graphics2D g = out.createGraphics();
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, out.getWidth(), out.getHeight());
            for (int i = 0; i < images.size(); i++) {
                g.drawImage(images.get(i), (i % cols) * w, (i / cols) * h, null);
            }
            g.dispose();
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            ImageIO.write(out, "png", file.toFile());
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot tile charts into " + file + ": " + e.getMessage(), e);
        }
    }
}
