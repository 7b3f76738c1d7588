package io.pragh.bench.paper;

import io.pragh.bench.traversal.Flags;
import io.pragh.bench.workload.RmatGenerator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The flags of {@code ./pragh bench paper}: where the figures go, the graph and the cluster every figure shares, and
 * how long each measured phase lasts (warm-up and monitoring interval follow from it). Every other setting is the
 * paper's (scope 2^10, fanout 100, Zipf 0.99, 95/5 mix) or its figure's own (the 50/50 mix of Fig. 12).
 *
 * <pre>{@code
 * PaperConfig c = PaperConfig.parse("--out", "target/paper", "--scale", "12", "--machines", "4");
 * }</pre>
 *
 * @param out             directory of the figures' JSON and PNG files (created)
 * @param scale           RMAT scale of the traversal figures' graph
 * @param machines        machines of every cluster (ideal uses one)
 * @param durationSeconds each measured phase (a mode's measurement, a dynamic window)
 * @param universities    LUBM universities of Fig. 16
 * @param seed            seed of the graphs and the queries
 */
public record PaperConfig(Path out, int scale, int machines, double durationSeconds, int universities, long seed) {
    public static final String USAGE = String.join("\n",
        "usage: ./pragh bench paper --out DIR [flags]   (the paper's section 6: Table 1, Figs. 10-16)",
        "  --out DIR               where each figure's JSON and PNG go (DIR/table1.json, DIR/fig10.png, ...; the",
        "                          charts each PNG is tiled from under DIR/parts/)",
        "  --scale S               RMAT scale of the traversal figures (default 14: 16K vertices, ~250K edges)",
        "  --machines N            machines of every cluster (default 8; ideal uses 1)",
        "  --duration SECONDS      each measured phase: a mode's measurement, a dynamic window, Fig. 13's JMH",
        "                          iteration (default 5); warm-up is a fifth of it (at most 2 s), the monitoring",
        "                          interval half of it (0.5 to 2 s). 0.3 makes a smoke run of every figure",
        "  --universities N        LUBM universities of Fig. 16 (default 1)",
        "  --seed N                seed of the graphs and the queries (default 42)");

    public PaperConfig {
        if (out == null) {
            throw new IllegalArgumentException("--out DIR is required\n" + USAGE);
        }
        check(scale >= 6 && scale <= RmatGenerator.MAX_SCALE, "--scale", scale, "6.." + RmatGenerator.MAX_SCALE);
        check(machines >= 1 && machines <= 128, "--machines", machines, "1..128");
        check(durationSeconds > 0, "--duration", durationSeconds, "> 0");
        check(universities >= 1, "--universities", universities, ">= 1");
    }

    private static void check(boolean ok, String flag, Object value, String allowed) {
        if (!ok) {
            throw new IllegalArgumentException(flag + " " + value + " is invalid: must be " + allowed);
        }
    }

    public static PaperConfig parse(String... args) {
        Map<String, String> v = new LinkedHashMap<>();
        v.put("--out", null);
        v.put("--scale", "14");
        v.put("--machines", "8");
        v.put("--duration", "5");
        v.put("--universities", "1");
        v.put("--seed", "42");
        Flags.read(v, args, USAGE);
        return new PaperConfig(Flags.path(v, "--out"), Flags.integer(v, "--scale"), Flags.integer(v, "--machines"),
            Flags.decimal(v, "--duration"), Flags.integer(v, "--universities"), Flags.whole(v, "--seed"));
    }

    /** Warm-up before every measurement: a fifth of the measured phase, at most 2 s (the traversal default). */
    public double warmupSeconds() {
        return Math.min(2, durationSeconds / 5);
    }

    /** Monitoring interval: half the measured phase, within 0.5..2 s (the paper's is 10 s at 20x our rates). */
    public double intervalSeconds() {
        return Math.max(0.5, Math.min(2, durationSeconds / 2));
    }

    /**
     * The traversal flags every figure shares, then {@code more} (a figure's own), as {@code ./pragh bench
     * traversal} and the scenarios read them.
     */
    public String[] traversalArgs(String... more) {
        List<String> a = new ArrayList<>(List.of("--machines", Integer.toString(machines), "--scale",
            Integer.toString(scale), "--duration", Double.toString(durationSeconds), "--warmup",
            Double.toString(warmupSeconds()), "--interval", Double.toString(intervalSeconds()), "--seed",
            Long.toString(seed)));
        a.addAll(List.of(more));
        return a.toArray(String[]::new);
    }

    /** The command line that reproduces this run, for each figure's JSON. */
    public String command() {
        return "./pragh bench paper --out " + out + " --scale " + scale + " --machines " + machines + " --duration "
            + durationSeconds + " --universities " + universities + " --seed " + seed;
    }

    public Map<String, Object> asMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("out", out.toString());
        m.put("scale", scale);
        m.put("machines", machines);
        m.put("duration_s", durationSeconds);
        m.put("warmup_s", warmupSeconds());
        m.put("interval_s", intervalSeconds());
        m.put("universities", universities);
        m.put("seed", seed);
        return m;
    }
}
