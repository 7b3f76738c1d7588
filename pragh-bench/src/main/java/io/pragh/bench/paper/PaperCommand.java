package io.pragh.bench.paper;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.pragh.bench.charts.PaperFigures;
import io.pragh.bench.charts.ScenarioCharts;
import io.pragh.bench.charts.TraversalCharts;
import io.pragh.bench.rdf.RdfBenchCommand;
import io.pragh.bench.rdf.RdfBenchConfig;
import io.pragh.bench.traversal.Mode;
import io.pragh.bench.traversal.ModeResult;
import io.pragh.bench.traversal.TraversalCommand;
import io.pragh.bench.traversal.TraversalConfig;
import io.pragh.bench.traversal.TraversalReport;
import io.pragh.bench.traversal.TraversalRunner;
import io.pragh.bench.traversal.scenarios.DynamicWorkload;
import io.pragh.bench.traversal.scenarios.MechanismTimeline;
import io.pragh.bench.traversal.scenarios.PutLatencyCdf;
import io.pragh.bench.traversal.scenarios.Scenario;
import io.pragh.bench.traversal.scenarios.ScenarioArgs;
import io.pragh.bench.traversal.scenarios.ScopeSweep;
import io.pragh.bench.workload.AdjacencyGraph;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;

/**
 * {@code ./pragh bench paper --out DIR [--scale S --machines N]}: the paper's whole section 6 in one command. It
 * generates the RMAT graph once and runs, on the existing benchmarks, Table 1 and Fig. 10 (one traversal run of the
 * five modes), Fig. 11 (the scope sweep), Fig. 12 (the PUT latency CDF), Fig. 13 (the JMH migration throughput
 * benchmark), Fig. 14 (eager vs deferred), Fig. 15 (the dynamic workload) and Fig. 16 (the LUBM mix), writing one
 * JSON and one PNG per figure ({@link FigureFiles}) with the paper's numbers beside ours and the single-copy floor
 * where it applies.
 *
 * <pre>{@code
 * ./pragh bench paper --out docs/results/paper-s14 --scale 14 --machines 8
 * ./pragh bench paper --out target/paper --scale 8 --machines 2 --duration 0.3   # a smoke run of every figure
 * }</pre>
 */
public final class PaperCommand {
    /** The figure ids, in the order they run and as the files are named. */
    /** The paper's five modes and ours beyond them (read replicas, docs/replicas.md). */
    static final String FIG10_MODES = "orig,ideal,shard,split,split-cache,split-cache-replica";
    public static final List<String> FIGURES = List.of("table1", "fig10", "fig11", "fig12", "fig13", "fig14", "fig15",
        "fig16");
    static final String FLOOR_NOTE = "lowest remote access rate any value placement allows on the loaded graph's "
        + "two-hop GETs with every key lookup local (LocalityBound): a value read from several machines is local to "
        + "one; the paper's 2.0% residue is this contention";
    static final String NO_FLOOR = "no single-copy floor: this figure plots no remote access rate of the two-hop mix";

    private PaperCommand() {
    }

    /**
     * Runs every figure; returns the exit status: 2 for bad flags, 1 if a mode of Fig. 10 had a history with no
     * linearization (3: a key's check undecided), after every figure ran.
     */
    public static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
        if (args.length == 1 && (args[0].equals("--help") || args[0].equals("-h"))) {
            out.println(PaperConfig.USAGE);
            return 0;
        }
        try {
            PaperConfig config = PaperConfig.parse(args);
            long t0 = System.nanoTime();
            FigureFiles files = new FigureFiles(config, out);
            int status = new PaperCommandRun(config, files, out).all();
            out.printf(Locale.ROOT, "bench paper: %d figures in %.0f s, in %s%n", FIGURES.size(),
                (System.nanoTime() - t0) / 1e9, config.out().toAbsolutePath());
            if (status != 0) {
                err.println("pragh bench paper: Fig. 10's " + (status == 1 ? "history had no linearization"
                    : "history check was undecided for a key") + " (see its report); exit status " + status);
            }
            return status;
        } catch (IllegalArgumentException e) {
            err.println("pragh bench paper: " + e.getMessage());
            return 2;
        }
    }

    /** Fig. 10's traversal run: its flags, its rows and the exit status its history checks call for. */
    private record Fig10Run(TraversalConfig config, Map<Mode, ModeResult> results, int historyStatus) {
    }

    /** One run of every figure on one graph. */
    private record PaperCommandRun(PaperConfig config, FigureFiles files, PrintStream out) {
        /** Every figure; returns the exit status Fig. 10's history checks call for. */
        int all() throws Exception {
            TraversalConfig base = TraversalConfig.parse(config.traversalArgs());
            AdjacencyGraph graph = TraversalCommand.generate(base, out);
            int available = graph.verticesWithEdges().length;
            int topExponent = 31 - Integer.numberOfLeadingZeros(available);
            // The paper's scope, 2^10, where the graph has that many start vertices.
            int scopeExponent = Math.min(10, topExponent);
            String scope = Integer.toString(1 << scopeExponent);
            Fig10Run fig10 = tableAndFig10(graph, scope);
            fig11(graph, scopeExponent, topExponent, fig10);
            scenario("fig12", "Fig. 12: PUT latency CDF with and without migration, 50/50 mix", new PutLatencyCdf(),
                graph, fig12Paper(), null, NO_FLOOR, "--scope", scope);
            fig13();
            scenario("fig14", "Fig. 14: eager vs deferred migration, throughput timeline", new MechanismTimeline(),
                graph, fig14Paper(), null, NO_FLOOR, "--scope", scope, "--tick", tick());
            // Three windows that do not overlap, each as large a power of two as fits, at most the paper's 2^10.
            String window = Integer.toString(Math.min(1 << scopeExponent, Integer.highestOneBit(available / 3)));
            scenario("fig15", "Fig. 15: throughput timeline as the scope of start vertices moves", new DynamicWorkload(),
                graph, fig15Paper(), null, "no single-copy floor: each window has its own scope and the timeline "
                    + "mixes migration's progress with it", "--scope", window, "--windows", "3", "--tick", tick());
            fig16();
            return fig10.historyStatus();
        }

        private String tick() {
            return Double.toString(Math.max(0.05, config.durationSeconds() / 10));
        }

        /** Table 1 and Fig. 10 from one traversal run of every mode; returns its rows (Fig. 11 reuses them). */
        private Fig10Run tableAndFig10(AdjacencyGraph graph, String scope) throws Exception {
            TraversalConfig c = TraversalConfig.parse(config.traversalArgs("--scope", scope, "--modes", FIG10_MODES));
            TraversalRunner runner = new TraversalRunner(c, graph, out);
            double floor = runner.remoteRateFloor();
            TraversalReport report = new TraversalReport(c);
            for (Mode mode : c.modes()) {
                report.add(mode, runner.run(mode));
            }
            out.println();
            report.printTable(out);
            int historyStatus = report.printHistoryFailures(out);
            Map<Mode, ModeResult> shard = new LinkedHashMap<>();
            for (Mode m : List.of(Mode.IDEAL, Mode.ORIG, Mode.SHARD)) {
                shard.put(m, report.results().get(m));
            }
            files.write("table1", "Table 1: shard-based live migration, before (orig) and after, beside ideal",
                table1(shard), table1Paper(), null, "no single-copy floor: the table compares shard-based migration "
                    + "with ideal; fig10.json gives the floor of the same run",
                TraversalCharts.write(files.parts("table1"), shard, PaperFigures.TRAVERSAL));
            files.write("fig10", "Fig. 10: migration schemes on the traversal benchmark (Zipf 0.99)",
                report.asMap(), fig10Paper(), floor, FLOOR_NOTE,
                TraversalCharts.write(files.parts("fig10"), report.results(), PaperFigures.TRAVERSAL, floor));
            return new Fig10Run(c, report.results(), historyStatus);
        }

        /** Fig. 11; its first scope is Fig. 10's, whose rows of the same modes and flags are taken, not run again. */
        private void fig11(AdjacencyGraph graph, int from, int top, Fig10Run fig10) throws Exception {
            // The paper sweeps 2^10 to 2^26; three scopes two powers apart, as far as the graph's start vertices go.
            StringJoiner scopes = new StringJoiner(",");
            for (int e = from; e <= top && e <= from + 4; e += 2) {
                scopes.add(Integer.toString(e));
            }
            Map<String, Object> paper = new LinkedHashMap<>();
            paper.put("note", "Fig. 11 is a plot; the text gives no numbers: the speedup after migration falls "
                + "steadily as the scope grows from 2^10 to 2^26, and remote accesses rise, from contention on values "
                + "read by queries on several machines");
            Scenario.Result r = scenario(new ScopeSweep(fig10.config(), fig10.results()), graph, "--scopes",
                scopes.toString(), "--modes", "orig,split-cache,split-cache-replica");
            Map<String, Object> measured = r.asMap();
            files.write("fig11", "Fig. 11: migration benefits as the scope of start vertices grows", measured, paper,
                measured.get("single_copy_floor"), FLOOR_NOTE + "; one per scope", r.writeCharts(files.parts("fig11")));
        }

        private void scenario(String id, String title, Scenario s, AdjacencyGraph graph, Map<String, Object> paper,
                              Object floor, String floorNote, String... flags) throws Exception {
            Scenario.Result r = scenario(s, graph, flags);
            files.write(id, title, r.asMap(), paper, floor, floorNote, r.writeCharts(files.parts(id)));
        }

        private Scenario.Result scenario(Scenario s, AdjacencyGraph graph, String... flags) throws Exception {
            out.println("== bench " + s.name());
            Scenario.Result r = s.run(ScenarioArgs.parse(s, config.traversalArgs(flags)), () -> graph, out);
            out.println();
            r.print(out);
            return r;
        }

        private void fig13() throws Exception {
            // Short runs of small payloads fit a small value region; the full set needs the benchmark's room.
            boolean smoke = config.durationSeconds() < 1;
            List<Integer> payloads = smoke ? List.of(64, 1024) : List.of(64, 256, 1024, 4096, 16384);
            double seconds = Math.min(1, config.durationSeconds());
            int iterations = smoke ? 1 : 3;
            int valueMb = smoke ? 512 : 2048;
            out.println("== Fig. 13: JMH MigrationThroughputBenchmark, payloads " + payloads);
            Map<String, Map<Integer, Double>> speed = MigrationSpeed.run(payloads, valueMb, seconds, iterations, out);
            Map<String, Object> measured = new LinkedHashMap<>();
            Map<String, Object> series = new LinkedHashMap<>();
            speed.forEach((name, byPayload) -> {
                Map<String, Object> m = new LinkedHashMap<>();
                byPayload.forEach((payload, v) -> m.put(Integer.toString(payload), v));
                series.put(name, m);
            });
            measured.put("benchmark", "io.pragh.bench.jmh.MigrationThroughputBenchmark (in this JVM, no fork)");
            measured.put("iteration_s", seconds);
            measured.put("iterations", iterations);
            measured.put("value_mb_per_machine", valueMb);
            measured.put("values_per_second", series);
            Map<String, Object> paper = new LinkedHashMap<>();
            paper.put("one_thread_values_per_second_below_4kb", PaperFigures.ONE_THREAD_VALUES_PER_SECOND);
            paper.put("parallel_24_threads_values_per_second", PaperFigures.PARALLEL_VALUES_PER_SECOND);
            paper.put("note", "lower bounds from the text ('more than one million', 'more than 10 million'); "
                + "the paper's RDMA cluster against our in-process fabric at its emulated remote latency");
            files.write("fig13", "Fig. 13: migration throughput by payload size", measured, paper, null,
                "no single-copy floor: a migration speed figure", ScenarioCharts.migrationSpeed(files.parts("fig13"),
                    speed));
        }

        private void fig16() throws Exception {
            Path json = files.parts("fig16").resolve("rdf.json");
            RdfBenchConfig c = RdfBenchConfig.parse("--universities", Integer.toString(config.universities()),
                "--machines", Integer.toString(config.machines()), "--duration",
                Double.toString(config.durationSeconds()), "--warmup", Double.toString(config.warmupSeconds()),
                "--interval", Double.toString(config.intervalSeconds()), "--seed", Long.toString(config.seed()),
                "--json", json.toString(), "--charts", files.parts("fig16").toString());
            out.println("== bench rdf");
            List<Path> charts = RdfBenchCommand.runAndWrite(c, out);
            Map<String, Object> measured = new ObjectMapper().readValue(json.toFile(), new TypeReference<>() {
            });
            Object paper = measured.remove("paper_fig16");
            @SuppressWarnings("unchecked")
            Map<String, Object> paperMap = (Map<String, Object>) paper;
            files.write("fig16", "Fig. 16: the Wukong+M experiment, a LUBM mix of six SPARQL query classes",
                measured, paperMap, null, "no single-copy floor: LocalityBound covers the traversal benchmark's "
                    + "two-hop GETs, not SPARQL explorations", charts);
        }
    }

    private static Map<String, Object> table1(Map<Mode, ModeResult> rows) {
        Map<String, Object> m = new LinkedHashMap<>();
        rows.forEach((mode, r) -> m.put(table1Row(mode), table1Columns(new double[] {r.throughputQps() / 1000,
            r.p50Ms(), r.p99Ms(), r.remoteAccessRate(), mode == Mode.SHARD ? r.migratedKeyFraction() : Double.NaN})));
        return m;
    }

    private static Map<String, Object> table1Paper() {
        Map<String, Object> m = new LinkedHashMap<>();
        PaperFigures.table1().forEach((mode, row) -> m.put(table1Row(mode), table1Columns(row)));
        m.put("note", "8 machines, RMAT26; data_migration_rate is the share of shards moved (ours: of keys)");
        return m;
    }

    private static String table1Row(Mode mode) {
        return switch (mode) {
            case ORIG -> "shard_before";
            case SHARD -> "shard_after";
            default -> mode.reportName();
        };
    }

    /** A row of Table 1 by column name; a dash in the table (NaN) is null. */
    private static Map<String, Object> table1Columns(double[] row) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < row.length; i++) {
            m.put(PaperFigures.TABLE1_COLUMNS.get(i), Double.isNaN(row[i]) ? null : row[i]);
        }
        return m;
    }

    private static Map<String, Object> fig10Paper() {
        Map<String, Object> m = new LinkedHashMap<>();
        PaperFigures.throughputQps().forEach((mode, qps) -> {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("throughput_qps", qps);
            row.put("throughput_x_orig", PaperFigures.TRAVERSAL.throughputRatio().get(mode));
            row.put("remote_access_rate", PaperFigures.remoteAccessRate().get(mode));
            m.put(mode.reportName(), row);
        });
        m.put("source", PaperFigures.TRAVERSAL.label());
        return m;
    }

    private static Map<String, Object> fig12Paper() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("forwarded_put_fraction", PaperFigures.FORWARDED_PUT_FRACTION);
        m.put("note", "the CDF is a plot; the text: after migration the 99.9th percentile PUT latency falls, and "
            + "check-and-forward touches only the 99.9th (0.11% of PUTs forwarded, 0.13% of keys migrated)");
        return m;
    }

    private static Map<String, Object> fig14Paper() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("throughput_qps_before", PaperFigures.FIG14_BEFORE_QPS);
        m.put("eager_after_first_migration_qps", PaperFigures.FIG14_EAGER_FIRST_QPS);
        m.put("after_second_interval_qps", PaperFigures.FIG14_SETTLED_QPS);
        m.put("interval_s", PaperFigures.INTERVAL_SECONDS);
        Map<String, Object> steps = new LinkedHashMap<>();
        PaperFigures.mechanismTimeline().forEach((name, xy) -> steps.put(name, Map.of("intervals", xy[0],
            "x_before", xy[1])));
        m.put("steps", steps);
        return m;
    }

    private static Map<String, Object> fig15Paper() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("instant_report_threshold_per_s", 100);
        m.put("window_s", 600);
        m.put("recovery_s", 5);
        m.put("note", "Fig. 15 is a plot; the text: throughput drops at every change of scope and split migration "
            + "with the location cache recovers in about 5 s (instant migration); shard-based barely improves");
        return m;
    }
}
