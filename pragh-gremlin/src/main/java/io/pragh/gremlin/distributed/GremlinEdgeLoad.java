package io.pragh.gremlin.distributed;

import io.pragh.server.config.ClusterConfig;
import io.pragh.server.config.MachineConfig;
import io.pragh.server.load.EdgeLoad;
import org.apache.tinkerpop.gremlin.driver.Client;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.apache.tinkerpop.gremlin.driver.ResultSet;
import org.apache.tinkerpop.gremlin.driver.exception.ResponseException;
import org.apache.tinkerpop.gremlin.driver.remote.DriverRemoteConnection;
import org.apache.tinkerpop.gremlin.process.traversal.Traversal;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversal;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.__;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.util.message.ResponseStatusCode;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.apache.tinkerpop.gremlin.process.traversal.AnonymousTraversalSource.traversal;

/**
 * The edge load of {@code ./pragh cluster load} through TinkerPop's Java driver, as a client application writes:
 * one driver {@link Cluster} per machine's {@code gremlinPort} (logging in as the first user of the cluster file's
 * {@code credentialsFile} when it asks for logins; the Gremlin ports are plain WebSocket even when the cluster's own
 * ports run TLS), requests sent round-robin over the machines as bytecode ({@code Client.submitAsync}), a bounded
 * number in flight.
 * It first adds the vertices ({@code g.inject(1..n).unfold().addV(label).id()}, in batches), then for each
 * measurement inserts edges between random pairs of them, each request a chain
 * {@code g.V(a1).addE(l).to(__.V(b1)).V(a2).addE(l).to(__.V(b2))...}, and counts only acknowledged requests; after
 * each measurement {@code g.E().hasLabel(l).count()} says how many edges the cluster holds.
 *
 * <pre>{@code
 * List<EdgeLoad.Result> r = new GremlinEdgeLoad().run(ClusterConfig.load(Path.of("/tmp/c/cluster.yaml")),
 *     new EdgeLoad.Settings(10, 10_000, 16, List.of(1, 64)));
 * }</pre>
 */
public final class GremlinEdgeLoad implements EdgeLoad {
    /** The label of every vertex the load adds. */
    public static final String VERTEX_LABEL = "loadVertex";
    /** The label of every edge the load inserts. */
    public static final String EDGE_LABEL = "loadEdge";
    private static final int VERTICES_PER_REQUEST = 100;
    /** Tries of one batch of vertices: a loaded host can time out a request now and then (the server says retry). */
    private static final int VERTEX_TRIES = 5;
    private static final long WAIT_MILLIS = 60_000;

    @Override
    public String name() {
        return "Gremlin";
    }

    @Override
    public String unsupported(final ClusterConfig config) {
        return config.machine(0).gremlinPort() == MachineConfig.NO_GREMLIN_PORT
            ? "the cluster file gives no machine a Gremlin port" : null;
    }

    @Override
    public List<Result> run(final ClusterConfig config, final Settings settings) throws Exception {
        final String[] login = login(config);
        final List<Cluster> drivers = new ArrayList<>();
        try {
            final List<GraphTraversalSource> g = new ArrayList<>();
            final List<Client> clients = new ArrayList<>();
            for (final MachineConfig m : config.machines()) {
                // Keep-alives within the port's idle timeout, or the server closes the pool's spare connections.
                final Cluster.Builder b = Cluster.build(m.host()).port(m.gremlinPort())
                    .maxWaitForConnection((int) WAIT_MILLIS).maxContentLength(64 << 20)
                    .keepAliveInterval(config.limits().idleTimeout().toMillis() / 2);
                if (login != null) {
                    b.credentials(login[0], login[1]);
                }
                final Cluster driver = b.create();
                drivers.add(driver);
                g.add(traversal().with(DriverRemoteConnection.using(driver, "g")));
                clients.add(driver.connect().alias("g"));
            }
            final long[] ids = addVertices(g, settings.vertices());
            final List<Result> results = new ArrayList<>();
            for (final int perRequest : settings.edgesPerRequest()) {
                results.add(insertEdges(g, clients, ids, perRequest, settings));
            }
            return results;
        } finally {
            drivers.forEach(Cluster::close);
        }
    }

    private static long[] addVertices(final List<GraphTraversalSource> g, final int n) {
        final long[] ids = new long[n];
        for (int done = 0, request = 0; done < n; request++) {
            final int batch = Math.min(VERTICES_PER_REQUEST, n - done);
            final Integer[] seeds = new Integer[batch];
            for (int i = 0; i < batch; i++) {
                seeds[i] = i;
            }
            for (final Object id : addBatch(g.get(request % g.size()), seeds)) {
                ids[done++] = ((Number) id).longValue();
            }
        }
        return ids;
    }

    /**
     * One batch of vertices, retried when the cluster says retry: a batch that failed may have added some vertices,
     * which the load then leaves unused (the edges join only the vertices whose ids came back).
     */
    private static List<Object> addBatch(final GraphTraversalSource g, final Integer[] seeds) {
        for (int attempt = 1; ; attempt++) {
            try {
                return g.inject(seeds).unfold().addV(VERTEX_LABEL).id().toList();
            } catch (RuntimeException e) {
                if (attempt == VERTEX_TRIES || !saysRetry(e)) {
                    throw e;
                }
            }
        }
    }

    /** The server's answer, wherever the driver wrapped it, is the status drivers read as "retry" (596). */
    private static boolean saysRetry(final Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ResponseException r
                && r.getResponseStatusCode() == ResponseStatusCode.SERVER_ERROR_TEMPORARY) {
                return true;
            }
        }
        return false;
    }

    /**
     * Each request is submitted as bytecode and completes on its last result, so no thread waits for an answer: a
     * {@code promise(Traversal::iterate)} ran the waiting {@code iterate} on the driver's own worker threads (4 per
     * machine), which then held the load below its requests in flight while every server thread was idle.
     */
    private static Result insertEdges(final List<GraphTraversalSource> g, final List<Client> clients, final long[] ids,
                                      final int perRequest, final Settings settings) throws InterruptedException {
        final long before = edgeCount(g.get(0));
        final Semaphore slots = new Semaphore(settings.inFlight());
        final AtomicLong acked = new AtomicLong();
        final AtomicLong failed = new AtomicLong();
        final SplittableRandom random = new SplittableRandom(perRequest);
        final long t0 = System.nanoTime();
        final long end = t0 + (long) (settings.seconds() * 1e9);
        for (int request = 0; System.nanoTime() < end; request++) {
            GraphTraversal<?, Edge> t = null;
            for (int i = 0; i < perRequest; i++) {
                final long from = ids[random.nextInt(ids.length)];
                final long to = ids[random.nextInt(ids.length)];
                t = (t == null ? g.get(request % g.size()).V(from) : t.V(from)).addE(EDGE_LABEL).to(__.V(to));
            }
            slots.acquire();
            try {
                clients.get(request % clients.size()).submitAsync(t.asAdmin().getBytecode())
                    .thenCompose(ResultSet::all).whenComplete((done, error) -> {
                    (error == null ? acked : failed).incrementAndGet();
                    slots.release();
                });
            } catch (RuntimeException notSent) {
                // The driver refused it (its connection to a machine that restarts is gone): failed, as the
                // answers that say so are.
                failed.incrementAndGet();
                slots.release();
            }
        }
        // Every request answered (or failed) before the clock stops and the count is taken.
        if (!slots.tryAcquire(settings.inFlight(), WAIT_MILLIS, TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException("requests still unanswered " + WAIT_MILLIS / 1000 + " s after the last"
                + " was sent");
        }
        final double seconds = (System.nanoTime() - t0) / 1e9;
        return new Result(perRequest, acked.get(), failed.get(), seconds, edgeCount(g.get(0)) - before);
    }

    private static long edgeCount(final GraphTraversalSource g) {
        return g.E().hasLabel(EDGE_LABEL).count().next();
    }

    /** The first {@code user:password} of the cluster's credentials file, or null when it asks for no login. */
    private static String[] login(final ClusterConfig config) throws IOException {
        if (config.gremlin().credentialsFile() == null) {
            return null;
        }
        for (final String raw : Files.readAllLines(config.gremlin().credentialsFile())) {
            final String line = raw.strip();
            final int colon = line.indexOf(':');
            if (!line.isBlank() && !line.startsWith("#") && colon > 0) {
                return new String[] {line.substring(0, colon), line.substring(colon + 1)};
            }
        }
        throw new IllegalArgumentException("the Gremlin port asks for logins but " + config.gremlin().credentialsFile()
            + " holds no user:password line");
    }
}
