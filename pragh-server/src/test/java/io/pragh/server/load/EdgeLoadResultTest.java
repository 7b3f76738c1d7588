package io.pragh.server.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** What {@code cluster load} calls a matching edge count, and the settings it refuses. */
class EdgeLoadResultTest {
    @Test
    void theCountChecksOutWhenEveryAcknowledgedEdgeIsThereAndAtMostTheFailedRequestsAddedMore() {
        // 10 acknowledged requests of 8 edges, 2 failed: 80 edges are owed, up to 16 more may have landed.
        assertEquals(80, new EdgeLoad.Result(8, 10, 2, 1.0, 80).edges());
        assertTrue(new EdgeLoad.Result(8, 10, 2, 1.0, 80).countChecks());
        assertTrue(new EdgeLoad.Result(8, 10, 2, 1.0, 96).countChecks());
        assertFalse(new EdgeLoad.Result(8, 10, 2, 1.0, 79).countChecks(), "an acknowledged edge is missing");
        assertFalse(new EdgeLoad.Result(8, 10, 2, 1.0, 97).countChecks(), "more edges than were ever sent");
        assertFalse(new EdgeLoad.Result(8, 10, 0, 1.0, 81).countChecks());
        assertEquals(40.0, new EdgeLoad.Result(8, 10, 0, 2.0, 80).edgesPerSecond());
        assertEquals(5.0, new EdgeLoad.Result(8, 10, 0, 2.0, 80).requestsPerSecond());
    }

    @Test
    void settingsRefuseNonPositiveValuesNamingThem() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> new EdgeLoad.Settings(1, 10, 4, List.of(1, 0)));
        assertTrue(e.getMessage().contains("[1, 0] edges per request"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new EdgeLoad.Settings(1, 10, 0, List.of(1)));
        assertThrows(IllegalArgumentException.class, () -> new EdgeLoad.Settings(1, 10, 4, List.of()));
    }
}
