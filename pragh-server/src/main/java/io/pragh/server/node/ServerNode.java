package io.pragh.server.node;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.pragh.embedded.Machine;
import io.pragh.durability.Durability;
import io.pragh.durability.Recovery;
import io.pragh.fabric.Deployment;
import io.pragh.fabric.Fabric;
import io.pragh.fabric.FabricProviders;
import io.pragh.fabric.FabricSpec;
import io.pragh.fabric.tcp.ClusterSecret;
import io.pragh.fabric.tcp.ClusterTls;
import io.pragh.fabric.tcp.TcpFabricOptions;
import io.pragh.server.config.ClusterConfig;
import io.pragh.server.config.MachineConfig;
import io.pragh.server.frontend.FrontEnd;
import io.pragh.server.frontend.FrontEnds;
import io.pragh.server.membership.ZooKeeperMembership;
import io.pragh.server.metrics.MachineCounters;
import io.pragh.server.metrics.MachineMeters;
import io.pragh.server.metrics.MetricsEndpoint;
import io.pragh.server.metrics.MigrationCounts;
import io.pragh.server.metrics.TierMeters;
import io.pragh.server.extension.ServerExtensions;
import io.pragh.server.rpc.ClientServer;
import io.pragh.store.MachineStore;
import io.pragh.store.Mutators;
import java.net.InetSocketAddress;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One machine of a multi-process cluster, running: its store over the fabric {@code fabric.kind} chooses (verbs or
 * TCP, found through their providers on the class path; the choice and its reason logged in one line) with the
 * configured placement (hash, or one a named server extension supplies), recovered from and logging to its own data
 * directory, with worker and migration threads, the crash-recovery protocol and (when the cluster file gives it a
 * client port) the client RPC with the operations of the extensions the file names. Started in that order, so that
 * it serves clients only once its partition is loaded and every reachable peer has dropped what pointed into its
 * previous incarnation. Its meters ({@link MachineMeters}, and the front ends') are served on {@code GET /metrics} when the cluster file's
 * {@code metrics.port} is set.
 *
 * <pre>{@code
 * try (ServerNode node = ServerNode.start(ClusterConfig.load(Path.of("cluster.yaml")), 1)) {
 *     System.out.println(node.describe());
 * }
 * }</pre>
 */
public final class ServerNode implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ServerNode.class);

    /** Worker threads per machine: client reads and traversals run there. */
    public static final int WORKERS = 2;

    private final ClusterConfig config;
    private final int id;
    private final Fabric fabric;
    private final Machine machine;
    private final CrashRecovery recovery;
    private final ZooKeeperMembership membership;
    private final MigrationCoordination coordination;
    /** The far-memory tier's rounds (compute machines with a budget) and the memory node's side of its moves. */
    private final ServerTiering tiering;
    private final ClientServer rpc;
    private final FrontEnds frontEnds;
    private final Set<Integer> acknowledgedRestart;
    private final long startMillis;
    /** Held here: Micrometer holds the state of function counters and gauges weakly. */
    private final MachineCounters counters;
    private final MetricsEndpoint metrics;
    /** The extensions the cluster file names, for the ready line. */
    private final ServerExtensions extensions;

    private ServerNode(ClusterConfig config, int id, Fabric fabric, Machine machine, CrashRecovery recovery,
                       ZooKeeperMembership membership, MigrationCoordination coordination, ClientServer rpc,
                       FrontEnds frontEnds, ServerExtensions extensions, Set<Integer> acknowledged, long startMillis,
                       MachineCounters counters, MetricsEndpoint metrics, ServerTiering tiering) {
        this.tiering = tiering;
        this.extensions = extensions;
        this.counters = counters;
        this.metrics = metrics;
        this.frontEnds = frontEnds;
        this.membership = membership;
        this.coordination = coordination;
        this.config = config;
        this.id = id;
        this.fabric = fabric;
        this.machine = machine;
        this.recovery = recovery;
        this.rpc = rpc;
        this.acknowledgedRestart = acknowledged;
        this.startMillis = startMillis;
    }

    /** Starts machine {@code id} of {@code config}; returns once it serves. A lost ZooKeeper session is logged. */
    public static ServerNode start(ClusterConfig config, int id) {
        return start(config, id, () -> LOG.error("machine {} lost its ZooKeeper session", id));
    }

    /**
     * Starts machine {@code id} of {@code config}; returns once it serves.
     *
     * @param onSessionLost what to do when this machine's ZooKeeper session is lost and its peers therefore presume
     *                      it dead (a server process halts: it must not serve values its peers have restored
     *                      elsewhere)
     */
    public static ServerNode start(ClusterConfig config, int id, Runnable onSessionLost) {
        return start(config, id, onSessionLost, FabricProviders.load(ServerNode.class.getClassLoader()));
    }

    /**
     * As {@link #start(ClusterConfig, int, Runnable)}, choosing the fabric among {@code fabrics}. Fails naming why
     * when {@code fabric.kind} asks for one that cannot run here (verbs without its native library or a device).
     */
    public static ServerNode start(ClusterConfig config, int id, Runnable onSessionLost, FabricProviders fabrics) {
        long t0 = System.currentTimeMillis();
        MachineConfig self = config.machine(id);
        int n = config.machineCount();
        Mutators mutators = Mutators.withBuiltins().register(RestoreMutator.ID, new RestoreMutator());
        // Front ends on the class path (Gremlin) register their mutators before the store exists.
        FrontEnds frontEnds = FrontEnds.load(ServerNode.class.getClassLoader());
        frontEnds.registerMutators(mutators);
        // Only the extensions the cluster file names: one merely on the class path adds nothing.
        ServerExtensions extensions = ServerExtensions.load(config.extensions(), ServerNode.class.getClassLoader());
        extensions.registerMutators(mutators);
        // Keys are homed on the compute machines only (ids 0..c-1); memory nodes host values moved to them.
        MachineStore store = new MachineStore(id, n, config.storeConfig(),
            extensions.placement(config.placement(), config.computeMachineCount()), mutators);
        Durability durability = null;
        Fabric fabric = null;
        Machine machine = null;
        CrashRecovery recovery = null;
        ZooKeeperMembership membership = null;
        MigrationCoordination coordination = null;
        ServerTiering tiering = null;
        ClientServer rpc = null;
        MetricsEndpoint metrics = null;
        try {
            durability = Durability.open(config.dataDirectory(id), config.durability().sync(),
                config.durability().snapshotInterval().toMillis(), store);
            refuseMovablePlacementOverEarlierRecords(config, id, durability.recovered());
            recovery = new CrashRecovery(store, durability);
            // Before attach, and never as a first life: a server process may be a restarted host, whose updates wait
            // out the leases of replicas its previous life granted (docs/replicas.md).
            store.replication().configure(config.replicas().toSettings());
            fabric = fabrics.open(config.fabric().kind(), Deployment.MULTI_PROCESS, fabricSpec(config, id));
            store.attach(fabric);
            long timeout = operationTimeoutMillis(config);
            machine = Machine.start(store, durability, WORKERS, false, timeout);
            if (config.membership().enabled()) {
                CrashRecovery r = recovery;
                Fabric f = fabric;
                membership = ZooKeeperMembership.join(config.membership(), id, "fabric " + fabric.describe(),
                    new ZooKeeperMembership.Listener() {
                        @Override
                        public void machineLost(int lost) {
                            // Fail what needs it at once rather than wait out timeouts on its open connections.
                            f.presumeDead(lost, "is presumed dead: its ZooKeeper session ended");
                            r.recoverFromAsync(lost);
                        }

                        @Override
                        public void machineJoined(int joined) {
                            f.peerRejoined(joined);
                        }

                        @Override
                        public void sessionLost() {
                            onSessionLost.run();
                        }
                    });
            }
            coordination = new MigrationCoordination(machine, config.policy(), membership,
                store.endpoint().maxMessageBytes());
            Set<Integer> acknowledged = recovery.announceRestart(4 * timeout);
            coordination.start();
            tiering = ServerTiering.start(store, coordination, config.tiering().settings(),
                config.computeMachineCount(), timeout);
            PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
            if (tiering.tiering() != null) {
                TierMeters.bindMachine(registry, tiering.tiering(), id);
            }
            MigrationCoordination c = coordination;
            MachineCounters counters = new MachineCounters(machine,
                MigrationCounts.of(c::approvals, c::migrationsFailed));
            MachineMeters.bind(registry, counters);
            // Before the client port: a machine that answers PING also serves its front ends.
            FrontEnd.Host frontEndHost = new FrontEnd.Host(machine, config, id, timeout, registry, counters);
            frontEnds.start(frontEndHost);
            if (config.metrics().port(id) != 0) {
                metrics = MetricsEndpoint.start(registry,
                    new InetSocketAddress(frontEndHost.bindHost(), config.metrics().port(id)),
                    config.limits().idleTimeout());
            }
            if (self.clientPort() != MachineConfig.NO_CLIENT_PORT) {
                String host = config.fabric().bindHost() != null ? config.fabric().bindHost() : self.host();
                CrashRecovery r = recovery;
                rpc = ClientServer.start(machine, new InetSocketAddress(host, self.clientPort()), timeout,
                    r::restoredTotal, config.secret(), config.tls(), coordination, extensions);
            }
            return new ServerNode(config, id, fabric, machine, recovery, membership, coordination, rpc, frontEnds,
                extensions, acknowledged, t0, counters, metrics, tiering);
        } catch (RuntimeException | Error e) {
            closeAll(metrics, rpc, frontEnds, tiering, coordination, membership, fabric, recovery, machine, machine == null ? durability : null,
                machine == null ? store : null);
            throw e;
        }
    }

    /**
     * A machine whose placement is not hash (an extension's, such as the benchmark's shard table) starts from its
     * initial table: records of an earlier run may belong to keys whose home moved away since, and keys that moved
     * here were never logged, so starting over them would serve wrong data.
     */
    private static void refuseMovablePlacementOverEarlierRecords(ClusterConfig config, int id, Recovery.Result r) {
        if (!config.placement().isHash() && (r.snapshotKeys() > 0 || r.logRecords() > 0)) {
            throw new IllegalStateException("machine " + id + " uses placement '" + config.placement().kind()
                + "' and its data directory " + config.dataDirectory(id) + " holds an earlier run's records ("
                + r.snapshotKeys() + " snapshot keys, " + r.logRecords() + " log records): only hash placement keeps"
                + " a key's home where the logs expect it, so a machine with another placement starts from an empty"
                + " data directory");
        }
    }

    /**
     * What machine {@code id}'s fabric is built from: every machine's fabric address, the timeouts, whether the
     * cluster requires TLS, and the TCP fabric's own settings (its options, the cluster secret, the TLS files).
     */
    static FabricSpec fabricSpec(ClusterConfig config, int id) {
        return FabricSpec.of(id, config.fabricAddresses())
            .withTimeouts(config.fabric().connectTimeout(), config.fabric().requestTimeout())
            .requiringTls(config.tls() != null)
            .withSetting(ClusterSecret.class, config.secret())
            .withSetting(ClusterTls.class, config.tls())
            .withSetting(TcpFabricOptions.class, config.tcpOptions(id));
    }

    /** Long enough for a request timeout on every hop of a forwarded update, short enough to fail fast. */
    static long operationTimeoutMillis(ClusterConfig config) {
        return Math.max(1_000, 2 * config.fabric().requestTimeout().toMillis());
    }

    public int id() {
        return id;
    }

    /** The cluster file this machine was started from. */
    public ClusterConfig config() {
        return config;
    }

    public Machine machine() {
        return machine;
    }

    public Fabric fabric() {
        return fabric;
    }

    public CrashRecovery recovery() {
        return recovery;
    }

    /** The client port actually bound, or null when the cluster file gives this machine none. */
    public InetSocketAddress clientAddress() {
        return rpc == null ? null : rpc.localAddress();
    }

    /** One line: where this machine serves and what it recovered. */
    public String describe() {
        Recovery.Result r = machine.durability().recovered();
        return "machine " + id + " of " + config.machineCount() + " serves: fabric " + fabric.describe()
            + ", clients " + (rpc == null ? "off" : rpc.localAddress()) + ", data " + config.dataDirectory(id)
            + " (sync " + config.durability().sync().name().toLowerCase(java.util.Locale.ROOT) + "); recovered "
            + r.keysLoaded() + " keys (snapshot " + r.snapshotKeys() + " keys, log " + r.logRecords() + " records"
            + (r.tornBytes() > 0 ? ", " + r.tornBytes() + " torn bytes cut" : "") + "), peers acknowledged restart: "
            + acknowledgedRestart + (membership == null ? ", no membership service" : ", ZooKeeper "
            + config.membership().zookeeper() + (membership.isCoordinator() ? " (coordinator)" : ""))
            + "; " + frontEnds.describe() + ", extensions " + extensions.describe() + ", metrics "
            + (metrics == null ? "off" : metrics.url()) + ", ready in " + (System.currentTimeMillis() - startMillis)
            + " ms";
    }

    /** The monitor of this machine and, when it is elected, the coordinator of the cluster's migrations. */
    public MigrationCoordination coordination() {
        return coordination;
    }

    /** What this machine counts (its meters read these). */
    public MachineCounters counters() {
        return counters;
    }

    /** Where {@code GET /metrics} is served, or null when the cluster file opens no metrics port. */
    public InetSocketAddress metricsAddress() {
        return metrics == null ? null : metrics.address();
    }

    /** The ZooKeeper membership, or null when the cluster file configures none. */
    public ZooKeeperMembership membership() {
        return membership;
    }

    /**
     * Stops serving clients, leaves the membership (peers recover from this machine: its memory goes away), closes
     * the fabric (no peer reaches this memory any more), then the machine.
     */
    @Override
    public void close() {
        closeAll(metrics, rpc, frontEnds, tiering, coordination, membership, fabric, recovery, machine, null, null);
    }

    /** The far-memory tier of this machine: its rounds when it is a compute machine with a budget. */
    public ServerTiering tiering() {
        return tiering;
    }

    private static void closeAll(AutoCloseable... parts) {
        for (AutoCloseable c : parts) {
            if (c != null) {
                try {
                    c.close();
                } catch (Exception e) {
                    LOG.warn("closing {} failed", c.getClass().getSimpleName(), e);
                }
            }
        }
    }
}
