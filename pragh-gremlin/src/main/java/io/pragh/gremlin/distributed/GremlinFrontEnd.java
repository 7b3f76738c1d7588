package io.pragh.gremlin.distributed;

import io.micrometer.core.instrument.Tags;
import io.pragh.gremlin.events.ViewEvents;
import io.pragh.gremlin.hotspot.ViewHotspots;
import io.pragh.gremlin.server.GremlinRequests;
import io.pragh.gremlin.server.PraghServer;
import io.pragh.gremlin.server.ServeOptions;
import io.pragh.gremlin.server.StatsService;
import io.pragh.gremlin.structure.MutatorAdapter;
import io.pragh.gremlin.structure.PraghGraph;
import io.pragh.server.config.ClusterConfig;
import io.pragh.server.config.GremlinConfig;
import io.pragh.server.config.MachineConfig;
import io.pragh.server.frontend.FrontEnd;
import io.pragh.store.Mutators;
import org.apache.commons.configuration2.BaseConfiguration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * The Gremlin front end of a server machine: Gremlin Server (as {@code ./pragh serve} runs it: GraphBinary and
 * GraphSON v3, {@code gremlin-lang} scripts, requests vetted) on the machine's {@code gremlinPort}, over a
 * {@link PraghGraph} on {@link ClusterGraphStore}, with traversals that start at {@code V(id)} routed to the id's
 * home machine by {@link HomeRouter}. Every machine registers the graph's mutators, since any machine may host a
 * value a Gremlin update edits. {@code g.call("pragh.stats")} answers the machine's counters, and its requests are
 * timed into the machine's meters ({@link GremlinRequests}, slow ones logged past {@code metrics.slowQuery}). The
 * cluster file's {@code gremlin} section sets what the port admits as {@code ./pragh serve}'s flags do: {@code io()}
 * in one directory ({@code allowIo}, as {@code --allow-io}) and logins ({@code credentialsFile}, as
 * {@code --credentials}). View-driven hotspot migration ({@code g.call("pragh.hotspot", [...])}) counts this
 * machine's reads and runs its rounds in the coordinator's process ({@link ServedHotspotMachines}).
 *
 * <p>Example: on the class path of {@code ./pragh server}, it is found through
 * {@code META-INF/services/io.pragh.server.frontend.FrontEnd}; its ready line reads
 * {@code gremlin ws://127.0.0.1:8182/gremlin}.
 */
public final class GremlinFrontEnd implements FrontEnd {
    private static final Logger LOG = LoggerFactory.getLogger(GremlinFrontEnd.class);

    /** Gremlin Server evaluation threads per machine. */
    static final int FORWARDING_POOL = 32;
    /**
     * Traversals a machine forwards at once, half its workers: a worker evaluating a forward waits for the home, so
     * the other half always serves the traversals other machines forward here (which wait on nobody), and two
     * machines forwarding to each other can never hold every worker of both. Traversals beyond it run where they
     * arrived ({@code ranHereAtCapacity} in {@code g.call("pragh.routing")}).
     */
    static final int MAX_FORWARDS = FORWARDING_POOL / 2;
    /** What the password machines log in to each other's Gremlin ports with is derived for. */
    static final String PEER_PASSWORD_PURPOSE = "gremlin peer login";

    private PraghServer server;
    private HomeRouter router;
    private ViewHotspots hotspots;
    private ServedHotspotMachines hotspotMachines;
    private String where = "gremlin (not started)";

    @Override
    public String name() {
        return "gremlin";
    }

    @Override
    public void registerMutators(final Mutators mutators) {
        MutatorAdapter.registerAll((mutator, id) -> mutators.register(id, mutator));
    }

    @Override
    public void start(final Host host) throws Exception {
        final ClusterConfig config = host.config();
        final MachineConfig self = config.machine(host.id());
        if (self.gremlinPort() == MachineConfig.NO_GREMLIN_PORT) {
            // The cluster file gives no machine a Gremlin port (ClusterConfig allows all or none).
            where = "gremlin off (no gremlinPort in the cluster file)";
            return;
        }
        final List<InetSocketAddress> gremlin = new ArrayList<>();
        final List<String> fabric = new ArrayList<>();
        for (final MachineConfig m : config.machines()) {
            gremlin.add(InetSocketAddress.createUnresolved(m.host(), m.gremlinPort()));
            fabric.add(m.host() + ":" + m.fabricPort());
        }
        final PeerReachability peers = new PeerReachability(host.id(), host.machine().store().endpoint(), fabric);
        final GremlinConfig admits = config.gremlin();
        // Machines forward traversals to each other's Gremlin ports: with logins asked for, as a user whose
        // password only holders of the cluster secret can derive.
        final String peerPassword = admits.credentialsFile() == null ? null
            : config.secret().derivePassword(PEER_PASSWORD_PURPOSE);
        router = new HomeRouter(host.id(), host.machine().store().placement(), gremlin, MAX_FORWARDS, peers,
            peerPassword);
        final ClusterGraphStore store = ClusterGraphStore.of(host);
        final BaseConfiguration conf = new BaseConfiguration();
        conf.setProperty(PraghGraph.MACHINES, config.machineCount());
        final PraghGraph graph = PraghGraph.open(conf, store, router);
        graph.getServiceRegistry().registerService(new RoutingService(router));
        graph.getServiceRegistry().registerService(new StatsService(List.of(host.counters())));
        GremlinRequests.attach(graph, new GremlinRequests(host.metrics(),
            Tags.of("machine", Integer.toString(host.id())), config.metrics().slowQuery()));
        final ServeOptions options = new ServeOptions();
        options.host = host.bindHost();
        options.port = self.gremlinPort();
        options.maxFrameBytes = config.limits().maxFrameBytes();
        options.idleTimeoutSeconds = (int) config.limits().idleTimeout().toSeconds();
        // A forwarded traversal holds a worker here while the home evaluates it on one of its own. The router
        // forwards at most MAX_FORWARDS at once and the home never forwards what it receives, so the workers
        // beyond MAX_FORWARDS always serve forwarded traversals: more workers than the default one per core keep
        // both forwards and local work flowing under load.
        options.gremlinPool = FORWARDING_POOL;
        options.allowIo = admits.allowIo() == null ? null : admits.allowIo().toFile();
        options.credentials = admits.credentialsFile() == null ? null : admits.credentialsFile().toFile();
        options.peerPassword = peerPassword;
        try {
            server = PraghServer.start(graph, options);
        } catch (Exception e) {
            graph.close();
            router.close();
            throw new IllegalStateException("cannot serve Gremlin on " + options.host + ":" + options.port + ": "
                + e.getMessage(), e);
        }
        // g.call("pragh.hotspot", [...]): counts this machine's reads of watched views; rounds run in the
        // coordinator's process, over every machine (ServedHotspotMachines).
        if (self.clientPort() != MachineConfig.NO_CLIENT_PORT) {
            hotspotMachines = new ServedHotspotMachines(host);
            hotspots = ViewHotspots.of(ViewEvents.serving(host.machine().store()), hotspotMachines);
        }
        where = "gremlin ws://" + options.host + ":" + options.port + "/gremlin";
    }

    @Override
    public String describe() {
        return where;
    }

    @Override
    public void close() {
        if (hotspots != null) {
            hotspots.close();
            hotspotMachines.close();
        }
        try {
            if (server != null) {
                server.close();
            }
        } catch (Exception e) {
            LOG.warn("stopping Gremlin Server on {} failed", where, e);
        } finally {
            if (router != null) {
                router.close();
            }
        }
    }
}
