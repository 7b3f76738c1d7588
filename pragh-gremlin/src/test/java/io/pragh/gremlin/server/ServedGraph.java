package io.pragh.gremlin.server;

import io.pragh.gremlin.structure.PraghGraph;
import io.pragh.gremlin.structure.TestGraphs;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** A PraghServer on a free 127.0.0.1 port over a small test cluster, for end-to-end tests. */
final class ServedGraph implements AutoCloseable {
    final PraghServer server;
    final PraghGraph graph;
    final int port;

    ServedGraph(final ServeOptions options) throws Exception {
        options.host = "127.0.0.1";
        options.port = freePort();
        this.port = options.port;
        // As ./pragh serve: split migration on, with a short interval so values move while the test reads them.
        final org.apache.commons.configuration2.Configuration conf = TestGraphs.configuration();
        conf.setProperty(io.pragh.gremlin.structure.EmbeddedGraphStore.MIGRATION, true);
        conf.setProperty(io.pragh.gremlin.structure.EmbeddedGraphStore.MIGRATION_INTERVAL_MILLIS, 200);
        this.graph = PraghGraph.open(conf);
        this.server = PraghServer.start(graph, options);
    }

    ServedGraph() throws Exception {
        this(new ServeOptions());
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return socket.getLocalPort();
        }
    }

    @Override
    public void close() throws Exception {
        server.close();
    }
}
