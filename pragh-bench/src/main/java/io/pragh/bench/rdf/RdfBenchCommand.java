package io.pragh.bench.rdf;

import io.pragh.bench.charts.PaperFigures;
import io.pragh.bench.charts.TraversalCharts;
import io.pragh.bench.traversal.JsonFile;
import io.pragh.bench.traversal.Mode;
import io.pragh.bench.traversal.TraversalReport;
import io.pragh.rdf.lubm.LubmGenerator;
import java.io.BufferedWriter;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code ./pragh bench rdf [flags]}: the paper's Fig. 16 (the Wukong+M port) on our RDF store. Generates LUBM-N
 * once into {@code --data-dir} (a later run with the same universities and seed reads it from there), runs every
 * requested mode on a fresh cluster loaded with it (embedded: one parse written into each), prints the table, and
 * writes the JSON report and the charts, the paper's figures beside ours.
 *
 * <pre>{@code
 * ./pragh bench rdf --universities 2 --machines 8
 * }</pre>
 */
public final class RdfBenchCommand {
    private RdfBenchCommand() {
    }

    /** Runs the benchmark; returns the exit status (2 for bad flags). */
    public static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
        if (args.length == 1 && (args[0].equals("--help") || args[0].equals("-h"))) {
            out.println(RdfBenchConfig.USAGE);
            return 0;
        }
        RdfBenchConfig config;
        try {
            config = RdfBenchConfig.parse(args);
        } catch (IllegalArgumentException e) {
            err.println("pragh bench rdf: " + e.getMessage());
            return 2;
        }
        runAndWrite(config, out);
        return 0;
    }

    /**
     * Generates LUBM-N, runs every mode of {@code config}, prints the table, writes its JSON report (with the paper's
     * figures under {@code paper_fig16}) and charts; returns the chart files. {@code bench paper} reuses it for Fig. 16.
     */
    public static List<Path> runAndWrite(RdfBenchConfig config, PrintStream out) throws Exception {
        Path file = config.lubmFile();
        long t0 = System.nanoTime();
        boolean kept = Files.isRegularFile(file);
        long triples = kept ? lines(file) : generate(config, file);
        out.printf(Locale.ROOT, "LUBM-%d: %d triples %s in %.1f s; query classes %s (Zipf 0.99 start vertices)%n",
            config.universities(), triples, kept ? "read from " + file : "generated into " + file,
            (System.nanoTime() - t0) / 1e9, config.asMap().get("query_classes"));
        RdfBenchRunner runner = new RdfBenchRunner(config, file, triples, out);
        TraversalReport report = new TraversalReport(config.asMap());
        for (Mode mode : config.modes()) {
            report.add(mode, runner.run(mode));
        }
        out.println();
        report.printTable(out);
        Map<String, Object> root = report.asMap();
        root.put("paper_fig16", paper());
        JsonFile.write(config.json(), root);
        out.println("JSON report: " + config.json().toAbsolutePath());
        List<Path> charts = TraversalCharts.write(config.charts(), report.results(), PaperFigures.RDF_FIG16);
        for (Path chart : charts) {
            out.println("chart: " + chart.toAbsolutePath());
        }
        return charts;
    }

    /**
     * Generates LUBM-N into {@code file} through a temporary file beside it, moved into place once complete, so a run
     * cut short never leaves a partial file that a later run would take for the data set. Returns the triples.
     */
    private static long generate(RdfBenchConfig config, Path file) throws Exception {
        Files.createDirectories(file.toAbsolutePath().getParent());
        Path partial = Files.createTempFile(file.toAbsolutePath().getParent(), file.getFileName().toString(), ".part");
        try {
            long triples;
            try (BufferedWriter w = Files.newBufferedWriter(partial, StandardCharsets.UTF_8)) {
                triples = new LubmGenerator(config.universities(), config.seed()).write(w);
            }
            Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE);
            return triples;
        } finally {
            Files.deleteIfExists(partial);
        }
    }

    /** Triples of a kept N-Triples file: one a line, as the generator writes them. */
    private static long lines(Path file) throws Exception {
        try (var lines = Files.lines(file, StandardCharsets.UTF_8)) {
            return lines.count();
        }
    }

    /** The paper's Fig. 16 as the report states it: throughput relative to orig, remote access rate where given. */
    private static Map<String, Object> paper() {
        Map<String, Object> m = new LinkedHashMap<>();
        PaperFigures.Figure f = PaperFigures.RDF_FIG16;
        f.throughputRatio().forEach((mode, x) -> {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("throughput_x_orig", x);
            if (f.remoteAccessRate().containsKey(mode)) {
                row.put("remote_access_rate", f.remoteAccessRate().get(mode));
            }
            m.put(mode.reportName(), row);
        });
        m.put("source", f.label());
        return m;
    }
}
