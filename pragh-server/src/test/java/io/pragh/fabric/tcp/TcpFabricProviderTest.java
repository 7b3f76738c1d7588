package io.pragh.fabric.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.fabric.FabricKind;
import io.pragh.fabric.FabricProvider;
import io.pragh.fabric.FabricProviders;
import io.pragh.fabric.FabricSpec;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The TCP provider: found on the class path, runs in TLS, refuses a spec it cannot serve, honours the timeouts. */
class TcpFabricProviderTest {
    private static final List<InetSocketAddress> TWO = List.of(LoopbackCluster.loopback(0),
        LoopbackCluster.loopback(0));

    @Test
    void theServiceLoaderFindsItAndItCanRunInTls() {
        FabricProvider p = FabricProviders.load(getClass().getClassLoader()).provider(FabricKind.TCP).orElseThrow();
        assertInstanceOf(TcpFabricProvider.class, p);
        assertTrue(p.availability().available());
        assertTrue(p.supportsTls());
    }

    @Test
    void aSpecItCannotServeIsRefusedNamingWhatIsMissing() {
        TcpFabricProvider p = new TcpFabricProvider();
        FabricSpec withSecret = FabricSpec.of(0, TWO).withSetting(ClusterSecret.class, LoopbackCluster.SECRET);
        assertEquals("the tcp fabric serves one machine per process; the spec must name the machine this process "
            + "hosts", assertThrows(IllegalArgumentException.class,
            () -> p.create(FabricSpec.of(FabricSpec.EVERY_MACHINE, TWO))).getMessage());
        assertEquals("the tcp fabric needs a ClusterSecret setting", assertThrows(IllegalArgumentException.class,
            () -> p.create(FabricSpec.of(0, TWO))).getMessage());
        assertEquals("the spec requires TLS but carries no ClusterTls setting",
            assertThrows(IllegalArgumentException.class, () -> p.create(withSecret.requiringTls(true))).getMessage());
    }

    @Test
    void theSpecsTimeoutsWinOverTheOptions() {
        FabricSpec spec = FabricSpec.of(1, TWO).withTimeouts(Duration.ofMillis(300), Duration.ofMillis(900))
            .withSetting(ClusterSecret.class, LoopbackCluster.SECRET)
            .withSetting(TcpFabricOptions.class, TcpFabricOptions.defaults().withIoThreads(1));
        try (TcpFabric f = (TcpFabric) new TcpFabricProvider().create(spec)) {
            assertEquals(Duration.ofMillis(300), f.options().connectTimeout());
            assertEquals(Duration.ofMillis(900), f.options().requestTimeout());
            assertEquals(1, f.options().ioThreads());
            assertEquals(1, f.machine());
            assertTrue(f.describe().startsWith("tcp /127.0.0.1:"), f.describe());
        }
    }
}
