package io.pragh.server.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.pragh.embedded.EmbeddedCluster;
import io.pragh.keys.KeyLayout;
import io.pragh.tier.TieringConfig;
import org.junit.jupiter.api.Test;

class TierMetersTest {
    @Test
    void tierBytesShowWhereTheValuesAreAfterARound() {
        try (EmbeddedCluster cluster = EmbeddedCluster.builder().machines(2).memoryNodes(1, 4 << 20)
            .workersPerMachine(1).keysPerMachine(4096).valueBytesPerMachine(4 << 20).remoteLatencyNs(0)
            .tiering(TieringConfig.defaults().withLocalBudgetBytes(2048).withIntervalMillis(TieringConfig.MANUAL))
            .build()) {
            for (int v = 0; v < 200; v++) {
                cluster.homeOf(KeyLayout.key(v, 0, KeyLayout.VERTEX)).put(KeyLayout.key(v, 0, KeyLayout.VERTEX),
                    new byte[64]);
            }
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            TierMeters.bind(registry, cluster.tiering(), cluster.computeMachineCount());
            cluster.tiering().runRound();
            double far = registry.find("pragh.tier.bytes").tag("place", "far").gauges().stream()
                .mapToDouble(Gauge::value).sum();
            double local = registry.find("pragh.tier.bytes").tag("place", "local").gauges().stream()
                .mapToDouble(Gauge::value).sum();
            assertEquals(cluster.tiering().bytes().far(), (long) far);
            assertEquals(cluster.tiering().bytes().local(), (long) local);
            assertTrue(far > local, "most values went far: far " + far + ", local " + local);
            assertTrue(local <= 2 * 2048, "within both machines' budgets: " + local);
            assertEquals(cluster.tiering().demoted(), (long) registry.get("pragh.tier.moved.out").gauge().value());
            assertEquals(12, registry.find("pragh.tier.bytes").gauges().size(), "2 machines x 3 tiers x 2 places");
        }
    }
}
