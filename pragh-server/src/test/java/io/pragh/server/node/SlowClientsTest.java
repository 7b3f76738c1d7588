package io.pragh.server.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.util.internal.logging.InternalLoggerFactory;
import io.netty.util.internal.logging.JdkLoggerFactory;
import io.pragh.server.cli.LocalCluster;
import io.pragh.server.config.ClusterConfig;
import io.pragh.server.metrics.Scrape;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * 200 connections that hold a port without using it (half silent, half trickling a byte at a time: slowloris) are
 * all closed on each port of a server machine that strangers can reach: the fabric and client ports (the handshake
 * deadline: no one who has not proven the cluster secret stays) and the metrics port ({@code limits.idleTimeout},
 * 1 s here: a whole request by then). Each port gets a minute for the closes, so a slow machine only makes it slower;
 * after them the machine still serves.
 */
@Timeout(300)
class SlowClientsTest {
    private static final int CONNECTIONS = 200;

    @TempDir
    java.nio.file.Path dir;

    @Test
    void slowlorisConnectionsAreClosedOnTheFabricClientAndMetricsPorts() throws Exception {
        InternalLoggerFactory.setDefaultFactory(JdkLoggerFactory.INSTANCE);
        LocalCluster local = LocalCluster.create(dir, LocalCluster.Settings.small(1)
            .withSection("limits", "{idleTimeout: 1s}"));
        ClusterConfig config = local.config();
        try (ServerNode node = ServerNode.start(config, 0)) {
            InetSocketAddress fabric = config.machine(0).fabricAddress();
            for (InetSocketAddress port : List.of(fabric, node.clientAddress(), node.metricsAddress())) {
                assertEquals(0, stillOpenAfterAMinute(port, port == node.metricsAddress()
                    ? "GET /metrics HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII) : new byte[0]), "port " + port);
            }
            assertTrue(Scrape.of(node.metricsAddress()).text().contains("pragh_keys_homed"), "metrics still served");
            assertEquals(0, local.awaitServing(0, 60_000).homeKeys(), "clients still served");
        }
    }

    /** Opens the connections, trickles a byte to every other one, and counts those still open after 60 s. */
    private static int stillOpenAfterAMinute(InetSocketAddress port, byte[] opening) throws Exception {
        List<Socket> sockets = SlowClients.connect(port, CONNECTIONS);
        for (int i = 1; i < CONNECTIONS; i += 2) {
            sockets.get(i).getOutputStream().write(opening);
        }
        return SlowClients.stillOpenAfter(sockets, 60, (i, out) -> {
            if (i % 2 == 1) {
                out.write('x');
            }
        });
    }
}
