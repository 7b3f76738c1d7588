package io.pragh.bench.rdf;

import io.pragh.bench.traversal.Mode;
import io.pragh.bench.traversal.ModeResult;
import io.pragh.bench.traversal.ModeSession;
import io.pragh.bench.traversal.deploy.ClusterSpec;
import io.pragh.bench.traversal.deploy.EmbeddedBenchCluster;
import io.pragh.bench.traversal.deploy.ProcessBenchCluster;
import io.pragh.gremlin.distributed.ClientPortGraphStore;
import io.pragh.gremlin.load.EdgeBulkLoad;
import io.pragh.gremlin.structure.GraphStore;
import io.pragh.server.cli.FreePorts;
import io.pragh.server.config.ClusterConfig;
import io.pragh.server.rpc.MachineClient;
import io.pragh.bench.shard.ShardPlacement;
import io.pragh.bench.shard.ShardPlan;
import io.pragh.coordinator.Mechanism;
import io.pragh.embedded.EmbeddedCluster;
import io.pragh.gremlin.structure.EmbeddedGraphStore;
import io.pragh.rdf.load.RdfLoad;
import io.pragh.rdf.load.TripleCollector;
import io.pragh.rdf.store.RdfStore;
import io.pragh.store.StoreConfig;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.atomic.LongAdder;
import org.apache.jena.riot.Lang;

/**
 * Runs the Fig. 16 benchmark for one mode on a fresh cluster: the LUBM file loaded into an embedded cluster set up as
 * the traversal benchmark sets up that mode ({@link EmbeddedBenchCluster}: hash or shard placement, a location cache
 * for split-cache), with a graph store over it for the RDF side, then the {@link LubmMix} through the traversal
 * benchmark's phases ({@link ModeSession}: warm-up, the mode's migration, measurement). Queries run on the workers
 * of their start vertex's home, two per machine; ideal's one machine gets as many workers as the others have in all.
 * With {@code --fabric tcp} the cluster is server processes instead ({@link #openProcesses}).
 *
 * <pre>{@code
 * RdfBenchRunner runner = new RdfBenchRunner(config, lubmFile, triples, System.out);
 * ModeResult r = runner.run(Mode.SPLIT_CACHE);
 * }</pre>
 */
public final class RdfBenchRunner {
    /** Workers per machine: the machine's query threads. */
    static final int WORKERS = 2;
    /** Value bytes an N-Triples triple takes at the most in the store (lists both ways, terms, buckets). */
    private static final long BYTES_PER_TRIPLE = 300;
    /** Keys a triple makes at the most: two list keys and two new terms (a TERM value and a bucket). */
    private static final long KEYS_PER_TRIPLE = 4;
    /**
     * Value bytes a parsed triple takes in the whole store, with room: 89-94 measured (docs/results/rdf-memory.md),
     * garbage a migration leaves until its reclaim lease ends on top.
     */
    private static final long PARSED_BYTES_PER_TRIPLE = 128;
    /** Value bytes a triple adds to the index vertex's home: its two index-list entries. */
    private static final long INDEX_BYTES_PER_TRIPLE = 16;
    /** How long one request of the load through a client port may take (a batch forwarded to every machine). */
    private static final int LOAD_TIMEOUT_MILLIS = 60_000;

    private final RdfBenchConfig config;
    private final Path file;
    private final long triples;
    private final PrintStream out;
    /** The file parsed once, written into every embedded mode's cluster (null until the first, and with tcp). */
    private TripleCollector parsed;
    private long parseNanos;
    private long storeKeys;
    /** rdf:type's label in the last embedded cluster loaded (the read census tells type lists apart by it). */
    private int typePredicate = -1;

    public RdfBenchRunner(RdfBenchConfig config, Path file, long triples, PrintStream out) {
        this.config = config;
        this.file = file;
        this.triples = triples;
        this.out = out;
    }

    /** Warm-up, the mode's migration, then the measurement, on a fresh cluster: one row of the report. */
    public ModeResult run(Mode mode) throws Exception {
        try (ModeSession s = open(mode)) {
            if (!RdfCensus.asked() || !(s.cluster() instanceof EmbeddedBenchCluster e)) {
                return s.runPhases().result();
            }
            // The diagnostic: the same phases, the measurement's reads counted per query class and kind of key.
            s.phase("warm-up", config.phases().warmupSeconds());
            ModeSession.Moved moved = s.migrate();
            RdfCensus census = RdfCensus.start(e.cluster(), typePredicate);
            ModeResult r;
            try {
                r = s.measure(moved).result();
            } finally {
                out.print("[" + mode.reportName() + "] " + census.stop());
            }
            return r;
        }
    }

    /** A fresh cluster for {@code mode}, the file loaded, the mix's query threads running; the caller closes it. */
    public ModeSession open(Mode mode) throws Exception {
        return config.tcp() ? openProcesses(mode) : openEmbedded(mode);
    }

    /**
     * Server processes for {@code mode} ({@link ProcessBenchCluster}, as {@code bench traversal --fabric tcp}), each
     * with its SPARQL endpoint on a run of free ports; the file loaded through machine 0's client port, and each
     * query sent to its start vertex's home ({@link SparqlAtHome}).
     */
    private ModeSession openProcesses(Mode mode) throws Exception {
        String tag = "[" + mode.reportName() + "]";
        ClusterSpec spec = spec(mode);
        int sparql = FreePorts.run(spec.machines(), new int[0]);
        ProcessBenchCluster cluster = ProcessBenchCluster.start(spec, config.clusterDir(), mode.reportName(), tag, out,
            s -> s.withSection("sparql", "{port: " + sparql + ", timeout: 120s}"));
        try {
            out.println(tag + " " + cluster.describe() + ", sparql ports " + sparql + "..");
            ClusterConfig c = cluster.config();
            try (GraphStore store = new ClientPortGraphStore(new MachineClient(c.machine(0).clientAddress(),
                LOAD_TIMEOUT_MILLIS, c.secret(), c.tls()))) {
                RdfStore rdf = new RdfStore(store);
                RdfLoad.Result loaded = RdfLoad.into(rdf).load(file, Lang.NTRIPLES);
                long keys = 0;
                for (int m = 0; m < spec.machines(); m++) {
                    try (MachineClient mc = new MachineClient(c.machine(m).clientAddress(), LOAD_TIMEOUT_MILLIS,
                        c.secret(), c.tls())) {
                        keys += mc.ping().homeKeys();
                    }
                }
                LubmMix mix = LubmMix.of(rdf, config.seed(), new SparqlAtHome(cluster, sparql));
                report(tag, loaded, keys, cluster.machineCount(), mix);
                // Each class once from its hottest start vertex: a server's first queries compile its SPARQL path
                // (seconds on a busy host), which would otherwise eat a short warm-up and leave it without a query.
                for (int q = 0; q < LubmMix.CLASSES.size(); q++) {
                    mix.rows(q, 0);
                }
                return new ModeSession(config.phases(), mode, cluster, keys, mix, null, out).shardPlan(config.shardPlan());
            }
        } catch (Exception | Error e) {
            cluster.close();
            throw e;
        }
    }

    private void report(String tag, RdfLoad.Result loaded, long keys, int machines, LubmMix mix) {
        out.printf(Locale.ROOT, "%s loaded %d triples (%d keys) on %d machine(s) in %.1f s%s; start vertices per"
                + " class %s%n", tag, loaded.triples(), keys, machines,
            (config.tcp() ? loaded.parseNanos() + loaded.writeNanos() : loaded.writeNanos()) / 1e9,
            config.tcp() ? "" : String.format(Locale.ROOT, " (the file parsed once, in %.1f s)", parseNanos / 1e9),
            Arrays.toString(mix.poolSizes()));
    }

    /**
     * The file parsed, on the first call only: every embedded mode writes the same parse into its fresh cluster, so a
     * run parses once rather than once a mode (the parse is most of a load: 90 of 133 s at LUBM-128).
     */
    private TripleCollector parsed() {
        if (parsed == null) {
            long start = System.nanoTime();
            parsed = RdfLoad.parse(file, Lang.NTRIPLES, EdgeBulkLoad.Progress.NONE);
            parseNanos = System.nanoTime() - start;
            storeKeys = parsed.storeKeys();
            out.printf(Locale.ROOT, "parsed %s once: %d triples, %d terms (%d store keys) in %.1f s%n",
                file.getFileName(), parsed.size(), parsed.termCount(), storeKeys, parseNanos / 1e9);
        }
        return parsed;
    }

    private ModeSession openEmbedded(Mode mode) throws Exception {
        String tag = "[" + mode.reportName() + "]";
        int workers = mode == Mode.IDEAL ? WORKERS * config.machines() : WORKERS;
        EmbeddedGraphStore[] store = new EmbeddedGraphStore[1];
        TripleCollector triples = parsed();
        // The bench cluster owns the machines and closes them; the graph store over them is the RDF side's way in.
        // Not pre-touched: shard's machines are sized for the whole file (below), address space that only the keys
        // and values a machine receives make resident; the load itself touches what the queries read, and each
        // location cache is pre-touched here so that split-cache's measurement takes no first-touch fault in it.
        EmbeddedBenchCluster cluster = EmbeddedBenchCluster.start(spec(mode),
            b -> (store[0] = EmbeddedGraphStore.build(b.workersPerMachine(workers).pretouch(false))).cluster());
        try {
            out.println(tag + " " + cluster.describe());
            for (int m = 0; m < cluster.machineCount(); m++) {
                cluster.cluster().machine(m).store().cache().pretouch();
            }
            RdfStore rdf = new RdfStore(store[0]);
            RdfLoad.Result loaded = RdfLoad.into(rdf).write(triples, parseNanos);
            typePredicate = rdf.predicate("<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>");
            long keys = keys(cluster.cluster());
            LubmMix mix = LubmMix.of(rdf, config.seed());
            report(tag, loaded, keys, cluster.machineCount(), mix);
            return new ModeSession(config.phases(), mode, cluster, keys, mix, null, out).shardPlan(config.shardPlan());
        } catch (Exception | Error e) {
            cluster.close();
            throw e;
        }
    }

    /**
     * The cluster of {@code mode}: one machine for ideal; shard placement for shard; a location cache for
     * split-cache. Embedded, sized from the parse: ideal's machine for the whole file, every shard machine for three
     * times its share (the whole file with the unbounded plan, which may send every shard to one machine), the
     * hashed modes' machines for twice their share (a split machine also receives the values it reads most), plus the
     * index vertex's lists. With tcp, every machine is
     * sized for the whole file from its line count.
     */
    ClusterSpec spec(Mode mode) {
        int machines = mode == Mode.IDEAL ? 1 : config.machines();
        long keys;
        long valueBytes;
        if (parsed == null) {
            keys = KEYS_PER_TRIPLE * triples + 1024;
            valueBytes = BYTES_PER_TRIPLE * triples;
        } else {
            // The keys the load will make (counted from the parse: about half the bound from the counts alone on
            // LUBM), with room for the index lists' segments and the uneven spread of hashing.
            long allKeys = storeKeys * 5 / 4 + 4096;
            long allValues = PARSED_BYTES_PER_TRIPLE * parsed.size();
            // A balanced shard move keeps every machine's shard count, but a machine holds the copies it receives
            // before it drops the shards it gives away: three times its share. An unbounded plan may gather every
            // shard on one machine: the whole file.
            boolean whole = machines == 1 || mode == Mode.SHARD && config.shardPlan() == ShardPlan.UNBOUNDED;
            int share = mode == Mode.SHARD ? 3 : 2;
            keys = whole ? allKeys : share * allKeys / machines;
            valueBytes = whole ? allValues : share * allValues / machines + INDEX_BYTES_PER_TRIPLE * parsed.size();
        }
        valueBytes = Math.max(StoreConfig.DEFAULT_CHUNK_BYTES >> 10, Math.max(32L << 20, valueBytes));
        return new ClusterSpec(machines, keys, valueBytes,
            mode == Mode.SPLIT_CACHE ? (long) config.cacheMb() << 20 : 0,
            mode == Mode.SHARD ? ShardPlacement.DEFAULT_SHARDS_PER_MACHINE : ClusterSpec.HASHED,
            config.remoteLatencyNs(), Math.max(1, (long) (config.phases().intervalSeconds() * 1000)), 0,
            Mechanism.EAGER);
    }

    /** Keys the load made, over every machine. */
    private static long keys(EmbeddedCluster cluster) {
        LongAdder n = new LongAdder();
        for (int m = 0; m < cluster.machineCount(); m++) {
            cluster.machine(m).forEachHomeKey(k -> n.increment());
        }
        return n.sum();
    }
}
