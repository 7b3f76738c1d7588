package io.pragh.server.node;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.util.internal.logging.InternalLoggerFactory;
import io.netty.util.internal.logging.JdkLoggerFactory;
import io.pragh.fabric.FabricKind;
import io.pragh.fabric.FabricProviders;
import io.pragh.fabric.tcp.TcpFabricProvider;
import io.pragh.fabric.verbs.SimulatedNic;
import io.pragh.fabric.verbs.VerbsFabric;
import io.pragh.fabric.verbs.VerbsFabricProvider;
import io.pragh.keys.KeyLayout;
import io.pragh.migration.Migrator;
import io.pragh.rdma.jni.NativeLibrary;
import io.pragh.server.cli.LocalCluster;
import io.pragh.server.config.ClusterConfig;
import io.pragh.server.rpc.ClusterClient;
import io.pragh.server.rpc.MachineStats;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fabric.kind: verbs} in a cluster file reaches the verbs fabric in a server: two server nodes in this JVM,
 * each choosing its fabric by kind among providers, get a {@link VerbsFabric} whose device is the simulated NIC the
 * verbs fabric's own tests use, and serve clients over it (remote reads, a migration's CAS and writes, forwarded
 * updates as messages, a traversal). And where verbs cannot run, a server asked for it does not start, saying why.
 */
// A hang bound only: beside a CPU hog a cluster test took 93 s, 1-5 s quietly (session 16).
@Timeout(300)
class ServerOnVerbsTest {
    private static final String VERBS = "fabric: {kind: verbs, connectTimeout: 2s, requestTimeout: 2s}";

    @TempDir
    Path dir;

    @BeforeAll
    static void nettyLogsToJdk() {
        InternalLoggerFactory.setDefaultFactory(JdkLoggerFactory.INSTANCE);
    }

    /**
     * A two-machine cluster file of this directory, with its fabric section replaced by {@code fabric}. The policy's
     * trigger is manual: the tests count what their own operations did (a forwarded update, a migration), which the
     * split policy's own moves would change.
     */
    private ClusterConfig cluster(String fabric) throws IOException {
        return cluster(fabric, false);
    }

    /** As {@link #cluster(String)}, in mutual TLS when {@code tls}. */
    private ClusterConfig cluster(String fabric, boolean tls) throws IOException {
        LocalCluster.create(dir, LocalCluster.Settings.small(2).withSection("policy", "{trigger: manual}"), tls);
        Path file = dir.resolve(LocalCluster.CONFIG);
        String yaml = Files.readString(file, StandardCharsets.UTF_8);
        Files.writeString(file, yaml.replaceFirst("(?m)^fabric: .*$", fabric), StandardCharsets.UTF_8);
        return ClusterConfig.load(file);
    }

    @Test
    void aServerConfiguredForVerbsServesOverTheSimulatedNic() throws IOException {
        Assumptions.assumeTrue(NativeLibrary.status().loaded(),
            () -> "the simulated NIC keeps descriptors in native buffers: " + NativeLibrary.status().problem());
        ClusterConfig config = cluster(VERBS);
        assertEquals(FabricKind.VERBS, config.fabric().kind());
        SimulatedNic nic = new SimulatedNic();
        // Every provider a server finds, with the verbs one seeing the simulated NIC as this host's device.
        FabricProviders fabrics = FabricProviders.of(List.of(nic.provider(), new TcpFabricProvider()));
        ServerNode[] nodes = new ServerNode[2];
        try {
            for (int i = 0; i < nodes.length; i++) {
                nodes[i] = ServerNode.start(config, i, () -> { }, fabrics);
                VerbsFabric fabric = assertInstanceOf(VerbsFabric.class, nodes[i].fabric());
                assertEquals("verbs " + config.fabricAddresses().get(i) + " on simulated NIC of "
                    + config.fabricAddresses().get(i), fabric.describe(), "attached through the simulated NIC");
                assertTrue(nodes[i].describe().contains("serves: fabric verbs "), nodes[i].describe());
            }
            try (ClusterClient c = LocalCluster.open(dir).client(10_000)) {
                long key = KeyLayout.key(5, 0, KeyLayout.VERTEX);
                byte[] five = "five".getBytes(StandardCharsets.UTF_8);
                c.put(key, five);
                int home = c.home(key);
                int away = 1 - home;
                MachineStats before = c.machine(away).stats();
                assertArrayEquals(five, c.machine(away).get(key), "read from the home's memory over verbs");
                assertTrue(c.machine(away).stats().fabric().remoteReads() > before.fabric().remoteReads(),
                    "a GET away from home is a one-sided read");
                assertEquals(Migrator.Outcome.MIGRATED, c.machine(away).migrate(key));
                long forwarded = c.machine(home).stats().forwardedUpdates();
                byte[] six = "six".getBytes(StandardCharsets.UTF_8);
                c.put(key, six);
                assertEquals(forwarded + 1, c.machine(home).stats().forwardedUpdates(),
                    "the home forwards the update to the value's new host as a message");
                assertArrayEquals(six, c.machine(home).get(key));
                c.addEdge(1, 3, 2);
                c.addEdge(2, 3, 7);
                assertArrayEquals(new long[] {7}, c.machine(away).kHop(1, 3, 2, 10));
            }
        } finally {
            for (ServerNode n : nodes) {
                if (n != null) {
                    n.close();
                }
            }
        }
    }

    @Test
    void verbsWhereItCannotRunFailsTheStartNamingWhy() throws IOException {
        ClusterConfig config = cluster(VERBS);
        // This host's own verbs provider: no RDMA device here (and perhaps no native library either).
        VerbsFabricProvider here = new VerbsFabricProvider();
        Assumptions.assumeFalse(here.availability().available(), "this host has a usable RDMA device");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> ServerNode.start(config, 0,
            () -> { }, FabricProviders.of(List.of(here, new TcpFabricProvider()))));
        assertEquals("fabric 'verbs' was requested, but it cannot run on this host: " + here.availability().reason()
            + "; use 'auto' or another fabric here", e.getMessage());
        String reason = here.availability().reason();
        assertTrue(reason.startsWith("no usable RDMA device: ")
            || reason.startsWith("the native verbs library is not loaded: "), reason);
    }

    /** The NIC serves one-sided operations in the clear: a cluster that asks for TLS is not given verbs. */
    @Test
    @Timeout(600) // its TLS cluster runs keytool five times, five new JVMs: 93 s beside a CPU hog once
    void verbsIsRefusedForAClusterThatRequiresTls() throws IOException {
        ClusterConfig config = cluster(VERBS, true);
        FabricProviders fabrics = FabricProviders.of(List.of(new SimulatedNic().provider(), new TcpFabricProvider()));
        IllegalStateException e = assertThrows(IllegalStateException.class,
            () -> ServerNode.start(config, 0, () -> { }, fabrics));
        assertEquals("fabric 'verbs' was requested, but 'verbs' cannot run in TLS, which this cluster requires; use a "
            + "fabric that can (tcp)", e.getMessage());
    }

    @Test
    void autoWithoutADeviceFallsBackToTcpAndServes() throws IOException {
        ClusterConfig config = cluster("fabric: {kind: auto, connectTimeout: 500ms, requestTimeout: 1s}");
        VerbsFabricProvider here = new VerbsFabricProvider();
        Assumptions.assumeFalse(here.availability().available(), "this host has a usable RDMA device");
        try (ServerNode node = ServerNode.start(config, 0, () -> { },
            FabricProviders.load(ServerNode.class.getClassLoader()))) {
            assertEquals("tcp", node.fabric().name());
            assertTrue(node.describe().contains("serves: fabric tcp /127.0.0.1:"), node.describe());
        }
    }
}
