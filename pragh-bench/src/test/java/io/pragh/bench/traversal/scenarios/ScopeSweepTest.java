package io.pragh.bench.traversal.scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScopeSweepTest {
    @TempDir
    Path dir;

    @Test
    void everyScopeHasEveryModesRowAndTheChartsAreWritten() throws Exception {
        ScenarioRun run = ScenarioRun.of(new ScopeSweep(), dir, "--scopes", "4,6");
        JsonNode root = run.json();
        assertEquals(List.of("config", "scopes", "single_copy_floor"), ScenarioRun.fieldNames(root));
        assertEquals(List.of("16", "64"), ScenarioRun.fieldNames(root.get("single_copy_floor")));
        for (JsonNode floor : root.get("single_copy_floor")) {
            ScenarioRun.assertFraction(floor, "single-copy floor");
        }
        assertEquals("4,6", root.get("config").get("scopes").asText());
        assertEquals(List.of("16", "64"), ScenarioRun.fieldNames(root.get("scopes")));
        for (JsonNode row : root.get("scopes")) {
            assertEquals(List.of("orig", "split-cache"), ScenarioRun.fieldNames(row), "the default modes");
            for (JsonNode mode : row) {
                assertTrue(mode.get("throughput_qps").asDouble() > 0);
                assertTrue(mode.get("queries").asLong() > 0);
                ScenarioRun.assertFraction(mode.get("remote_access_rate"), "remote rate");
            }
            assertEquals(0, row.get("orig").get("migrated_keys").asLong(), "orig never migrates");
            assertTrue(row.get("orig").get("remote_access_rate").asDouble() > 0, "two machines: some reads remote");
        }
        assertTrue(run.out().contains("== scope 2^4 = 16") && run.out().contains("== scope 2^6 = 64"), run.out());
        assertTrue(run.out().contains("[split-cache] measurement"), "progress is printed");
        run.assertCharts("scope-sweep-throughput.png", "scope-sweep-remote-access-rate.png");
    }
}
