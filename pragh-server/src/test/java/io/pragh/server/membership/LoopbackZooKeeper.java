package io.pragh.server.membership;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Map;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;

/**
 * Curator's in-process ZooKeeper on a free port of 127.0.0.1 only, with a short tick for fast session expiry, and
 * sessions of up to {@link #MAX_SESSION} for the tests that wait for none to expire.
 */
public final class LoopbackZooKeeper implements AutoCloseable {
    /**
     * The longest session this ZooKeeper grants (ZooKeeper's default, 20 ticks, would be 10 s). A ZooKeeper client
     * pings after a third of its session unheard and the server ends the session after a whole one, so a process
     * (or this ZooKeeper, in the test's JVM) starved for two thirds of it loses its session and its machine halts:
     * on this shared 2-core host, in a full pragh-server run at load ~20, server processes went 7.5 s unheard and lost
     * 8 s sessions. Tests that wait for no session to expire use {@link #LONG_SESSION}.
     */
    public static final Duration MAX_SESSION = Duration.ofSeconds(60);
    /** The session of tests that wait for none to expire (a cluster file's {@code membership.sessionTimeout}). */
    public static final String LONG_SESSION = MAX_SESSION.toSeconds() + "s";

    private final TestingServer server;

    private LoopbackZooKeeper(TestingServer server) {
        this.server = server;
    }

    public static LoopbackZooKeeper start() {
        System.setProperty("zookeeper.admin.enableServer", "false");
        // A 500 ms tick allows sessions from 1 s, short enough that tests see expiry; up to MAX_SESSION, long enough
        // that a machine starved by a loaded host (a CPU hog beside the suite) keeps its session.
        InstanceSpec spec = new InstanceSpec(null, -1, -1, -1, true, -1, 500, -1,
            Map.of("clientPortAddress", "127.0.0.1", "maxSessionTimeout", Long.toString(MAX_SESSION.toMillis())),
            "127.0.0.1");
        try {
            return new LoopbackZooKeeper(new TestingServer(spec, true));
        } catch (Exception e) {
            throw new IllegalStateException("cannot start the test ZooKeeper: " + e, e);
        }
    }

    /** {@code 127.0.0.1:port}. */
    public String connectString() {
        return "127.0.0.1:" + server.getPort();
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
