package io.pragh.bench.traversal.scenarios;

import io.pragh.bench.charts.ScenarioCharts;
import io.pragh.bench.traversal.Mode;
import io.pragh.bench.traversal.ModeSession;
import io.pragh.bench.traversal.TimelineSampler;
import io.pragh.bench.traversal.TraversalConfig;
import io.pragh.bench.traversal.TraversalRunner;
import io.pragh.bench.workload.AdjacencyGraph;
import io.pragh.bench.traversal.deploy.SplitMigration;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * {@code ./pragh bench dynamic} (paper Fig. 15): the workload moves to a new, non-overlapping scope of start
 * vertices every window ({@code --duration} seconds, {@code --windows} of them) while migration runs by itself
 * (instant reports past 100 accesses/s, and every {@code --interval}); the timeline shows the drop at each change
 * and the recovery. {@code orig} runs the same windows without migration, for reference.
 *
 * <pre>{@code
 * ./pragh bench dynamic --machines 4 --scale 14 --windows 4 --duration 8 --interval 2 --charts target/charts
 * }</pre>
 */
public final class DynamicWorkload implements Scenario {
    @Override
    public String name() {
        return "dynamic";
    }

    @Override
    public String usage() {
        return String.join("\n",
            "usage: ./pragh bench dynamic [flags]   (paper Fig. 15: throughput timeline as the scope moves)",
            "  --windows N             scopes the workload moves through, each --scope vertices, none shared (default 4)",
            "  --tick SECONDS          timeline sample period (default 0.5)",
            "  --duration SECONDS      length of each window (default 10); migration is automatic, every --interval",
            "                          and instantly for keys past 100 accesses/s",
            "  --modes LIST            of orig, split, split-cache (default orig,split-cache)");
    }

    @Override
    public Map<String, String> ownFlags() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("--windows", "4");
        m.put("--tick", "0.5");
        return m;
    }

    @Override
    public List<String> changedDefaults() {
        return List.of("--modes", "orig,split-cache");
    }

    @Override
    public Map<String, String> refusedFlags() {
        return Map.of("--intervals", "migration is automatic here, every --interval for the whole run");
    }

    @Override
    public Result run(ScenarioArgs args, Supplier<AdjacencyGraph> graphs, PrintStream out) throws Exception {
        TraversalConfig c = args.config();
        int windows = args.integer("--windows", 1, 1 << 20);
        double tick = args.decimal("--tick", 0.01);
        for (Mode m : c.modes()) {
            if (m == Mode.SHARD || m == Mode.IDEAL) {
                throw new IllegalArgumentException("--modes " + m.reportName() + " is not run here: only orig, "
                    + "split and split-cache (shard moves shards with clients paused, once per plan)");
            }
        }
        AdjacencyGraph graph = graphs.get();
        int[] pool = graph.verticesWithEdges();
        if ((long) windows * c.scope() > pool.length) {
            throw new IllegalArgumentException("--windows " + windows + " x --scope " + c.scope() + " exceeds the "
                + pool.length + " vertices with edges at scale " + c.scale() + " (windows do not overlap)");
        }
        TraversalRunner runner = new TraversalRunner(c, graph, out);
        Map<Mode, Run> runs = new LinkedHashMap<>();
        for (Mode m : c.modes()) {
            try (ModeSession s = runner.open(m)) {
                TimelineSampler timeline = s.startTimeline(tick);
                s.phase("warm-up", c.warmupSeconds());
                SplitMigration control = m.migrates() ? s.startAutomaticMigration() : null;
                s.event("migration " + (control == null ? "off" : "automatic"));
                for (int w = 0; w < windows; w++) {
                    if (w > 0) {
                        s.startVertices().replace(Arrays.copyOfRange(pool, w * c.scope(), (w + 1) * c.scope()));
                        s.event("window " + w + ": start vertices " + w * c.scope() + ".." + ((w + 1) * c.scope() - 1)
                            + " of the vertices with edges");
                    }
                    s.phase(window(w), c.durationSeconds());
                }
                timeline.stop();
                runs.put(m, new Run(timeline, control == null ? 0 : control.migratedKeys(), s.keys()));
            }
        }
        return new DynamicResult(args, windows, runs);
    }

    static String window(int w) {
        return "window " + w;
    }

    /** One mode's run: its timeline and what it migrated. */
    record Run(TimelineSampler timeline, long migratedKeys, long keys) {
    }

    /** Every mode's run. */
    record DynamicResult(ScenarioArgs args, int windows, Map<Mode, Run> runs) implements Result {
        @Override
        public Map<String, Object> asMap() {
            Map<String, Object> modes = new LinkedHashMap<>();
            runs.forEach((mode, run) -> {
                Map<String, Object> o = new LinkedHashMap<>();
                Map<String, TimelineSampler.Point> means = run.timeline().meanByPhase();
                List<Map<String, Object>> perWindow = new java.util.ArrayList<>();
                for (int w = 0; w < windows; w++) {
                    TimelineSampler.Point p = means.get(window(w));
                    Map<String, Object> row = new LinkedHashMap<>();
                    row.put("window", w);
                    row.put("throughput_qps", p == null ? 0.0 : p.throughputQps());
                    row.put("remote_access_rate", p == null ? 0.0 : p.remoteAccessRate());
                    perWindow.add(row);
                }
                o.put("windows", perWindow);
                o.put("migrated_keys", run.migratedKeys());
                o.put("migrated_key_fraction", (double) run.migratedKeys() / run.keys());
                o.putAll(run.timeline().asMap());
                modes.put(mode.reportName(), o);
            });
            return args.report("modes", modes);
        }

        @Override
        public void print(PrintStream out) {
            out.printf("%-12s %-10s %12s %9s%n", "mode", "window", "mean q/s", "remote %");
            runs.forEach((mode, run) -> {
                Map<String, TimelineSampler.Point> means = run.timeline().meanByPhase();
                for (int w = 0; w < windows; w++) {
                    TimelineSampler.Point p = means.get(window(w));
                    if (p != null) {
                        out.printf(Locale.ROOT, "%-12s %-10d %12.0f %9.2f%n", mode.reportName(), w,
                            p.throughputQps(), 100 * p.remoteAccessRate());
                    }
                }
                out.printf(Locale.ROOT, "%s: %d values migrated%n", mode.reportName(), run.migratedKeys());
            });
        }

        @Override
        public List<Path> writeCharts(Path dir) {
            Map<String, TimelineSampler> timelines = new LinkedHashMap<>();
            runs.forEach((mode, run) -> timelines.put(mode.reportName(), run.timeline()));
            return ScenarioCharts.dynamic(dir, timelines);
        }
    }
}
