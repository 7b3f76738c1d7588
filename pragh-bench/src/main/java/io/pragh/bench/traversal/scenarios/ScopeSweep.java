package io.pragh.bench.traversal.scenarios;

import io.pragh.bench.charts.ScenarioCharts;
import io.pragh.bench.traversal.Mode;
import io.pragh.bench.traversal.ModeResult;
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
 * {@code ./pragh bench scope-sweep} (paper Fig. 11): the traversal benchmark's modes at growing scopes of start
 * vertices, 2^10 to 2^16 by default, each mode on a fresh cluster of the same graph at every scope.
 *
 * <pre>{@code
 * ./pragh bench scope-sweep --machines 4 --scale 16 --scopes 10,12,14,16 --modes orig,split-cache
 * }</pre>
 */
public final class ScopeSweep implements Scenario {
    /** Flags that say what a run reports or where, not what it measures. */
    private static final List<String> NOT_MEASURED = List.of("modes", "json", "charts");

    private final TraversalConfig measuredConfig;
    private final Map<Mode, ModeResult> measured;

    /** A sweep that runs every mode at every scope. */
    public ScopeSweep() {
        this(null, Map.of());
    }

    /**
     * A sweep that takes the rows of {@code measured}, run with {@code measuredConfig}, instead of running those
     * modes again at a scope whose flags are the same (the modes run apart from the output flags): {@code bench
     * paper}'s Fig. 10 ran them at the paper's scope already, each on a fresh cluster, as the sweep would.
     */
    public ScopeSweep(TraversalConfig measuredConfig, Map<Mode, ModeResult> measured) {
        this.measuredConfig = measuredConfig;
        this.measured = Map.copyOf(measured);
    }

    private boolean sameRun(TraversalConfig c) {
        if (measuredConfig == null) {
            return false;
        }
        Map<String, Object> a = new LinkedHashMap<>(c.asMap());
        Map<String, Object> b = new LinkedHashMap<>(measuredConfig.asMap());
        NOT_MEASURED.forEach(k -> {
            a.remove(k);
            b.remove(k);
        });
        return a.equals(b);
    }

    @Override
    public String name() {
        return "scope-sweep";
    }

    @Override
    public String usage() {
        return String.join("\n",
            "usage: ./pragh bench scope-sweep [flags]   (paper Fig. 11: throughput and remote access rate per scope)",
            "  --scopes LIST           scopes as powers of two, comma-separated exponents (default 10,12,14,16);",
            "                          a scope must not exceed the graph's vertices with edges (scale 16 has",
            "                          ~47K, scale 17 ~90K)",
            "  --modes LIST            default here: orig,split-cache");
    }

    @Override
    public Map<String, String> ownFlags() {
        return Map.of("--scopes", "10,12,14,16");
    }

    @Override
    public List<String> changedDefaults() {
        return List.of("--modes", "orig,split-cache");
    }

    @Override
    public Map<String, String> refusedFlags() {
        return Map.of("--scope", "the sweep sets the scope; give the exponents with --scopes");
    }

    @Override
    public Result run(ScenarioArgs args, Supplier<AdjacencyGraph> graphs, PrintStream out) throws Exception {
        List<Integer> exponents = args.integers("--scopes", 0, 30);
        AdjacencyGraph graph = graphs.get();
        int available = graph.verticesWithEdges().length;
        out.printf(Locale.ROOT, "%d vertices with edges: scopes up to 2^%d fit%n", available,
            31 - Integer.numberOfLeadingZeros(available));
        for (int e : exponents) {
            if ((1 << e) > available) {
                throw new IllegalArgumentException("--scopes " + e + ": 2^" + e + " = " + (1 << e) + " exceeds the "
                    + available + " vertices with edges at scale " + args.config().scale());
            }
        }
        Map<Integer, Map<Mode, ModeResult>> results = new LinkedHashMap<>();
        Map<Integer, Double> floors = new LinkedHashMap<>();
        for (int e : exponents) {
            TraversalConfig c = args.configWith("--scope", Integer.toString(1 << e));
            TraversalRunner runner = new TraversalRunner(c, graph, out);
            floors.put(1 << e, runner.remoteRateFloor());
            out.printf(Locale.ROOT, "== scope 2^%d = %d start vertices (lowest remote rate any placement allows: "
                + "%.2f%%)%n", e, 1 << e, 100 * floors.get(1 << e));
            Map<Mode, ModeResult> row = new LinkedHashMap<>();
            boolean same = sameRun(c);
            for (Mode m : c.modes()) {
                if (same && measured.containsKey(m)) {
                    out.printf(Locale.ROOT, "[%s] measured already at this scope with the same flags: reused%n",
                        m.reportName());
                    row.put(m, measured.get(m));
                } else {
                    row.put(m, runner.run(m));
                }
            }
            results.put(1 << e, row);
        }
        return new SweepResult(args, results, floors);
    }

    /** Every mode's row at every scope, and each scope's single-copy floor ({@code LocalityBound}). */
    record SweepResult(ScenarioArgs args, Map<Integer, Map<Mode, ModeResult>> byScope,
                       Map<Integer, Double> floors) implements Result {
        @Override
        public Map<String, Object> asMap() {
            Map<String, Object> scopes = new LinkedHashMap<>();
            byScope.forEach((scope, row) -> {
                Map<String, Object> modes = new LinkedHashMap<>();
                row.forEach((mode, r) -> modes.put(mode.reportName(), r.asMap()));
                scopes.put(Integer.toString(scope), modes);
            });
            Map<String, Object> root = args.report("scopes", scopes);
            Map<String, Object> floorByScope = new LinkedHashMap<>();
            floors.forEach((scope, f) -> floorByScope.put(Integer.toString(scope), f));
            root.put("single_copy_floor", floorByScope);
            return root;
        }

        @Override
        public void print(PrintStream out) {
            out.printf("%-8s %-12s %12s %8s %9s %9s %9s%n", "scope", "mode", "q/s", "x orig", "p50 ms", "p99 ms",
                "remote %");
            byScope.forEach((scope, row) -> {
                ModeResult orig = row.get(Mode.ORIG);
                row.forEach((mode, r) -> out.printf(Locale.ROOT, "%-8d %-12s %12.0f %8s %9.3f %9.3f %9.2f%n", scope,
                    mode.reportName(), r.throughputQps(),
                    orig == null ? "-" : String.format(Locale.ROOT, "%.2f", r.throughputQps() / orig.throughputQps()),
                    r.p50Ms(), r.p99Ms(), 100 * r.remoteAccessRate()));
            });
        }

        @Override
        public List<Path> writeCharts(Path dir) {
            return ScenarioCharts.scopeSweep(dir, byScope, floors);
        }
    }
}
