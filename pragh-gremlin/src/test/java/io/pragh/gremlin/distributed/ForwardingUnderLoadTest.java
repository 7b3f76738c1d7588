package io.pragh.gremlin.distributed;

import io.pragh.gremlin.server.PraghServer;
import io.pragh.gremlin.server.ServeOptions;
import io.pragh.gremlin.structure.EmbeddedGraphStore;
import io.pragh.gremlin.structure.GraphStore;
import io.pragh.gremlin.structure.PraghGraph;
import io.pragh.gremlin.structure.TestGraphs;
import org.apache.commons.configuration2.Configuration;
import org.apache.tinkerpop.gremlin.driver.Client;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.apache.tinkerpop.gremlin.driver.RequestOptions;
import org.apache.tinkerpop.gremlin.driver.Result;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.util.ser.Serializers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.lang.reflect.Proxy;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongToIntFunction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Two machines in one JVM, each a Gremlin Server with {@value #WORKERS} workers on 127.0.0.1 over one shared store
 * (even vertex ids homed on machine 0, odd on machine 1), each sent many more traversals homed on the other machine
 * than it has workers, both at once. Without a bound on forwards every worker of both machines ends up waiting for a
 * forward queued behind the other machine's waiting workers, and nothing answers until the evaluation timeout; with
 * it, every request is answered correctly within seconds and some ran where they arrived.
 */
class ForwardingUnderLoadTest {
    private static final int WORKERS = 4;
    private static final int MAX_FORWARDS = WORKERS / 2;
    private static final int VERTICES = 40;
    private static final int REQUESTS_PER_MACHINE = 6 * WORKERS;
    /** Far above what the requests take when they flow, far below the evaluation timeout they wait out when stuck. */
    private static final long ANSWER_WITHIN_SECONDS = 20;

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void crossForwardsBeyondTheWorkersOfBothMachinesAllAnswer() throws Exception {
        final Configuration conf = TestGraphs.configuration();
        final int[] ports = {freePort(), freePort()};
        final List<InetSocketAddress> gremlin = List.of(InetSocketAddress.createUnresolved("127.0.0.1", ports[0]),
            InetSocketAddress.createUnresolved("127.0.0.1", ports[1]));
        final HomeRouter[] routers = new HomeRouter[2];
        final PraghServer[] servers = new PraghServer[2];
        final Cluster[] drivers = new Cluster[2];
        // Closed in reverse, each close's failure kept as suppressed by the test's own failure.
        try (Closer closer = new Closer()) {
            final GraphStore store = closer.add(EmbeddedGraphStore.open(conf));
            for (int m = 0; m < 2; m++) {
                routers[m] = closer.add(new HomeRouter(m, (LongToIntFunction) vid -> (int) (vid & 1), gremlin,
                    MAX_FORWARDS, null));
                // The graphs share the store, closed once above.
                final PraghGraph graph = PraghGraph.open(conf, notClosing(store), routers[m]);
                graph.getServiceRegistry().registerService(new RoutingService(routers[m]));
                final ServeOptions options = new ServeOptions();
                options.host = "127.0.0.1";
                options.port = ports[m];
                options.gremlinPool = WORKERS;
                options.timeoutMillis = 60_000; // stuck requests wait this long: longer than the test waits for them
                servers[m] = closer.add(PraghServer.start(graph, options));
            }
            final long[] expected = loadGraph(servers[0].graph());
            for (int m = 0; m < 2; m++) {
                drivers[m] = Cluster.build("127.0.0.1").port(ports[m]).serializer(Serializers.GRAPHBINARY_V1)
                    .maxConnectionPoolSize(REQUESTS_PER_MACHINE).maxInProcessPerConnection(REQUESTS_PER_MACHINE)
                    .create();
                closer.add(drivers[m]::close);
            }
            final Client[] clients = {drivers[0].connect(), drivers[1].connect()};
            final RequestOptions gremlinLang = RequestOptions.build().language("gremlin-lang").create();

            // Machine 0 is sent traversals from odd ids (homed on 1), machine 1 from even ids (homed on 0), all at once.
            final List<CompletableFuture<List<Result>>> answers = new ArrayList<>();
            final List<Long> starts = new ArrayList<>();
            for (int i = 0; i < REQUESTS_PER_MACHINE; i++) {
                for (int m = 0; m < 2; m++) {
                    final long start = (2L * i + (1 - m)) % VERTICES;
                    starts.add(start);
                    answers.add(clients[m].submitAsync("g.V(" + start + "L).out().out().count()", gremlinLang)
                        .thenCompose(rs -> rs.all()));
                }
            }
            try {
                CompletableFuture.allOf(answers.toArray(new CompletableFuture[0]))
                    .get(ANSWER_WITHIN_SECONDS, TimeUnit.SECONDS);
            } catch (TimeoutException e) {
                final long done = answers.stream().filter(CompletableFuture::isDone).count();
                fail(done + " of " + answers.size() + " cross-forwarded requests answered within "
                    + ANSWER_WITHIN_SECONDS + " s: the machines wait on each other; counters "
                    + routers[0].counters() + " " + routers[1].counters());
            }
            for (int i = 0; i < answers.size(); i++) {
                final List<Result> r = answers.get(i).join();
                assertEquals(1, r.size(), "one count from V(" + starts.get(i) + ")");
                assertEquals(expected[(int) (long) starts.get(i)], r.get(0).getLong(),
                    "two hops from V(" + starts.get(i) + ")");
            }

            long forwarded = 0;
            long ranHere = 0;
            for (int m = 0; m < 2; m++) {
                final Map<String, Long> c = (Map<String, Long>) clients[m].submit("g.call('" + RoutingService.NAME
                    + "')", gremlinLang).one().getObject();
                assertEquals(0L, c.get("forwardsInFlight"), "machine " + m + " returned every permit: " + c);
                assertEquals((long) MAX_FORWARDS, c.get("maxForwards"));
                assertEquals((long) REQUESTS_PER_MACHINE, c.get("forwarded") + c.get("ranHereAtCapacity"),
                    "machine " + m + " forwarded or ran here each request homed elsewhere: " + c);
                assertEquals(c.get("forwarded"), routers[1 - m].counters().get("ranAtHome"),
                    "machine " + (1 - m) + " ran as the home what machine " + m + " forwarded");
                System.out.println("pragh.routing of machine " + m + ": " + c);
                forwarded += c.get("forwarded");
                ranHere += c.get("ranHereAtCapacity");
            }
            assertTrue(forwarded > 0, "some requests were forwarded");
            assertTrue(ranHere > 0, "with " + 2 * REQUESTS_PER_MACHINE + " requests on " + WORKERS
                + " workers a machine, some ran where they arrived");
        }
    }

    /** Vertices 0..VERTICES-1 with edges i -> i+1 and i -> 3i+1 (mod VERTICES); returns each start's out().out().count(). */
    private static long[] loadGraph(final PraghGraph graph) {
        final Vertex[] v = new Vertex[VERTICES];
        for (int i = 0; i < VERTICES; i++) {
            v[i] = graph.addVertex(T.id, (long) i);
        }
        final int[][] out = new int[VERTICES][];
        for (int i = 0; i < VERTICES; i++) {
            out[i] = new int[] {(i + 1) % VERTICES, (3 * i + 1) % VERTICES};
            for (final int j : out[i]) {
                v[i].addEdge("e", v[j]);
            }
        }
        final long[] twoHops = new long[VERTICES];
        for (int i = 0; i < VERTICES; i++) {
            for (final int j : out[i]) {
                twoHops[i] += out[j].length;
            }
        }
        return twoHops;
    }

    private static GraphStore notClosing(final GraphStore store) {
        return (GraphStore) Proxy.newProxyInstance(GraphStore.class.getClassLoader(), new Class<?>[] {GraphStore.class},
            (proxy, method, args) -> {
                if (method.getName().equals("close") && method.getParameterCount() == 0) {
                    return null;
                }
                try {
                    return method.invoke(store, args);
                } catch (java.lang.reflect.InvocationTargetException e) {
                    throw e.getCause();
                }
            });
    }

    /** Closes what it was given in reverse order; the first failure is thrown with the others suppressed. */
    private static final class Closer implements AutoCloseable {
        private final Deque<AutoCloseable> open = new ArrayDeque<>();

        <T extends AutoCloseable> T add(final T resource) {
            open.push(resource);
            return resource;
        }

        @Override
        public void close() throws Exception {
            Exception first = null;
            while (!open.isEmpty()) {
                try {
                    open.pop().close();
                } catch (Exception e) {
                    if (first == null) {
                        first = e;
                    } else {
                        first.addSuppressed(e);
                    }
                }
            }
            if (first != null) {
                throw first;
            }
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return socket.getLocalPort();
        }
    }
}
