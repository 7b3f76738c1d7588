package io.pragh.server.membership;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;

/** Curator's in-process ZooKeeper on a free port of 127.0.0.1 only, with a short tick for fast session expiry. */
public final class LoopbackZooKeeper implements AutoCloseable {
    private final TestingServer server;

    private LoopbackZooKeeper(TestingServer server) {
        this.server = server;
    }

    public static LoopbackZooKeeper start() {
        System.setProperty("zookeeper.admin.enableServer", "false");
        // A 500 ms tick allows sessions of 1 to 10 s: short enough that tests see expiry, long enough that a
        // machine starved by a loaded host (a CPU hog beside the suite) keeps its session.
        InstanceSpec spec = new InstanceSpec(null, -1, -1, -1, true, -1, 500, -1,
            Map.of("clientPortAddress", "127.0.0.1"), "127.0.0.1");
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
