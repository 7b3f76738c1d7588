package io.pragh.bench.extension;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.util.internal.logging.InternalLoggerFactory;
import io.netty.util.internal.logging.JdkLoggerFactory;
import io.pragh.bench.shard.ShardAccessCounts;
import io.pragh.bench.shard.ShardMover;
import io.pragh.bench.shard.ShardPage;
import io.pragh.bench.shard.ShardPlacement;
import io.pragh.fabric.FabricStats;
import io.pragh.keys.KeyLayout;
import io.pragh.server.cli.LocalCluster;
import io.pragh.server.config.ClusterConfig;
import io.pragh.server.node.ServerNode;
import io.pragh.server.rpc.ClientException;
import io.pragh.server.rpc.MachineClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shard baseline across server processes running the bench extension (three nodes in this JVM, each on its own
 * loopback ports, no membership): per-shard access counts gathered over the client ports give the plan, and the same
 * {@link ShardMover} that moves shards within one process moves them between the nodes through
 * {@link ClientShardHosts}; afterwards every key reads its value everywhere and the moved keys live at the reader.
 */
@Timeout(120)
class ShardMovesAcrossServersTest {
    private static final int MACHINES = 3;
    private static final int SHARDS_PER_MACHINE = 4;

    @TempDir
    Path dir;

    @BeforeAll
    static void nettyLogsToJdk() {
        InternalLoggerFactory.setDefaultFactory(JdkLoggerFactory.INSTANCE);
    }

    /**
     * A small local cluster file with the bench extension and its shard placement; automatic split migration is kept
     * quiet (no reports).
     */
    private ClusterConfig shardCluster(int machines) throws IOException {
        LocalCluster.create(dir, LocalCluster.Settings.small(machines).withSync("none"));
        String yaml = Files.readString(dir.resolve(LocalCluster.CONFIG), StandardCharsets.UTF_8)
            + "extensions: [bench]\n"
            + "placement: {kind: shards, shardsPerMachine: " + SHARDS_PER_MACHINE + "}\n"
            + "policy: {instantReportRate: 0, reportInterval: 1h}\n";
        return ClusterConfig.parse(yaml, "cluster.yaml", dir);
    }

    /**
     * Starts every machine at once: a starting machine waits for its reachable peers to acknowledge its restart, so
     * one by one the first would wait out its peers' absence.
     */
    private static List<ServerNode> startAll(ClusterConfig config) {
        List<java.util.concurrent.CompletableFuture<ServerNode>> starting = new ArrayList<>();
        for (int i = 0; i < config.machineCount(); i++) {
            int id = i;
            starting.add(java.util.concurrent.CompletableFuture.supplyAsync(() -> ServerNode.start(config, id)));
        }
        List<ServerNode> nodes = new ArrayList<>();
        RuntimeException failed = null;
        for (java.util.concurrent.CompletableFuture<ServerNode> f : starting) {
            try {
                nodes.add(f.join());
            } catch (RuntimeException e) {
                failed = e;
            }
        }
        if (failed != null) {
            nodes.forEach(ServerNode::close);
            throw failed;
        }
        return nodes;
    }

    private static byte[] value(long vid) {
        return ("vertex-" + vid).getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void shardsMoveBetweenServersToTheirBusiestReader() throws IOException {
        ClusterConfig config = shardCluster(MACHINES);
        List<ServerNode> nodes = startAll(config);
        List<MachineClient> clients = new ArrayList<>();
        try {
            for (int i = 0; i < MACHINES; i++) {
                clients.add(new MachineClient(nodes.get(i).clientAddress(), 10_000, config.secret(), null));
            }
            List<BenchClient> bench = clients.stream().map(BenchClient::new).toList();
            ShardPlacement table = new ShardPlacement(MACHINES, SHARDS_PER_MACHINE);
            List<Long> keys = new ArrayList<>();
            for (long v = 0; v < 120; v++) {
                long k = KeyLayout.key(v, 0, KeyLayout.VERTEX);
                keys.add(k);
                clients.get((int) (v % MACHINES)).put(k, value(v));
            }
            int reader = 2;
            for (BenchClient c : bench) {
                c.trackShards(true);
            }
            for (int round = 0; round < 2; round++) {
                for (long k : keys) {
                    assertArrayEquals(value(KeyLayout.vid(k)), clients.get(reader).get(k));
                }
            }
            clients.get(0).get(keys.get(0));
            for (BenchClient c : bench) {
                c.trackShards(false);
            }
            clients.get(reader).get(keys.get(1)); // not counted: tracking is off

            ShardAccessCounts counts = new ShardAccessCounts(table);
            for (int m = 0; m < MACHINES; m++) {
                long[] perShard = bench.get(m).shardCounts();
                assertEquals(table.shards(), perShard.length);
                for (int s = 0; s < perShard.length; s++) {
                    counts.add(s, m, perShard[s]);
                }
            }
            long[] keysOfShard = new long[table.shards()];
            for (long k : keys) {
                keysOfShard[table.shardOf(k)]++;
            }
            long awayKeys = 0;
            for (int s = 0; s < table.shards(); s++) {
                assertEquals(2 * keysOfShard[s], counts.count(s, reader), "every read of the reader counted, shard " + s);
                assertEquals(s == table.shardOf(keys.get(0)) ? 1 : 0, counts.count(s, 0));
                awayKeys += table.owner(s) == reader ? 0 : keysOfShard[s];
            }
            int[] plan = counts.plan();
            for (int s = 0; s < plan.length; s++) {
                assertEquals(reader, plan[s], "shard " + s + " goes to its busiest reader");
            }

            ShardMover mover = new ShardMover(new ClientShardHosts(bench), table, 20);
            assertEquals((MACHINES - 1) * SHARDS_PER_MACHINE, mover.apply(plan));
            assertEquals(awayKeys, mover.keysMoved());
            assertTrue(mover.bytesMoved() >= awayKeys * value(0).length);

            for (int m = 0; m < MACHINES; m++) {
                assertEquals(m == reader ? keys.size() : 0, clients.get(m).ping().homeKeys(),
                    "machine " + m + " holds exactly the shards it owns now");
                ShardPlacement own = (ShardPlacement) nodes.get(m).machine().store().placement();
                for (int s = 0; s < table.shards(); s++) {
                    assertEquals(reader, own.owner(s), "machine " + m + " routes shard " + s + " to the reader");
                }
            }
            FabricStats stats = nodes.get(reader).machine().store().stats();
            FabricStats.Snapshot before = stats.snapshot();
            for (long k : keys) {
                assertArrayEquals(value(KeyLayout.vid(k)), clients.get(reader).get(k));
            }
            assertEquals(0, stats.snapshot().minus(before).remoteOps(), "the reader reads every key locally now");
            for (long k : keys) {
                for (MachineClient c : clients) {
                    assertArrayEquals(value(KeyLayout.vid(k)), c.get(k), "key " + k + " on " + c.address());
                }
            }
            long moved = keys.get(3);
            clients.get(0).put(moved, value(1234));
            assertArrayEquals(value(1234), clients.get(1).get(moved), "updates reach the new owner");
        } finally {
            for (MachineClient c : clients) {
                c.close();
            }
            for (ServerNode n : nodes) {
                n.close();
            }
        }
    }

    @Test
    void shardOpsRefuseWhatWouldBreakAMove() throws IOException {
        ClusterConfig config = shardCluster(MACHINES);
        List<ServerNode> nodes = startAll(config);
        try {
            try (MachineClient m0 = new MachineClient(nodes.get(0).clientAddress(), 10_000, config.secret(), null)) {
                long k = KeyLayout.key(7, 0, KeyLayout.VERTEX);
                m0.put(k, value(7));
                ShardPlacement table = new ShardPlacement(MACHINES, SHARDS_PER_MACHINE);
                int shard = table.shardOf(k);
                int owner = table.owner(shard);
                try (MachineClient ownerClient = new MachineClient(nodes.get(owner).clientAddress(), 10_000,
                        config.secret(), null);
                     MachineClient otherClient = new MachineClient(nodes.get((owner + 1) % MACHINES).clientAddress(),
                        10_000, config.secret(), null)) {
                    BenchClient o = new BenchClient(ownerClient);
                    BenchClient other = new BenchClient(otherClient);
                    assertRefused(() -> o.unloadShard(shard), "still owns shard " + shard);
                    assertRefused(() -> other.exportShard(shard, ShardPage.START, 1000), "does not own shard");
                    assertRefused(() -> o.exportShard(table.shards(), ShardPage.START, 1000), "does not exist");
                    assertRefused(() -> o.assignShard(0, MACHINES), "is not a machine");
                    ShardPage page = o.exportShard(shard, ShardPage.START, 1 << 20);
                    assertEquals(ShardPage.END, page.next());
                    assertTrue(page.records() >= 1);
                    assertRefused(() -> o.importShard(page), "already has a record");
                    assertArrayEquals(value(7), ownerClient.get(k), "the connection and the key survived the refusals");
                    assertEquals(table.shards(), o.shardCounts().length);
                }
            }
        } finally {
            for (ServerNode n : nodes) {
                n.close();
            }
        }
    }

    @Test
    void aServerWithoutTheBenchExtensionRefusesEveryBenchOp() {
        LocalCluster local = LocalCluster.create(dir, LocalCluster.Settings.small(1));
        try (ServerNode node = ServerNode.start(local.config(), 0);
             MachineClient m = new MachineClient(node.clientAddress(), 10_000, local.config().secret(), null)) {
            BenchClient c = new BenchClient(m);
            String why = "no extension this server runs serves it (extensions: none)";
            assertEveryShardOpRefused(c, why);
            assertRefused(() -> c.addEdgeCapped(1, 0, 2, 4), why);
            assertRefused(() -> c.kHopCount(1, 0, 2, 10, true), why);
            assertEquals(0, m.ping().machine(), "the connection stays open");
        }
    }

    @Test
    void aHashPlacedMachineWithTheExtensionRefusesEveryShardOp() {
        ClusterConfig config = LocalCluster.create(dir, LocalCluster.Settings.small(1)
            .withSection("extensions", "[bench]")).config();
        try (ServerNode node = ServerNode.start(config, 0);
             MachineClient m = new MachineClient(node.clientAddress(), 10_000, config.secret(), null)) {
            BenchClient c = new BenchClient(m);
            String why = "machine 0 does not use shard placement";
            assertEveryShardOpRefused(c, why);
            assertEquals(0, m.ping().machine(), "the connection stays open");
        }
    }

    @Test
    void aShardPlacedMachineRefusesToStartOverAnEarlierRunsRecords() throws IOException {
        ClusterConfig config = shardCluster(1);
        try (ServerNode node = ServerNode.start(config, 0);
             MachineClient c = new MachineClient(node.clientAddress(), 10_000, config.secret(), null)) {
            for (long v = 0; v < 30; v++) {
                c.put(KeyLayout.key(v, 0, KeyLayout.VERTEX), value(v));
            }
        }
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> ServerNode.start(config, 0));
        assertTrue(e.getMessage().contains("placement 'shards'") && e.getMessage().contains("empty data directory"),
            e.getMessage());
    }

    private static void assertEveryShardOpRefused(BenchClient c, String why) {
        assertRefused(() -> c.trackShards(true), why);
        assertRefused(c::shardCounts, why);
        assertRefused(() -> c.exportShard(0, 0, 100), why);
        assertRefused(() -> c.importShard(new ShardPage(ShardPage.END, new byte[4])), why);
        assertRefused(() -> c.assignShard(0, 0), why);
        assertRefused(() -> c.unloadShard(0), why);
    }

    private static void assertRefused(Runnable call, String reasonPart) {
        ClientException e = assertThrows(ClientException.class, call::run);
        assertFalse(e.retryable(), e.getMessage());
        assertTrue(e.getMessage().contains(reasonPart), e.getMessage());
    }
}
