package io.pragh.server.cli;

import io.pragh.server.load.EdgeLoad;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * {@code ./pragh cluster load}: the PUT rate over the client port ({@link WriteLoad}), then, on the same running
 * cluster, the edge-insert rate through its Gremlin ports, one line each. The Gremlin phase is on by default
 * because the edge rate is what a graph user compares with the PUT rate; it comes from the {@link EdgeLoad} found
 * on the class path ({@code ./pragh cluster} runs on pragh-gremlin's), and is skipped with a line saying why when
 * none is there or the cluster serves no Gremlin. {@code --gremlin off} measures PUTs only.
 *
 * <pre>{@code
 * ./pragh cluster load --dir /tmp/c --pipeline 256
 * pragh: ... acknowledged PUTs of 64 bytes in 10.0 s: ... PUT/s with 4 client threads, 256 PUTs in flight each ...
 * pragh: Gremlin edge inserts, 1 edge a request, 16 requests in flight: ... edges/s, ... requests/s ...
 * pragh: Gremlin edge inserts, 64 edges a request, 16 requests in flight: ... edges/s, ... requests/s ...
 * }</pre>
 */
final class LoadCommand {
    /** The command line of {@code cluster load}. */
    record Options(int threads, int seconds, int warmupSeconds, int keys, int valueBytes, int pipeline,
                   boolean gremlin, EdgeLoad.Settings edges) {
    }

    private LoadCommand() {
    }

    /** Takes the load's flags out of {@code flags}, leaving any others for the caller to refuse. */
    static Options parse(Map<String, String> flags) {
        int threads = ClusterCommand.parseInt("--threads", flags.getOrDefault("--threads", "4"));
        int seconds = ClusterCommand.parseInt("--seconds", flags.getOrDefault("--seconds", "10"));
        int warmup = ClusterCommand.parseInt("--warmup-seconds", flags.getOrDefault("--warmup-seconds", "10"));
        int keys = ClusterCommand.parseInt("--keys", flags.getOrDefault("--keys", "10000"));
        int bytes = ClusterCommand.parseInt("--value-bytes", flags.getOrDefault("--value-bytes", "64"));
        int pipeline = ClusterCommand.parseInt("--pipeline", flags.getOrDefault("--pipeline", "1"));
        String gremlin = flags.getOrDefault("--gremlin", "on");
        int vertices = ClusterCommand.parseInt("--vertices", flags.getOrDefault("--vertices", "10000"));
        int inFlight = ClusterCommand.parseInt("--gremlin-in-flight", flags.getOrDefault("--gremlin-in-flight", "16"));
        List<Integer> perRequest = new ArrayList<>();
        for (String n : flags.getOrDefault("--edges-per-request", "1,64").split(",", -1)) {
            perRequest.add(ClusterCommand.parseInt("--edges-per-request (a comma-separated list)", n.trim()));
        }
        for (String f : new String[] {"--threads", "--seconds", "--warmup-seconds", "--keys", "--value-bytes",
            "--pipeline", "--gremlin",
            "--vertices", "--gremlin-in-flight", "--edges-per-request"}) {
            flags.remove(f);
        }
        if (threads < 1 || seconds < 1 || keys < 1 || bytes < 0 || pipeline < 1 || warmup < 0) {
            throw new IllegalArgumentException("load needs --threads, --seconds, --keys, --pipeline >= 1"
                + " and --value-bytes, --warmup-seconds >= 0");
        }
        if (!gremlin.equals("on") && !gremlin.equals("off")) {
            throw new IllegalArgumentException("--gremlin takes on or off, got '" + gremlin + "'");
        }
        if (vertices < 1 || inFlight < 1 || perRequest.stream().anyMatch(n -> n < 1)) {
            throw new IllegalArgumentException("load needs --vertices, --gremlin-in-flight and every"
                + " --edges-per-request >= 1");
        }
        return new Options(threads, seconds, warmup, keys, bytes, pipeline, gremlin.equals("on"),
            new EdgeLoad.Settings(seconds, vertices, inFlight, perRequest));
    }

    /** Runs the load; 1 when the edges the cluster counts afterwards do not match what it acknowledged. */
    static int run(Options o, LocalCluster c, PrintStream out, PrintStream err) throws InterruptedException {
        if (o.warmupSeconds() > 0) {
            // The same load, not counted: the first seconds of a fresh client and fresh servers run interpreted code
            // and fill the JIT's queues, which is not what a steady writer sees. On two shared cores the servers'
            // write path takes some 10 s to settle (3 s of warm-up measured 34-57K PUT/s, 10 s 39-73K, same build).
            WriteLoad.Result w = WriteLoad.run(c, o.threads(), o.warmupSeconds(), o.keys(), o.valueBytes(),
                o.pipeline());
            out.printf("pragh: warm-up of %d s (not counted): %d acknowledged PUTs%n", o.warmupSeconds(),
                w.acknowledged());
        }
        WriteLoad.Result r = WriteLoad.run(c, o.threads(), o.seconds(), o.keys(), o.valueBytes(), o.pipeline());
        out.printf("pragh: %d acknowledged PUTs of %d bytes in %.1f s: %.0f PUT/s with %d client threads,"
                + " %d PUTs in flight each (sync %s; %d retryable failures)%n", r.acknowledged(), o.valueBytes(),
            r.seconds(), r.perSecond(), o.threads(), o.pipeline(),
            c.config().durability().sync().name().toLowerCase(Locale.ROOT), r.retryable());
        if (!o.gremlin()) {
            return 0;
        }
        Optional<EdgeLoad> found = EdgeLoad.find();
        String why = found.isEmpty() ? "no edge load on the class path (./pragh cluster runs with pragh-gremlin's)"
            : found.get().unsupported(c.config());
        if (why != null) {
            out.println("pragh: no edge-insert rate: " + why);
            return 0;
        }
        EdgeLoad load = found.get();
        List<EdgeLoad.Result> results;
        try {
            results = load.run(c.config(), o.edges());
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(load.name() + " edge load failed: " + e.getMessage(), e);
        }
        int status = 0;
        for (EdgeLoad.Result e : results) {
            out.printf("pragh: %s edge inserts, %d edge%s a request, %d requests in flight: %d acknowledged edges in"
                    + " %.1f s: %.0f edges/s, %.0f requests/s (%d failed requests; edges counted afterwards %d: %s)%n",
                load.name(), e.edgesPerRequest(), e.edgesPerRequest() == 1 ? "" : "s", o.edges().inFlight(),
                e.edges(), e.seconds(), e.edgesPerSecond(), e.requestsPerSecond(), e.failed(), e.counted(),
                e.countChecks() ? "match" : "MISMATCH");
            if (!e.countChecks()) {
                err.println("pragh cluster: " + e.counted() + " edges counted after " + e.edges()
                    + " acknowledged and " + e.failed() + " failed requests of " + e.edgesPerRequest());
                status = 1;
            }
        }
        return status;
    }
}
