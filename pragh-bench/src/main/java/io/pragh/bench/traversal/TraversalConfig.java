package io.pragh.bench.traversal;

import io.pragh.bench.shard.ShardPlan;
import io.pragh.coordinator.Mechanism;
import io.pragh.fabric.FabricKind;
import io.pragh.fabric.inprocess.InProcessFabric;
import io.pragh.bench.workload.RmatGenerator;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Every flag of {@code ./pragh bench traversal}, parsed and checked. Unknown flags and bad values are refused with
 * a message naming the flag.
 *
 * <pre>{@code
 * TraversalConfig c = TraversalConfig.parse("--machines", "4", "--scale", "12", "--duration", "5");
 * }</pre>
 *
 * @param machines        machines of the cluster (ideal uses one)
 * @param scale           RMAT scale: 2^scale vertices, 16 x 2^scale edges
 * @param scope           start vertices the queries draw from (the first vertices with edges, by id)
 * @param fanout          neighbours read per vertex and hop
 * @param getRatio        share of queries that are two-hop GETs; the rest insert an edge
 * @param dist            start-vertex distribution: zipf or uniform
 * @param modes           modes to run, each on a fresh cluster of the same graph
 * @param durationSeconds measurement phase length
 * @param warmupSeconds   warm-up phase length
 * @param intervalSeconds monitoring interval length (the paper's is 10 s)
 * @param intervals       monitoring intervals (each followed by its migrations) before the measurement
 * @param remoteLatencyNs emulated latency of a remote one-sided operation
 * @param threads         query threads (the same for every mode)
 * @param seed            seed of the graph and of every query thread
 * @param mechanism       coordinator mechanism: eager or deferred
 * @param cacheMb         location cache per machine in split-cache, MiB
 * @param json            JSON report file, or null
 * @param charts          chart directory, or null
 * @param batchedGets     each hop's GETs as one batch (true) or one at a time (false, the paper's engine)
 * @param minRate         accesses/s from one machine a key needs to be reported and approved (the monitor's report
 *                        rate and the coordinator's minimum rate); 0 for none, the core's relative policy
 * @param fabric          {@value #INPROCESS} (an embedded cluster on one in-process fabric, emulated latency) or
 *                        {@value #TCP} (a cluster of server processes on 127.0.0.1 per mode, as {@code ./pragh cluster
 *                        start} makes, over the TCP fabric with its real loopback latency)
 * @param clusterDir      with {@value #TCP}: the directory the modes' clusters live in (one subdirectory each, kept
 *                        with their logs), or null for a temporary directory removed at the end
 * @param liveControl     split modes: the control plane keeps running through the measurement (intervals end every
 *                        {@code intervalSeconds}, instant reports are acted on, replicas offered) instead of stopping
 *                        after the monitoring intervals before it (the default: a running system's control plane
 *                        keeps up with the edge inserts' new neighbours; stopped, they are read remotely)
 * @param shardPlan       the plan the shard mode moves by (balanced: the paper's, every machine keeps its shards)
 * @param historyKeys     about how many keys of the scope's two-hop reads have their GETs and edge inserts recorded
 *                        (chosen by key hash) and checked for linearizability after each mode; 0 records none
 */
public record TraversalConfig(int machines, int scale, int scope, int fanout, double getRatio, String dist,
                              List<Mode> modes, double durationSeconds, double warmupSeconds, double intervalSeconds,
                              int intervals, long remoteLatencyNs, int threads, long seed, Mechanism mechanism, int cacheMb,
                              Path json, Path charts, boolean batchedGets, String fabric, double minRate,
                              Path clusterDir, boolean liveControl, ShardPlan shardPlan, int historyKeys) {
    public static final String INPROCESS = "inprocess";
    public static final String TCP = "tcp";
    /** Keys whose history is recorded by default. */
    public static final int DEFAULT_HISTORY_KEYS = 1024;

    public static final String USAGE = String.join("\n",
        "usage: ./pragh bench traversal [flags]",
        "  --machines N            machines of the cluster (default 8; ideal uses 1)",
        "  --scale S               RMAT scale: 2^S vertices, 16 x 2^S edges (default 16)",
        "  --scope N               start vertices queries draw from (default 1024)",
        "  --fanout N              neighbours read per vertex per hop (default 100)",
        "  --get-ratio R           share of two-hop GETs, rest are edge PUTs (default 0.95; 0.5 for the update-heavy mix)",
        "  --dist zipf|uniform     start-vertex distribution (default zipf, theta 0.99)",
        "  --modes LIST            comma-separated of orig,ideal,shard,split,split-cache (default all five), and",
        "                          split-cache-replica (split-cache plus read replicas, docs/replicas.md)",
        "  --duration SECONDS      measurement phase (default 10)",
        "  --warmup SECONDS        warm-up phase (default 2)",
        "  --interval SECONDS      monitoring interval before migration (default 2; the paper's is 10)",
        "  --intervals N           monitoring intervals, each followed by its migrations (default 1 eager, 2 deferred)",
        "  --remote-latency-ns NS  emulated remote one-sided latency of the in-process fabric (default "
            + InProcessFabric.DEFAULT_REMOTE_LATENCY_NS + ")",
        "  --fabric inprocess|tcp  an embedded cluster on one in-process fabric (default; 'in-process' too), or per mode",
        "                          a cluster of server processes on 127.0.0.1 as './pragh cluster start' makes, over the",
        "                          TCP fabric with the real loopback latency; queries reach the machines over the client",
        "                          RPC",
        "  --cluster-dir DIR       with --fabric tcp: keep each mode's cluster (config, data, server logs) in DIR/MODE",
        "                          (DIR/MODE-2, -3 ... when taken; default: a temporary directory, removed at the end)",
        "  --threads N             query threads, the same in every mode (default: available processors)",
        "  --seed N                seed of the graph and the queries (default 42)",
        "  --gets one|batch        a hop's GETs one at a time, each waited for, as the paper's engine reads (default one),",
        "                          or as one batch (two round trips a hop, as the Gremlin provider reads)",
        "  --mechanism eager|deferred  coordinator mechanism (default eager)",
        "  --cache-mb N            location cache per machine in split-cache, MiB (default 128)",
        "  --min-rate R            accesses/s from one machine a key needs to be reported and approved for migration:",
        "                          the paper's absolute threshold, an override (default 0: none; the core's relative",
        "                          policy reports keys read at least twice an interval and holding 2^-21 of the",
        "                          machine's remote reads, approves the hottest first up to a budget per machine, and",
        "                          reports a key at once past ten times that threshold's rate, at most 100/s, so the",
        "                          same defaults work at any throughput; with R the instant rate is the paper's 100/s)",
        "  --shard-plan P          shard mode's plan: balanced (default; the paper's: the most local accesses with",
        "                          every machine keeping its 100 shards) or unbounded (each shard to its busiest reader)",
        "  --control live|frozen   split modes: live (default) keeps the control plane running through the",
        "                          measurement as a running system does: intervals end every --interval, instant",
        "                          reports are acted on (in-process), replicas are offered again each interval; frozen",
        "                          migrates (and offers replicas) only in the monitoring intervals before the",
        "                          measurement, so the edge inserts' new neighbours stay remote through it",
        "  --history-keys N        record the history of about N keys of the scope's two-hop reads, chosen by key hash",
        "                          (every GET with the value the query read, every edge insert, from the load through",
        "                          the measurement) and check it for per-key linearizability after each mode (default",
        "                          " + DEFAULT_HISTORY_KEYS + "; 0: none; in-process only). A violation exits 1 and prints the",
        "                          key's history; a key the search could not decide exits 3",
        "  --json FILE             write the results as JSON",
        "  --charts DIR            write PNG charts (throughput, latency, remote access rate; the paper's beside)");

    public TraversalConfig {
        check(machines >= 1 && machines <= 128, "--machines", machines, "1..128");
        check(scale >= 1 && scale <= RmatGenerator.MAX_SCALE, "--scale", scale, "1.." + RmatGenerator.MAX_SCALE);
        check(scope >= 1, "--scope", scope, ">= 1");
        check(fanout >= 1, "--fanout", fanout, ">= 1");
        check(getRatio >= 0 && getRatio <= 1, "--get-ratio", getRatio, "0..1");
        check(dist.equals("zipf") || dist.equals("uniform"), "--dist", dist, "zipf or uniform");
        check(!modes.isEmpty(), "--modes", modes, "at least one mode");
        check(durationSeconds > 0, "--duration", durationSeconds, "> 0");
        check(warmupSeconds >= 0, "--warmup", warmupSeconds, ">= 0");
        check(intervalSeconds > 0, "--interval", intervalSeconds, "> 0");
        check(intervals >= 1, "--intervals", intervals, ">= 1");
        check(remoteLatencyNs >= 0, "--remote-latency-ns", remoteLatencyNs, ">= 0");
        check(threads >= 1, "--threads", threads, ">= 1");
        check(cacheMb >= 1 && cacheMb <= 1024, "--cache-mb", cacheMb, "1..1024");
        check(minRate >= 0, "--min-rate", minRate, ">= 0 (0: the relative policy)");
        check(INPROCESS.equals(fabric) || TCP.equals(fabric), "--fabric", fabric, INPROCESS + " or " + TCP);
        check(historyKeys >= 0, "--history-keys", historyKeys, ">= 0 (0: no history)");
        modes = List.copyOf(modes);
    }

    private static void check(boolean ok, String flag, Object value, String allowed) {
        if (!ok) {
            throw new IllegalArgumentException(flag + " " + value + " is invalid: must be " + allowed);
        }
    }

    /** The phases every mode runs, with this many query threads. */
    public Phases phases() {
        return new Phases(warmupSeconds, durationSeconds, intervalSeconds, intervals, threads);
    }

    public static TraversalConfig defaults() {
        return parse();
    }

    public static TraversalConfig parse(String... args) {
        Map<String, String> v = new LinkedHashMap<>();
        v.put("--machines", "8");
        v.put("--scale", "16");
        v.put("--scope", "1024");
        v.put("--fanout", "100");
        v.put("--get-ratio", "0.95");
        v.put("--dist", "zipf");
        v.put("--modes", "orig,ideal,shard,split,split-cache");
        v.put("--duration", "10");
        v.put("--warmup", "2");
        v.put("--interval", "2");
        v.put("--intervals", null);
        v.put("--remote-latency-ns", Long.toString(InProcessFabric.DEFAULT_REMOTE_LATENCY_NS));
        v.put("--threads", Integer.toString(Runtime.getRuntime().availableProcessors()));
        v.put("--seed", "42");
        v.put("--mechanism", "eager");
        v.put("--cache-mb", "128");
        v.put("--min-rate", "0");
        v.put("--json", null);
        v.put("--charts", null);
        v.put("--gets", "one");
        v.put("--fabric", INPROCESS);
        v.put("--cluster-dir", null);
        v.put("--control", "live");
        v.put("--shard-plan", "balanced");
        v.put("--history-keys", Integer.toString(DEFAULT_HISTORY_KEYS));
        Flags.read(v, args, USAGE);
        v.put("--fabric", fabricFlags(v, args));
        List<Mode> modes = Flags.modes(v.get("--modes"));
        String mechanism = v.get("--mechanism");
        if (!mechanism.equals("eager") && !mechanism.equals("deferred")) {
            throw new IllegalArgumentException("--mechanism " + mechanism + " is invalid: must be eager or deferred");
        }
        String control = v.get("--control");
        if (!control.equals("frozen") && !control.equals("live")) {
            throw new IllegalArgumentException("--control " + control + " is invalid: must be frozen or live");
        }
        String gets = v.get("--gets");
        if (!gets.equals("one") && !gets.equals("batch")) {
            throw new IllegalArgumentException("--gets " + gets + " is invalid: must be one or batch");
        }
        return new TraversalConfig(Flags.integer(v, "--machines"), Flags.integer(v, "--scale"),
            Flags.integer(v, "--scope"), Flags.integer(v, "--fanout"), Flags.decimal(v, "--get-ratio"), v.get("--dist"),
            modes, Flags.decimal(v, "--duration"), Flags.decimal(v, "--warmup"), Flags.decimal(v, "--interval"),
            v.get("--intervals") != null ? Flags.integer(v, "--intervals") : mechanism.equals("deferred") ? 2 : 1,
            Flags.whole(v, "--remote-latency-ns"),
            Flags.integer(v, "--threads"), Flags.whole(v, "--seed"),
            Mechanism.valueOf(mechanism.toUpperCase(Locale.ROOT)), Flags.integer(v, "--cache-mb"),
            Flags.path(v, "--json"), Flags.path(v, "--charts"), gets.equals("batch"), v.get("--fabric"),
            Flags.decimal(v, "--min-rate"), Flags.path(v, "--cluster-dir"), control.equals("live"),
            ShardPlan.parse(v.get("--shard-plan")), Flags.integer(v, "--history-keys"));
    }

    /**
     * {@code --fabric} as {@link #fabricFlag} reads it, checked with the flags that go with one fabric only
     * ({@code --cluster-dir} with {@value #TCP}, {@code --remote-latency-ns} with {@value #INPROCESS}): for every
     * benchmark that runs on either (this one, {@code bench rdf}).
     */
    public static String fabricFlags(Map<String, String> v, String[] args) {
        String fabric = fabricFlag(v.get("--fabric"));
        if (!TCP.equals(fabric) && v.get("--cluster-dir") != null) {
            throw new IllegalArgumentException("--cluster-dir applies to --fabric " + TCP + " only: the in-process"
                + " fabric's clusters live in this JVM");
        }
        if (TCP.equals(fabric) && List.of(args).contains("--remote-latency-ns")) {
            throw new IllegalArgumentException("--remote-latency-ns applies to --fabric " + INPROCESS + " only: over "
                + TCP + " the latency is the real loopback one");
        }
        return fabric;
    }

    /**
     * {@code --fabric} read as the one {@link FabricKind} (its label {@code in-process}, or {@value #INPROCESS} as
     * this flag always spelled it), returned as this record spells it. The kinds a benchmark cannot run are refused
     * saying which it can: its embedded clusters open the in-process fabric and its server processes the fabric
     * their cluster file names, both through {@code FabricProviders}.
     */
    private static String fabricFlag(String text) {
        FabricKind kind;
        try {
            kind = FabricKind.parse(INPROCESS.equalsIgnoreCase(text.strip()) ? FabricKind.IN_PROCESS.label() : text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--fabric " + text + " is invalid: " + e.getMessage());
        }
        return switch (kind) {
            case IN_PROCESS -> INPROCESS;
            case TCP -> TCP;
            default -> throw new IllegalArgumentException("--fabric " + kind + " is invalid: the benchmark runs on "
                + INPROCESS + " (an embedded cluster in this JVM) or " + TCP + " (a cluster of server processes per"
                + " mode)");
        };
    }

    /** Every flag and its value, by flag name without dashes, for the JSON report. */
    public Map<String, Object> asMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("machines", machines);
        m.put("scale", scale);
        m.put("scope", scope);
        m.put("fanout", fanout);
        m.put("get_ratio", getRatio);
        m.put("dist", dist);
        m.put("modes", modes.stream().map(Mode::reportName).toList());
        m.put("duration", durationSeconds);
        m.put("warmup", warmupSeconds);
        m.put("interval", intervalSeconds);
        m.put("intervals", intervals);
        // Over tcp no latency is emulated: the figure would be a lie, so it is null and the note says why.
        m.put("remote_latency_ns", tcp() ? null : remoteLatencyNs);
        m.put("remote_latency", tcp() ? "real loopback TCP" : "emulated");
        m.put("threads", threads);
        m.put("seed", seed);
        m.put("mechanism", mechanism.name().toLowerCase(Locale.ROOT));
        m.put("cache_mb", cacheMb);
        m.put("min_rate", minRate);
        m.put("json", json == null ? null : json.toString());
        m.put("charts", charts == null ? null : charts.toString());
        m.put("gets", batchedGets ? "batch" : "one");
        m.put("fabric", fabric);
        m.put("cluster_dir", clusterDir == null ? null : clusterDir.toString());
        m.put("control", liveControl ? "live" : "frozen");
        m.put("history_keys", historyKeys);
        return m;
    }

    /** One line for the run's header: which fabric, and whether its remote latency is emulated or real. */
    public String fabricDescription() {
        return tcp() ? "fabric: tcp, a cluster of server processes on 127.0.0.1 per mode; remote latency: real loopback"
            + " TCP (--remote-latency-ns applies to the in-process fabric only)"
            : "fabric: in-process; remote latency: emulated, " + remoteLatencyNs + " ns per one-sided operation";
    }

    /** Whether every mode runs on a cluster of server processes over the TCP fabric. */
    public boolean tcp() {
        return TCP.equals(fabric);
    }
}
