package io.pragh.bench.rdf;

import io.pragh.bench.shard.ShardPlan;
import io.pragh.bench.traversal.Flags;
import io.pragh.bench.traversal.Mode;
import io.pragh.bench.traversal.Phases;
import io.pragh.bench.traversal.TraversalConfig;
import io.pragh.fabric.inprocess.InProcessFabric;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every flag of {@code ./pragh bench rdf}, parsed and checked; unknown flags and bad values are refused with a
 * message naming the flag.
 *
 * <pre>{@code
 * RdfBenchConfig c = RdfBenchConfig.parse("--universities", "2", "--machines", "8");
 * }</pre>
 *
 * @param universities    LUBM universities generated (LUBM-N)
 * @param machines        machines of the cluster (ideal uses one)
 * @param modes           modes to run, each on a fresh cluster loaded with the same file
 * @param phases          warm-up, monitoring, measurement and query threads of every mode
 * @param remoteLatencyNs emulated latency of a remote one-sided operation
 * @param cacheMb         location cache per machine in split-cache, MiB
 * @param seed            seed of the LUBM data and of every query thread
 * @param json            JSON report file
 * @param charts          chart directory
 * @param fabric          {@code inprocess} (an embedded cluster per mode) or {@code tcp} (server processes per mode,
 *                        as {@code bench traversal --fabric tcp}; queries go to the start vertex's home's /sparql)
 * @param clusterDir      with tcp: where each mode's cluster is kept (null: a temporary directory, removed after)
 * @param dataDir         where LUBM-N of each seed is generated once and kept for later runs
 * @param shardPlan       the plan the shard mode moves by (balanced: the paper's, every machine keeps its shards)
 */
public record RdfBenchConfig(int universities, int machines, List<Mode> modes, Phases phases, long remoteLatencyNs,
                             int cacheMb, long seed, Path json, Path charts, String fabric, Path clusterDir,
                             Path dataDir, ShardPlan shardPlan) {
    public static final String USAGE = String.join("\n",
        "usage: ./pragh bench rdf [flags]",
        "  --universities N        LUBM universities generated (default 1)",
        "  --machines N            machines of the cluster (default 8; ideal uses 1)",
        "  --modes LIST            comma-separated of orig,ideal,shard,split,split-cache (default all five)",
        "  --duration SECONDS      measurement phase (default 10)",
        "  --warmup SECONDS        warm-up phase (default 2)",
        "  --interval SECONDS      monitoring interval before migration (default 2)",
        "  --intervals N           monitoring intervals, each followed by its migrations (default 1)",
        "  --threads N             query threads, the same in every mode (default 2 per machine)",
        "  --remote-latency-ns NS  emulated remote one-sided latency (default "
            + InProcessFabric.DEFAULT_REMOTE_LATENCY_NS + "; in-process fabric only)",
        "  --fabric inprocess|tcp  an embedded cluster per mode (default), or per mode server processes on 127.0.0.1",
        "                          over the TCP fabric, loaded through a client port, each query sent to its start",
        "                          vertex's home's /sparql",
        "  --cluster-dir DIR       with --fabric tcp: keep each mode's cluster in DIR/MODE (default: temporary)",
        "  --cache-mb N            location cache per machine in split-cache, MiB (default 128)",
        "  --seed N                seed of the LUBM data and the queries (default 42)",
        "  --shard-plan P          shard mode's plan: balanced (default; the paper's: the most local accesses with",
        "                          every machine keeping its 100 shards) or unbounded (each shard to its busiest reader)",
        "  --data-dir DIR          where LUBM-N is generated once and kept, lubm-N-seed-S.nt, reused by later runs",
        "                          (default target/bench-rdf/data)",
        "  --json FILE             JSON report (default target/bench-rdf/rdf.json)",
        "  --charts DIR            PNG charts (default target/bench-rdf)");

    public RdfBenchConfig {
        check(universities >= 1, "--universities", universities, ">= 1");
        check(machines >= 1, "--machines", machines, ">= 1");
        check(!modes.isEmpty(), "--modes", modes, "at least one mode");
        check(!modes.contains(Mode.SPLIT_CACHE_REPLICA), "--modes", modes, "of the five paper modes (split-cache-replica"
            + " runs in bench traversal only)");
        check(remoteLatencyNs >= 0, "--remote-latency-ns", remoteLatencyNs, ">= 0");
        check(cacheMb >= 1 && cacheMb <= 1024, "--cache-mb", cacheMb, "1..1024");
        modes = List.copyOf(modes);
    }

    private static void check(boolean ok, String flag, Object value, String allowed) {
        if (!ok) {
            throw new IllegalArgumentException(flag + " " + value + " is invalid: must be " + allowed);
        }
    }

    public static RdfBenchConfig parse(String... args) {
        Map<String, String> v = new LinkedHashMap<>();
        v.put("--universities", "1");
        v.put("--machines", "8");
        v.put("--modes", "orig,ideal,shard,split,split-cache");
        v.put("--duration", "10");
        v.put("--warmup", "2");
        v.put("--interval", "2");
        v.put("--intervals", "1");
        v.put("--threads", null);
        v.put("--remote-latency-ns", Long.toString(InProcessFabric.DEFAULT_REMOTE_LATENCY_NS));
        v.put("--cache-mb", "128");
        v.put("--seed", "42");
        v.put("--json", "target/bench-rdf/rdf.json");
        v.put("--charts", "target/bench-rdf");
        v.put("--fabric", TraversalConfig.INPROCESS);
        v.put("--cluster-dir", null);
        v.put("--data-dir", "target/bench-rdf/data");
        v.put("--shard-plan", "balanced");
        Flags.read(v, args, USAGE);
        String fabric = TraversalConfig.fabricFlags(v, args);
        List<Mode> modes = Flags.modes(v.get("--modes"));
        int machines = Flags.integer(v, "--machines");
        int threads = v.get("--threads") == null ? 2 * Math.max(1, machines) : Flags.integer(v, "--threads");
        Phases phases;
        try {
            phases = new Phases(Flags.decimal(v, "--warmup"), Flags.decimal(v, "--duration"),
                Flags.decimal(v, "--interval"), Flags.integer(v, "--intervals"), threads);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--warmup, --duration, --interval, --intervals or --threads: "
                + e.getMessage(), e);
        }
        return new RdfBenchConfig(Flags.integer(v, "--universities"), machines, modes, phases,
            Flags.whole(v, "--remote-latency-ns"), Flags.integer(v, "--cache-mb"), Flags.whole(v, "--seed"),
            Path.of(v.get("--json")), Path.of(v.get("--charts")), fabric, Flags.path(v, "--cluster-dir"),
            Path.of(v.get("--data-dir")), ShardPlan.parse(v.get("--shard-plan")));
    }

    /** The LUBM file of these universities and seed in {@link #dataDir}, generated by the first run that needs it. */
    public Path lubmFile() {
        return dataDir.resolve("lubm-" + universities + "-seed-" + seed + ".nt");
    }

    /** Whether each mode runs on server processes over the TCP fabric. */
    public boolean tcp() {
        return TraversalConfig.TCP.equals(fabric);
    }

    /** Every setting, for the report's {@code config} object. */
    public Map<String, Object> asMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("universities", universities);
        m.put("machines", machines);
        m.put("modes", modes.stream().map(Mode::reportName).toList());
        m.put("duration_s", phases.durationSeconds());
        m.put("warmup_s", phases.warmupSeconds());
        m.put("interval_s", phases.intervalSeconds());
        m.put("intervals", phases.intervals());
        m.put("threads", phases.threads());
        m.put("fabric", fabric);
        m.put("remote_latency_ns", tcp() ? null : remoteLatencyNs);
        m.put("cache_mb", cacheMb);
        m.put("seed", seed);
        m.put("shard_plan", shardPlan.name().toLowerCase(java.util.Locale.ROOT));
        m.put("dist", "zipf 0.99");
        m.put("query_classes", LubmMix.CLASSES.stream().map(LubmMix.QueryClass::name).toList());
        return m;
    }
}
