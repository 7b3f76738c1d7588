package io.pragh.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.pragh.fabric.inprocess.InProcessFabric;
import io.pragh.fabric.inprocess.InProcessFabricProvider;
import java.net.InetSocketAddress;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** The one selection rule, pinned branch by branch with providers whose availability the test decides. */
class FabricProvidersTest {
    /** A provider of {@code kind} that can or cannot run, as told; builds an in-process fabric either way. */
    record Fake(FabricKind kind, Availability availability, boolean supportsTls) implements FabricProvider {
        static Fake up(FabricKind kind, String why) {
            return new Fake(kind, Availability.available(why), kind == FabricKind.TCP);
        }

        static Fake down(FabricKind kind, String why) {
            return new Fake(kind, Availability.unavailable(why), kind == FabricKind.TCP);
        }

        @Override
        public Fabric create(FabricSpec spec) {
            return new InProcessFabric(spec.machineCount(), 0);
        }
    }

    private static final Fake VERBS_UP = Fake.up(FabricKind.VERBS, "RDMA device mlx5_0 has 1 active port(s)");
    private static final Fake VERBS_DOWN = Fake.down(FabricKind.VERBS, "no usable RDMA device: libibverbs lists no"
        + " device");
    private static final Fake TCP = Fake.up(FabricKind.TCP, "sockets");

    private static FabricProviders of(FabricProvider... providers) {
        return FabricProviders.of(List.of(providers));
    }

    @Test
    void autoTakesVerbsWhereItCanRun() {
        for (Deployment d : Deployment.values()) {
            FabricChoice c = of(VERBS_UP, TCP, new InProcessFabricProvider()).choose(FabricKind.AUTO, d);
            assertEquals(FabricKind.VERBS, c.kind());
            assertFalse(c.fallback());
            assertTrue(c.reason().contains("mlx5_0"), c.reason());
        }
    }

    @Test
    void autoFallsBackToTcpBetweenProcessesAndInProcessWithinOneJvmSayingWhy() {
        FabricProviders p = of(VERBS_DOWN, TCP, new InProcessFabricProvider());
        FabricChoice server = p.choose(FabricKind.AUTO, Deployment.MULTI_PROCESS);
        FabricChoice embedded = p.choose(FabricKind.AUTO, Deployment.EMBEDDED);
        assertEquals(FabricKind.TCP, server.kind());
        assertEquals(FabricKind.IN_PROCESS, embedded.kind());
        assertTrue(server.fallback() && embedded.fallback());
        assertEquals("verbs cannot run here: no usable RDMA device: libibverbs lists no device", server.reason());
        assertEquals("fabric auto for multi-process server: tcp, because verbs cannot run here: no usable RDMA "
            + "device: libibverbs lists no device", FabricProviders.describe(FabricKind.AUTO,
            Deployment.MULTI_PROCESS, server));
    }

    @Test
    void autoWithoutAVerbsProviderSaysWhichModuleWouldBringIt() {
        FabricChoice c = of(TCP).choose(FabricKind.AUTO, Deployment.MULTI_PROCESS);
        assertEquals(FabricKind.TCP, c.kind());
        assertEquals("no provider of fabric 'verbs' is on the class path (it comes with pragh-rdma-jni; found: tcp)",
            c.reason());
    }

    @Test
    void autoDoesNotPickAFabricThatCannotRunInTlsWhenTheClusterRequiresIt() {
        FabricChoice c = of(VERBS_UP, TCP).choose(FabricKind.AUTO, Deployment.MULTI_PROCESS, true);
        assertEquals(FabricKind.TCP, c.kind());
        assertEquals("verbs cannot run in TLS, which this cluster requires", c.reason());
        IllegalStateException e = assertThrows(IllegalStateException.class,
            () -> of(VERBS_UP, TCP).choose(FabricKind.VERBS, Deployment.MULTI_PROCESS, true));
        assertEquals("fabric 'verbs' was requested, but 'verbs' cannot run in TLS, which this cluster requires; use a"
            + " fabric that can (tcp)", e.getMessage());
    }

    @Test
    void askingForVerbsWhereItCannotRunIsAnErrorNamingWhyNeverASubstitution() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
            () -> of(VERBS_DOWN, TCP).choose(FabricKind.VERBS, Deployment.MULTI_PROCESS));
        assertEquals("fabric 'verbs' was requested, but it cannot run on this host: no usable RDMA device: "
            + "libibverbs lists no device; use 'auto' or another fabric here", e.getMessage());
        IllegalStateException absent = assertThrows(IllegalStateException.class,
            () -> of(TCP).choose(FabricKind.VERBS, Deployment.MULTI_PROCESS));
        assertEquals("fabric 'verbs' was requested, but no provider of fabric 'verbs' is on the class path (it comes "
            + "with pragh-rdma-jni; found: tcp)", absent.getMessage());
        FabricChoice ok = of(VERBS_UP).choose(FabricKind.VERBS, Deployment.EMBEDDED);
        assertEquals("requested; RDMA device mlx5_0 has 1 active port(s)", ok.reason());
    }

    @Test
    void explicitKindsAreHonouredAndInProcessCannotSpanProcesses() {
        FabricProviders p = of(VERBS_UP, TCP, new InProcessFabricProvider());
        assertEquals(FabricKind.TCP, p.choose(FabricKind.TCP, Deployment.EMBEDDED).kind());
        assertEquals(FabricKind.IN_PROCESS, p.choose(FabricKind.IN_PROCESS, Deployment.EMBEDDED).kind());
        IllegalStateException e = assertThrows(IllegalStateException.class,
            () -> p.choose(FabricKind.IN_PROCESS, Deployment.MULTI_PROCESS));
        assertEquals("fabric 'in-process' was requested, but 'in-process' cannot connect machines in separate "
            + "processes; use 'auto', 'tcp' or 'verbs' for a multi-process server", e.getMessage());
    }

    @Test
    void aFallbackThatCannotServeEither() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
            () -> of(VERBS_DOWN).choose(FabricKind.AUTO, Deployment.MULTI_PROCESS));
        assertTrue(e.getMessage().startsWith("fabric 'auto' fell back to 'tcp' (verbs cannot run here: no usable "
            + "RDMA device"), e.getMessage());
        assertTrue(e.getMessage().endsWith("but no provider of fabric 'tcp' is on the class path (it comes with "
            + "pragh-server; found: verbs)"), e.getMessage());
    }

    @Test
    void twoProvidersOfOneKindOrOneOfAutoAreRefused() {
        assertThrows(IllegalStateException.class, () -> of(TCP, Fake.up(FabricKind.TCP, "again")));
        assertThrows(IllegalArgumentException.class, () -> of(Fake.up(FabricKind.AUTO, "no")));
    }

    @Test
    void serviceLoaderFindsTheInProcessProviderAndOpenLogsOneLine() {
        FabricProviders found = FabricProviders.load(getClass().getClassLoader());
        assertInstanceOf(InProcessFabricProvider.class, found.provider(FabricKind.IN_PROCESS).orElseThrow());
        Logger log = (Logger) LoggerFactory.getLogger(FabricProviders.class);
        ListAppender<ILoggingEvent> capture = new ListAppender<>();
        capture.start();
        log.addAppender(capture);
        try (Fabric f = of(VERBS_DOWN, TCP).open(FabricKind.AUTO, Deployment.MULTI_PROCESS,
            FabricSpec.of(0, List.of(new InetSocketAddress("127.0.0.1", 7400))))) {
            assertEquals(1, capture.list.size(), "one line per decision");
            assertEquals("fabric auto for multi-process server: tcp, because verbs cannot run here: no usable RDMA "
                + "device: libibverbs lists no device", capture.list.get(0).getFormattedMessage());
            assertEquals(1, ((InProcessFabric) f).machineCount(), "built from the spec");
        } finally {
            log.detachAppender(capture);
        }
    }

    @Test
    void theInProcessProviderTakesItsLatencyFromTheSpecAndAnEmbeddedClusterOpensItsFabricThroughIt() {
        InProcessFabricProvider p = new InProcessFabricProvider();
        try (InProcessFabric plain = (InProcessFabric) p.create(FabricSpec.embedded(2));
             InProcessFabric fast = (InProcessFabric) p.create(FabricSpec.embedded(2).withSetting(
                 InProcessFabricProvider.RemoteLatency.class, new InProcessFabricProvider.RemoteLatency(0)))) {
            assertEquals(InProcessFabric.DEFAULT_REMOTE_LATENCY_NS, plain.remoteLatencyNs());
            assertEquals(0, fast.remoteLatencyNs());
        }
        assertThrows(IllegalArgumentException.class, () -> new InProcessFabricProvider.RemoteLatency(-1));
        try (io.pragh.embedded.EmbeddedCluster c = io.pragh.embedded.EmbeddedCluster.builder().machines(2)
                .workersPerMachine(1).keysPerMachine(1_024).valueBytesPerMachine(1 << 20).cacheBytes(1 << 16)
                .remoteLatencyNs(123).build()) {
            assertEquals(123, ((InProcessFabric) c.fabric()).remoteLatencyNs(), "the builder's latency reaches it");
            assertTrue(c.fabric() == c.fabric(1), "one fabric for every machine");
        }
    }

    @Test
    void labelsParseAndUnknownOnesListTheChoices() {
        assertEquals(FabricKind.IN_PROCESS, FabricKind.parse(" In-Process "));
        assertEquals(FabricKind.VERBS, FabricKind.parse("VERBS"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FabricKind.parse("rdma"));
        assertEquals("unknown fabric 'rdma'; choose one of auto | verbs | tcp | in-process", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> FabricKind.parse(null));
    }

    @Test
    void aSpecRefusesWhatCannotBeAClusterAndNamesAMissingSetting() {
        assertThrows(IllegalArgumentException.class, () -> FabricSpec.embedded(0));
        assertThrows(IllegalArgumentException.class, () -> new FabricSpec(2, 2, List.of(),
            FabricSpec.DEFAULT_CONNECT_TIMEOUT, FabricSpec.DEFAULT_REQUEST_TIMEOUT, false, java.util.Map.of()));
        FabricSpec spec = FabricSpec.embedded(2).withSetting(String.class, "x");
        assertEquals("x", spec.require(String.class, "tcp"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> spec.require(Integer.class, "tcp"));
        assertEquals("the tcp fabric needs a Integer setting", e.getMessage());
        assertEquals("the verbs fabric needs every machine's address",
            assertThrows(IllegalArgumentException.class, () -> spec.requireAddresses("verbs")).getMessage());
        assertThrows(IllegalArgumentException.class, () -> new InProcessFabricProvider().create(
            FabricSpec.of(0, List.of(new InetSocketAddress("127.0.0.1", 1)))));
    }
}
