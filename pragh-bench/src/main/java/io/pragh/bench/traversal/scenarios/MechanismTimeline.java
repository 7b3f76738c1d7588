package io.pragh.bench.traversal.scenarios;

import io.pragh.bench.charts.ScenarioCharts;
import io.pragh.bench.traversal.Mode;
import io.pragh.bench.traversal.ModeResult;
import io.pragh.bench.traversal.ModeSession;
import io.pragh.bench.traversal.TimelineSampler;
import io.pragh.bench.traversal.TraversalConfig;
import io.pragh.bench.traversal.TraversalRunner;
import io.pragh.bench.workload.AdjacencyGraph;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * {@code ./pragh bench mechanisms} (paper Fig. 14): the throughput timeline of eager and deferred migration, one
 * run per mechanism on a fresh cluster of the same graph, sampled every tick through warm-up, every monitoring
 * interval and its migration, and the measurement. Both run the same number of intervals (default 2), so eager's
 * second migration and deferred's decided one line up.
 *
 * <pre>{@code
 * ./pragh bench mechanisms --machines 4 --scale 14 --interval 3 --tick 0.5 --charts target/charts
 * }</pre>
 */
public final class MechanismTimeline implements Scenario {
    static final List<String> MECHANISMS = List.of("eager", "deferred");

    @Override
    public String name() {
        return "mechanisms";
    }

    @Override
    public String usage() {
        return String.join("\n",
            "usage: ./pragh bench mechanisms [flags]   (paper Fig. 14: eager vs deferred throughput timeline)",
            "  --mechanisms LIST       comma-separated of eager,deferred (default both), one run each",
            "  --tick SECONDS          timeline sample period (default 0.5)",
            "  --modes MODE            split or split-cache (default split-cache), one mode",
            "  --intervals N           default here: 2 for both mechanisms");
    }

    @Override
    public Map<String, String> ownFlags() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("--mechanisms", "eager,deferred");
        m.put("--tick", "0.5");
        return m;
    }

    @Override
    public List<String> changedDefaults() {
        return List.of("--modes", "split-cache", "--intervals", "2");
    }

    @Override
    public Map<String, String> refusedFlags() {
        return Map.of("--mechanism", "every mechanism of --mechanisms runs in turn");
    }

    @Override
    public Result run(ScenarioArgs args, Supplier<AdjacencyGraph> graphs, PrintStream out) throws Exception {
        List<String> mechanisms = args.names("--mechanisms", MECHANISMS);
        double tick = args.decimal("--tick", 0.01);
        List<Mode> modes = args.config().modes();
        if (modes.size() != 1 || !(modes.get(0) == Mode.SPLIT || modes.get(0) == Mode.SPLIT_CACHE)) {
            throw new IllegalArgumentException("--modes must be one of split, split-cache here, got "
                + modes.stream().map(Mode::reportName).toList());
        }
        AdjacencyGraph graph = graphs.get();
        Map<String, Run> runs = new LinkedHashMap<>();
        for (String mechanism : mechanisms) {
            TraversalConfig c = args.configWith("--mechanism", mechanism);
            out.println("== mechanism " + mechanism);
            try (ModeSession s = new TraversalRunner(c, graph, out).open(modes.get(0))) {
                TimelineSampler timeline = s.startTimeline(tick);
                ModeResult r = s.runPhases().result();
                timeline.stop();
                runs.put(mechanism, new Run(r, timeline));
            }
        }
        return new TimelineResult(args, runs);
    }

    /** One mechanism's run. */
    record Run(ModeResult result, TimelineSampler timeline) {
    }

    /** Every mechanism's run. */
    record TimelineResult(ScenarioArgs args, Map<String, Run> runs) implements Result {
        @Override
        public Map<String, Object> asMap() {
            Map<String, Object> mechanisms = new LinkedHashMap<>();
            runs.forEach((name, run) -> {
                Map<String, Object> o = new LinkedHashMap<>(run.timeline().asMap());
                o.put("result", run.result().asMap());
                mechanisms.put(name, o);
            });
            return args.report("mechanisms", mechanisms);
        }

        @Override
        public void print(PrintStream out) {
            out.printf("%-10s %-24s %9s %12s %9s%n", "mechanism", "phase", "ends at s", "mean q/s", "remote %");
            runs.forEach((name, run) -> run.timeline().meanByPhase().forEach((phase, p) ->
                out.printf(Locale.ROOT, "%-10s %-24s %9.1f %12.0f %9.2f%n", name, phase, p.seconds(),
                    p.throughputQps(), 100 * p.remoteAccessRate())));
            runs.forEach((name, run) -> out.printf(Locale.ROOT, "%s: measured %.0f q/s, %d values migrated%n", name,
                run.result().throughputQps(), run.result().migratedKeys()));
        }

        @Override
        public List<Path> writeCharts(Path dir) {
            Map<String, TimelineSampler> timelines = new LinkedHashMap<>();
            runs.forEach((name, run) -> timelines.put(name, run.timeline()));
            return ScenarioCharts.mechanisms(dir, timelines, args.config().intervalSeconds());
        }
    }
}
