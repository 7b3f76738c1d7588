package io.pragh.gremlin.distributed;

import io.netty.util.internal.logging.InternalLoggerFactory;
import io.netty.util.internal.logging.JdkLoggerFactory;
import io.pragh.server.cli.LocalCluster;
import io.pragh.server.config.ClusterConfig;
import io.pragh.server.node.ServerNode;
import io.pragh.server.node.SlowClients;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.apache.tinkerpop.gremlin.driver.remote.DriverRemoteConnection;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;

import static org.apache.tinkerpop.gremlin.process.traversal.AnonymousTraversalSource.traversal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A cluster machine's Gremlin port takes its limits from the cluster file's {@code limits} section, as
 * {@code ./pragh serve} takes them from its flags: a request over {@code maxFrameBytes} is answered with an error
 * naming the limit, and silent connections are closed after {@code idleTimeout}.
 */
@Timeout(300)
class ClusterGremlinLimitsTest {
    @TempDir
    Path dir;

    @Test
    void theGremlinPortKeepsTheClusterFilesLimits() throws Exception {
        InternalLoggerFactory.setDefaultFactory(JdkLoggerFactory.INSTANCE);
        final int gremlinPort;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            gremlinPort = s.getLocalPort();
        }
        final ClusterConfig config = LocalCluster.create(dir, LocalCluster.Settings.small(1)
            .withGremlinPortBase(gremlinPort).withSection("limits", "{idleTimeout: 1s, maxFrameBytes: 64KiB}")).config();
        try (ServerNode ignored = ServerNode.start(config, 0)) {
            final Cluster cluster = Cluster.build("127.0.0.1").port(gremlinPort).create();
            try {
                final GraphTraversalSource g = traversal().with(DriverRemoteConnection.using(cluster, "g"));
                // Random text: had the port agreed to compress frames, a repeated letter would shrink below the limit.
                final String big = new java.util.Random(7).ints(100_000, 'a', 'z' + 1)
                    .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString();
                final Exception e = assertThrows(Exception.class, () -> g.addV("big").property("p", big).iterate());
                assertTrue(String.valueOf(e.getMessage()).contains("frame limit of 65536 bytes")
                    || String.valueOf(e.getCause()).contains("frame limit of 65536 bytes"), e.toString());
                assertEquals(0L, (long) g.V().count().next(), "refused, and the client serves on");
            } finally {
                cluster.close();
            }
            assertEquals(0, SlowClients.stillOpenAfter(
                SlowClients.connect(new InetSocketAddress("127.0.0.1", gremlinPort), 50), 60, null));
        }
    }
}
