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
        // A 250 ms tick allows sessions of 0.5 to 5 s.
        InstanceSpec spec = new InstanceSpec(null, -1, -1, -1, true, -1, 250, -1,
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
