package io.pragh.gremlin.server;

import io.pragh.gremlin.analytics.GraphAlgorithms;
import io.pragh.gremlin.events.ViewEvents;
import io.pragh.gremlin.hotspot.ViewHotspots;
import io.pragh.gremlin.structure.PraghGraph;
import io.pragh.gremlin.view.PraghViews;
import org.apache.tinkerpop.gremlin.server.GremlinServer;
import org.apache.tinkerpop.gremlin.server.Settings;
import org.apache.tinkerpop.gremlin.util.ser.GraphBinaryMessageSerializerV1;
import org.apache.tinkerpop.gremlin.util.ser.GraphSONMessageSerializerV3;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * Gremlin Server over a {@link PraghGraph}: WebSocket on the given host and port, GraphBinary and GraphSON v3,
 * {@code g} bound by {@link PraghGraphManager}, the {@code gremlin-lang} script engine (plus Groovy only when
 * allowed), every request vetted by {@link SafeAuthorizer}, errors told without Java internals
 * ({@link ClientErrors}), optional logins ({@link PasswordFileAuthenticator}), and a
 * per-request evaluation timeout; views' events stream to remote subscribers ({@code g.call("pragh.subscribe", ...)},
 * see {@link ViewEvents}). Closing it stops the server and then the graph.
 *
 * <p>Example: {@code try (PraghServer s = PraghServer.start(graph, options)) { ... }}
 */
public final class PraghServer implements AutoCloseable {
    private static final AtomicInteger HANDOVERS = new AtomicInteger();
    /**
     * Gremlin Server registers its gauges in one JVM-wide registry by check-then-register, so two servers starting
     * at once in one JVM (an in-JVM cluster's machines) can both miss the check and the second fails with "a metric
     * named ... already exists". A stop removes every server's gauges, which a concurrent start could find half
     * gone. So a start holds this lock exclusively, and stops share it: they run side by side (each waits out Netty's
     * quiet period) but never beside a start. A running server is not affected.
     */
    private static final ReadWriteLock START_STOP = new ReentrantReadWriteLock();
    private final GremlinServer server;
    private final PraghGraph graph;
    private final ViewEvents events;

    private PraghServer(final GremlinServer server, final PraghGraph graph, final ViewEvents events) {
        this.server = server;
        this.graph = graph;
        this.events = events;
    }

    /** Starts serving {@code graph}; returns once the port is bound. */
    public static PraghServer start(final PraghGraph graph, final ServeOptions options) throws Exception {
        final String handOver = "graph-" + HANDOVERS.incrementAndGet();
        PraghGraphManager.handOver(handOver, graph); // before the server exists: its constructor builds the manager
        final ViewEvents events = ViewEvents.of(PraghViews.of(graph));
        if (graph.store() instanceof io.pragh.gremlin.structure.EmbeddedGraphStore) {
            ViewHotspots.of(events); // g.call("pragh.hotspot", [...]): moves values between this process's machines
        }
        GraphAlgorithms.register(graph); // g.call("pragh.bfs", [...]) and g.call("pragh.pagerank", [...])
        final Settings settings = settings(options, handOver);
        START_STOP.writeLock().lock();
        try {
            final GremlinServer server = new GremlinServer(settings);
            server.start().get(60, TimeUnit.SECONDS);
            return new PraghServer(server, graph, events);
        } finally {
            START_STOP.writeLock().unlock();
        }
    }

    static Settings settings(final ServeOptions options, final String handOver) throws IOException {
        final Settings s = new Settings();
        s.host = options.host;
        s.port = options.port;
        s.evaluationTimeout = options.timeoutMillis;
        s.channelizer = PraghChannelizer.class.getName();
        s.maxContentLength = options.maxFrameBytes;
        s.idleConnectionTimeout = options.idleTimeoutSeconds * 1000L;
        // Pings at half the idle timeout: a live client's pongs keep its idle connection open.
        s.keepAliveInterval = s.idleConnectionTimeout / 2;
        if (options.gremlinPool > 0) {
            s.gremlinPool = options.gremlinPool;
        }
        s.channelizer = PraghChannelizer.class.getName();
        s.graphManager = PraghGraphManager.class.getName();
        s.graphs = new HashMap<>(Map.of("graph", PraghGraphManager.HANDED_OVER + handOver));
        s.scriptEngines = new HashMap<>();
        s.scriptEngines.put(SafeAuthorizer.GREMLIN_LANG, new Settings.ScriptEngineSettings());
        if (options.allowGroovy) {
            s.scriptEngines.put("gremlin-groovy", new Settings.ScriptEngineSettings());
        }
        s.serializers = new ArrayList<>(List.of(
            serializer(GraphBinaryMessageSerializerV1.class.getName()),
            serializer(GraphSONMessageSerializerV3.class.getName())));
        s.authorization.authorizer = SafeAuthorizer.class.getName();
        s.authorization.config = new HashMap<>(Map.of(SafeAuthorizer.ALLOW_GROOVY, options.allowGroovy));
        if (options.allowIo != null) {
            s.authorization.config.put(SafeAuthorizer.ALLOW_IO, options.allowIo.getPath());
        }
        if (options.credentials != null) {
            PasswordFileAuthenticator.read(options.credentials.toPath()); // a bad file fails here, naming its line
            s.authentication.authenticator = PasswordFileAuthenticator.class.getName();
            s.authentication.config = new HashMap<>(Map.of(PasswordFileAuthenticator.PASSWORD_FILE,
                options.credentials.getPath()));
            if (options.peerPassword != null) {
                s.authentication.config.put(PasswordFileAuthenticator.PEER_PASSWORD, options.peerPassword);
            }
        }
        return s;
    }

    private static Settings.SerializerSettings serializer(final String className) {
        final Settings.SerializerSettings s = new Settings.SerializerSettings();
        s.className = className;
        s.config = new HashMap<>();
        return s;
    }

    public PraghGraph graph() {
        return graph;
    }

    @Override
    public void close() throws Exception {
        try {
            START_STOP.readLock().lock();
            try {
                server.stop().get(30, TimeUnit.SECONDS);
            } finally {
                START_STOP.readLock().unlock();
            }
        } finally {
            events.close();
            graph.close();
        }
    }
}
