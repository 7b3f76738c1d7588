package io.pragh.server.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.fabric.FabricStats;
import org.junit.jupiter.api.Test;

/** The gauge's rate covers the recent window, so it falls once remote accesses stop, whatever came before. */
class RemoteAccessRateTest {
    @Test
    void theRateCoversTheLastWindowsNotTheWholeHistory() {
        FabricStats stats = new FabricStats();
        RemoteAccessRate rate = new RemoteAccessRate(stats, 5_000);
        for (int i = 0; i < 3; i++) {
            stats.local(8);
        }
        stats.remoteRead(8);
        assertEquals(0.25, rate.read(0));
        for (int i = 0; i < 10; i++) {
            stats.local(8);
        }
        assertEquals(1.0 / 14, rate.read(1_000), 1e-9, "within the first window: everything so far");
        assertEquals(0.0, rate.read(5_000), "a window later: only the 10 local accesses since the first reading");
        assertTrue(Double.isNaN(rate.read(10_000)), "nothing accessed since: no rate");
        stats.remoteRead(8);
        assertEquals(1.0, rate.read(11_000));
    }
}
