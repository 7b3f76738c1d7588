package io.pragh.gremlin.distributed;

import io.netty.util.internal.logging.InternalLoggerFactory;
import io.netty.util.internal.logging.JdkLoggerFactory;
import io.pragh.address.Address;
import io.pragh.gremlin.analytics.GraphAlgorithms;
import io.pragh.gremlin.analytics.ReferenceAlgorithms;
import io.pragh.gremlin.storage.GraphKeys;
import io.pragh.gremlin.structure.PraghGraph;
import io.pragh.server.cli.LocalCluster;
import io.pragh.server.config.ClusterConfig;
import io.pragh.server.config.MachineConfig;
import io.pragh.server.node.ServerNode;
import org.apache.commons.configuration2.BaseConfiguration;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code g.call("pragh.bfs")} and {@code g.call("pragh.pagerank")} on the front end of server machine 0 of a cluster
 * of two compute server machines and a memory node ({@code role: memory}) over the TCP fabric, after a tier round
 * of each compute machine spilled its lists there: every list not on machine 0 (homed on machine 1, or spilled) is
 * read in chunked READs per host, not one by one, and both answer what a plain in-memory BFS and PageRank answer.
 */
// A hang bound only: beside a CPU hog a cluster test took 93 s, 1-5 s quietly (session 16).
@Timeout(300)
class GraphAlgorithmsOverMemoryNodeTest {
    private static final int VERTICES = 60;
    private static final int EDGES = 200;

    @TempDir
    Path dir;

    @Test
    void servicesOnAServerFrontEndReadListsOfTheOtherMachineAndTheMemoryNodeInChunks() throws Exception {
        InternalLoggerFactory.setDefaultFactory(JdkLoggerFactory.INSTANCE);
        final LocalCluster local = LocalCluster.create(dir, LocalCluster.Settings.small(3)
            .withGremlinPortBase(LocalCluster.Settings.NO_GREMLIN).withSync("none")
            .withSection("policy", "{trigger: manual}"));
        final Path file = dir.resolve(LocalCluster.CONFIG);
        // Machine 2 becomes the memory node; rounds run only when the test runs them (the first is an hour away).
        final String yaml = Files.readString(file).replaceFirst("(- \\{id: 2, host: 127\\.0\\.0\\.1, fabricPort: \\d+),"
            + " clientPort: \\d+", "$1, role: memory") + "\ntiering: {localBudgetPerMachine: 1024, interval: 1h}\n";
        assertTrue(yaml.contains("role: memory"), "the cluster file's machine 2 was not rewritten:\n" + yaml);
        Files.writeString(file, yaml);
        final ClusterConfig config = ClusterConfig.load(file);
        final ServerNode[] nodes = new ServerNode[3];
        try {
            for (int i = 0; i < 3; i++) {
                nodes[i] = ServerNode.start(config, i);
            }
            final List<InetSocketAddress> clients = new ArrayList<>();
            final List<String> fabric = new ArrayList<>();
            for (final MachineConfig m : config.machines()) {
                clients.add(m.clientPort() == MachineConfig.NO_CLIENT_PORT ? null
                    : new InetSocketAddress(m.host(), m.clientPort()));
                fabric.add(m.host() + ":" + m.fabricPort());
            }
            final ClusterGraphStore store = new ClusterGraphStore(nodes[0].machine(), clients, fabric, 2, 10_000,
                config.secret(), config.tls());
            try (PraghGraph graph = PraghGraph.open(new BaseConfiguration(), store)) {
                final Random random = new Random(18);
                final long[] vids = new long[VERTICES];
                final Vertex[] vs = new Vertex[VERTICES];
                for (int i = 0; i < VERTICES; i++) {
                    vs[i] = graph.addVertex();
                    vids[i] = PraghGraph.toVid(vs[i].id());
                }
                final Map<Long, List<Long>> out = new HashMap<>();
                for (int e = 0; e < EDGES; e++) {
                    final int a = random.nextInt(VERTICES - 5);
                    final int b = random.nextInt(VERTICES);
                    vs[a].addEdge(e % 3 == 0 ? "rail" : "road", vs[b]);
                    out.computeIfAbsent(vids[a], k -> new ArrayList<>()).add(vids[b]);
                }
                for (int m = 0; m < 2; m++) {
                    nodes[m].tiering().tiering().runRound();
                }
                final int notHere = lists(nodes, host -> host != 0);
                final int spilled = lists(nodes, host -> host == 2);
                assertTrue(spilled > VERTICES / 2, "most lists should be on the memory node: " + spilled);
                final GraphAlgorithms algorithms = GraphAlgorithms.register(graph);

                final Map<?, ?> ranks = (Map<?, ?>) ((Map<?, ?>) graph.traversal().call("pragh.pagerank",
                    Map.of("iterations", 10, "damping", 0.85)).next()).get("ranks");
                final Map<Long, Double> expected = ReferenceAlgorithms.pageRank(out, vids, 10, 0.85);
                for (final long v : vids) {
                    assertEquals(expected.get(v), (Double) ranks.get(v), 1e-12, "vertex " + v);
                }
                assertEquals(notHere, algorithms.farValues(), "PageRank reads every list not on machine 0 once");
                assertTrue(algorithms.farReads() * 8 <= notHere, algorithms.farReads() + " READs for " + notHere
                    + " lists on machine 1 and the memory node: not in chunks");

                final long readsBefore = algorithms.farReads();
                final Map<?, ?> bfs = (Map<?, ?>) graph.traversal().call("pragh.bfs", Map.of("source", vids[0])).next();
                assertEquals(ReferenceAlgorithms.bfs(out, vids[0]), new HashMap<>((Map<?, ?>) bfs.get("distances")));
                final long levels = (Long) bfs.get("depth") + 1;
                // A READ per host (machine 1, the memory node) and level at most, however many lists a level has.
                assertTrue(algorithms.farReads() - readsBefore <= 2 * levels, (algorithms.farReads() - readsBefore)
                    + " READs over " + levels + " BFS levels");
            }
        } finally {
            for (int i = nodes.length - 1; i >= 0; i--) {
                if (nodes[i] != null) {
                    nodes[i].close();
                }
            }
        }
    }

    /** OUT lists of the compute machines whose value's host {@code where} accepts (0, 1: compute, 2: memory node). */
    private static int lists(final ServerNode[] nodes, final java.util.function.IntPredicate where) {
        final int[] n = {0};
        for (int m = 0; m < 2; m++) {
            final int home = m;
            nodes[m].machine().store().keys().forEach((key, address, slot) -> {
                if (GraphKeys.kind(key) == GraphKeys.OUT && !Address.isNone(address) && !Address.isTombstone(address)
                    && where.test(Address.host(address, home))) {
                    n[0]++;
                }
            });
        }
        return n[0];
    }
}
