package io.pragh.bench.traversal;

import io.pragh.bench.workload.AdjacencyGraph;
import io.pragh.bench.workload.RmatGenerator;
import java.io.PrintStream;
import java.util.Locale;

/**
 * {@code ./pragh bench traversal [flags]}: generates the RMAT graph once, runs every requested mode on a fresh
 * cluster of it, prints the table and writes the JSON report.
 *
 * <pre>{@code
 * ./pragh bench traversal --machines 4 --scale 12 --duration 5 --json target/traversal.json
 * }</pre>
 */
public final class TraversalCommand {
    private TraversalCommand() {
    }

    /**
     * Runs the benchmark; returns the exit status: 2 for bad flags, 1 if a mode's history had no linearization, 3 if
     * a key's history check was undecided, else 0.
     */
    public static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
        if (args.length == 1 && (args[0].equals("--help") || args[0].equals("-h"))) {
            out.println(TraversalConfig.USAGE);
            return 0;
        }
        TraversalConfig config;
        try {
            config = TraversalConfig.parse(args);
        } catch (IllegalArgumentException e) {
            err.println("pragh bench traversal: " + e.getMessage());
            return 2;
        }
        AdjacencyGraph graph = generate(config, out);
        TraversalRunner runner;
        try {
            runner = new TraversalRunner(config, graph, out);
        } catch (IllegalArgumentException e) {
            err.println("pragh bench traversal: " + e.getMessage());
            return 2;
        }
        out.printf(Locale.ROOT, "lowest remote access rate any value placement allows on the loaded graph's two-hop"
            + " GETs: %.2f%% (edge inserts then add neighbours to hot lists, which only their readers read)%n",
            100 * runner.remoteRateFloor());
        TraversalReport report = new TraversalReport(config);
        for (Mode mode : config.modes()) {
            report.add(mode, runner.run(mode));
        }
        out.println();
        report.printTable(out);
        if (config.json() != null) {
            report.writeJson(config.json());
            out.println("JSON report: " + config.json().toAbsolutePath());
        }
        if (config.charts() != null) {
            for (java.nio.file.Path chart : io.pragh.bench.charts.TraversalCharts.write(config.charts(), report.results())) {
                out.println("chart: " + chart.toAbsolutePath());
            }
        }
        int status = report.printHistoryFailures(out);
        if (status != 0) {
            err.println("pragh bench traversal: " + (status == 1 ? "a history had no linearization"
                : "a key's history check was undecided") + " (see above); exit status " + status);
        }
        return status;
    }

    /** The RMAT graph of {@code config}'s scale and seed, with a line saying what was generated. */
    public static AdjacencyGraph generate(TraversalConfig config, PrintStream out) {
        long t0 = System.nanoTime();
        AdjacencyGraph graph = new RmatGenerator(config.scale(), RmatGenerator.EDGE_FACTOR, config.seed()).generate();
        out.printf(Locale.ROOT, "graph: RMAT scale %d, %d vertices, %d distinct edges, generated in %.1f s%n",
            config.scale(), graph.vertexCount(), graph.edgeCount(), (System.nanoTime() - t0) / 1e9);
        out.println(config.fabricDescription());
        return graph;
    }
}
