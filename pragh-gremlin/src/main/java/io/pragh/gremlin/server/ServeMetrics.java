package io.pragh.gremlin.server;

import io.micrometer.core.instrument.Tags;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.pragh.embedded.EmbeddedCluster;
import io.pragh.embedded.MigrationControl;
import io.pragh.gremlin.structure.EmbeddedGraphStore;
import io.pragh.gremlin.structure.PraghGraph;
import io.pragh.server.metrics.MachineCounters;
import io.pragh.server.metrics.MachineMeters;
import io.pragh.server.metrics.MetricsEndpoint;
import io.pragh.server.metrics.MigrationCounts;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@code ./pragh serve} shows of itself: the meters of every machine of its embedded cluster
 * ({@link MachineMeters}, tagged {@code machine}) and of its Gremlin requests ({@link GremlinRequests}) in one
 * Prometheus registry, {@code g.call("pragh.stats")} ({@link StatsService}), the slow-query log, and, once
 * {@link #serve}d, {@code GET /metrics}. The embedded cluster has one coordinator: its approvals and the MIGRATEs
 * that failed are reported as machine 0's.
 *
 * <pre>{@code
 * ServeMetrics metrics = ServeMetrics.attach(graph, Duration.ofSeconds(1));   // before the server starts
 * PraghServer server = PraghServer.start(graph, options);
 * metrics.serve(new InetSocketAddress(options.host, options.metricsPort));
 * }</pre>
 */
public final class ServeMetrics implements AutoCloseable {
    private final PrometheusMeterRegistry registry;
    /** Held here: Micrometer holds the state of function counters and gauges weakly. */
    private final List<MachineCounters> machines;
    private MetricsEndpoint endpoint;

    private ServeMetrics(PrometheusMeterRegistry registry, List<MachineCounters> machines) {
        this.registry = registry;
        this.machines = machines;
    }

    /**
     * Binds the meters of {@code graph}'s embedded cluster, registers {@code pragh.stats} on it and attaches its
     * request meters and slow-query log; call before the graph's server starts.
     *
     * @param slowQuery requests slower than this are logged; zero logs none
     * @throws IllegalArgumentException when {@code graph} is not over an embedded cluster
     */
    public static ServeMetrics attach(PraghGraph graph, Duration slowQuery) {
        if (!(graph.backingStore() instanceof EmbeddedGraphStore store)) {
            throw new IllegalArgumentException("serve metrics need a graph over an embedded cluster, got "
                + graph.backingStore().getClass().getSimpleName());
        }
        EmbeddedCluster cluster = store.cluster();
        MigrationControl control = cluster.migrationControl();
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        List<MachineCounters> machines = new ArrayList<>();
        for (int m = 0; m < cluster.machineCount(); m++) {
            MigrationCounts counts = m != 0 || control == null ? MigrationCounts.NONE
                : MigrationCounts.of(() -> control.coordinator().approvals(), control::failedMigrations);
            MachineCounters c = new MachineCounters(cluster.machine(m), counts);
            MachineMeters.bind(registry, c);
            machines.add(c);
        }
        graph.getServiceRegistry().registerService(new StatsService(machines));
        GremlinRequests.attach(graph, new GremlinRequests(registry, Tags.empty(), slowQuery));
        return new ServeMetrics(registry, machines);
    }

    /** Serves {@code GET /metrics} on {@code address} (port 0: a free one); a taken port fails naming it. */
    public synchronized MetricsEndpoint serve(InetSocketAddress address) {
        return serve(address, io.pragh.server.config.LimitsConfig.DEFAULT_IDLE_TIMEOUT);
    }

    /** As {@link #serve(InetSocketAddress)}, closing connections that send no whole request within {@code idle}. */
    public synchronized MetricsEndpoint serve(InetSocketAddress address, java.time.Duration idle) {
        if (endpoint != null) {
            throw new IllegalStateException("metrics are served already on " + endpoint.url());
        }
        endpoint = MetricsEndpoint.start(registry, address, idle);
        return endpoint;
    }

    public PrometheusMeterRegistry registry() {
        return registry;
    }

    /** The machines' counters, machine 0 first. */
    public List<MachineCounters> machines() {
        return machines;
    }

    @Override
    public synchronized void close() {
        if (endpoint != null) {
            endpoint.close();
            endpoint = null;
        }
    }
}
