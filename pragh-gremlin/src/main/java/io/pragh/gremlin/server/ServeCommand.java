package io.pragh.gremlin.server;

import io.pragh.gremlin.structure.EmbeddedGraphStore;
import io.pragh.gremlin.structure.PraghGraph;
import org.apache.commons.configuration2.BaseConfiguration;
import org.apache.commons.configuration2.Configuration;

import java.util.concurrent.CountDownLatch;

/**
 * {@code ./pragh serve}: starts an embedded Pragh cluster, optionally loads a file into it, serves it with Gremlin
 * Server, prints where to connect, and on Ctrl-C stops the server and the cluster.
 *
 * <p>Example: {@code ./pragh serve --port 8182 --load data/grateful-dead.xml}
 */
public final class ServeCommand {
    private ServeCommand() {
    }

    /**
     * Opens {@code GET /metrics} as the options ask; returns where, or why not. A port given with
     * {@code --metrics-port} that is taken stops the start; the default port, taken, is only warned about.
     */
    private static String serveMetrics(final ServeMetrics metrics, final ServeOptions options) {
        if (options.metricsPort == 0) {
            return "off (--metrics-port 0)";
        }
        try {
            return metrics.serve(new java.net.InetSocketAddress(options.host, options.metricsPort),
                java.time.Duration.ofSeconds(options.idleTimeoutSeconds)).url();
        } catch (RuntimeException e) {
            if (options.metricsPortGiven) {
                System.err.println("pragh serve: " + e.getMessage() + " (choose another --metrics-port, 0 for none)");
                System.exit(1);
            }
            System.err.println("pragh serve: WARNING " + e.getMessage() + "; serving without metrics"
                + " (--metrics-port P chooses a port)");
            return "off (port " + options.metricsPort + " is taken)";
        }
    }

    /** Holds {@code host:port} until the server binds it; one line and exit 1 when it cannot be bound. */
    private static PortHold hold(final String host, final int port, final String option) {
        try {
            return PortHold.take(host, port);
        } catch (java.io.IOException e) {
            System.err.println("pragh serve: " + e.getMessage() + " (choose another " + option + ")");
            System.exit(1);
            return null;
        }
    }

    /** Every {@link ServeExtension} on the class path that the settings ask for; one that fails stops the start. */
    private static java.util.List<ServeExtension.Started> startExtensions(final PraghGraph graph,
                                                                          final ServeOptions options,
                                                                          final Configuration conf) {
        final java.util.List<ServeExtension.Started> started = new java.util.ArrayList<>();
        if (options.credentials != null) {
            conf.setProperty(ServeExtension.CREDENTIALS, options.credentials.getPath());
        }
        for (final ServeExtension e : java.util.ServiceLoader.load(ServeExtension.class)) {
            try {
                final ServeExtension.Started s = e.start(graph.backingStore(), options.host, conf, System.err);
                if (s != null) {
                    started.add(s);
                }
            } catch (Exception ex) {
                System.err.println("pragh serve: " + e.getClass().getSimpleName() + " could not start: "
                    + ex.getMessage());
                System.exit(1);
            }
        }
        return started;
    }

    public static void main(final String[] args) throws Exception {
        final ServeOptions options;
        try {
            options = ServeOptions.parse(args);
        } catch (IllegalArgumentException e) {
            // One line: what was wrong is the news, the usage is a --help away.
            System.err.println("pragh serve: " + e.getMessage() + " (./pragh serve --help lists the options)");
            System.exit(2);
            return;
        }
        if (options.help) {
            System.out.println(ServeOptions.USAGE);
            return;
        }
        // Before the graph and its load: a port that is taken stops the start now, not after a long --load.
        final PortHold gremlinHold = hold(options.host, options.port, "--port");
        final PortHold metricsHold = options.metricsPortGiven ? hold(options.host, options.metricsPort,
            "--metrics-port") : null;
        final Configuration conf = new BaseConfiguration();
        conf.setProperty(PraghGraph.MACHINES, options.machines);
        // The main job runs with split migration on; --set pragh.migration=false turns it off.
        conf.setProperty(EmbeddedGraphStore.MIGRATION, true);
        for (final String[] kv : options.graphSettings) {
            conf.setProperty(kv[0], kv[1]);
        }
        final PraghGraph graph;
        FileLoad.Loaded loaded = null;
        if (options.load != null) {
            // Parsed first, then a graph sized from the data is opened and bulk-loaded (FileLoad).
            try {
                loaded = FileLoad.open(conf, options.load, null, System.err);
                graph = loaded.graph();
            } catch (Exception e) {
                System.err.println("pragh serve: loading " + options.load + " failed: " + e.getMessage());
                System.exit(1);
                return;
            }
        } else {
            graph = PraghGraph.open(conf);
        }
        if (options.allowGroovy) {
            System.err.println("pragh serve: WARNING --allow-groovy: Groovy scripts and lambdas can run any code as this user");
        }
        gremlinHold.close();
        if (metricsHold != null) {
            metricsHold.close();
        }
        final ServeMetrics metrics = ServeMetrics.attach(graph, java.time.Duration.ofMillis(options.slowQueryMillis));
        final PraghServer server;
        try {
            server = PraghServer.start(graph, options);
        } catch (Exception e) {
            System.err.println("pragh serve: could not start Gremlin Server on " + options.host + ":" + options.port + ": " + e.getMessage());
            graph.close();
            System.exit(1);
            return;
        }
        final String metricsAt = serveMetrics(metrics, options);
        final java.util.List<ServeExtension.Started> extensions = startExtensions(graph, options, conf);
        final CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.err.println("pragh serve: stopping");
            try {
                extensions.forEach(ServeExtension.Started::close);
                metrics.close();
                server.close();
            } catch (Exception e) {
                System.err.println("pragh serve: error while stopping: " + e);
            }
            stopped.countDown();
        }, "pragh-serve-shutdown"));
        System.out.printf("Pragh Gremlin Server: %d machines, %d vertices, %d edges (ready %.2f s after JVM start)%n",
            // A bulk load knows what it added to the empty graph; counting 1M edges again would delay the start.
            options.machines, loaded != null && loaded.vertices() >= 0 ? loaded.vertices()
                : graph.traversal().V().count().next(),
            loaded != null && loaded.vertices() >= 0 ? loaded.edges() : graph.traversal().E().count().next(),
            java.lang.management.ManagementFactory.getRuntimeMXBean().getUptime() / 1e3);
        System.out.printf("  connect to ws://%s:%d/gremlin  (traversal source 'g'; GraphBinary or GraphSON v3)%n", options.host, options.port);
        System.out.println("  metrics: " + metricsAt + "; g.call('pragh.stats') per machine");
        System.out.printf("  Java:   DriverRemoteConnection.using(\"%s\", %d, \"g\")%n", options.host, options.port);
        System.out.printf("  Python: DriverRemoteConnection('ws://%s:%d/gremlin', 'g')%n", options.host, options.port);
        extensions.forEach(e -> System.out.println("  " + e.describe()));
        System.out.println("  Ctrl-C stops the server and the cluster");
        stopped.await();
    }
}
