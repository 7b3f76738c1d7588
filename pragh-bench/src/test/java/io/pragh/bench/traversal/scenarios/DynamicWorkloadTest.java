package io.pragh.bench.traversal.scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DynamicWorkloadTest {
    @TempDir
    Path dir;

    @Test
    void theTimelineRunsThroughEveryWindowWithMigrationOnlyWhereItIsOn() throws Exception {
        ScenarioRun run = ScenarioRun.of(new DynamicWorkload(), dir, "--scope", "32", "--windows", "3", "--tick", "0.1");
        JsonNode root = run.json();
        assertEquals(List.of("orig", "split-cache"), ScenarioRun.fieldNames(root.get("modes")));
        for (JsonNode m : root.get("modes")) {
            // warm-up 0.2 + three windows of 0.6
            ScenarioRun.assertTimeline(m.get("timeline"), 0.1, 2.0);
            assertEquals(List.of("warm-up", "window 0", "window 1", "window 2"), ScenarioRun.phases(m.get("timeline")));
            assertEquals(3, m.get("windows").size());
            for (JsonNode w : m.get("windows")) {
                assertTrue(w.get("throughput_qps").asDouble() > 0);
                ScenarioRun.assertFraction(w.get("remote_access_rate"), "window remote rate");
            }
            List<String> events = new ArrayList<>();
            m.get("events").forEach(e -> events.add(e.get("what").asText()));
            assertEquals(3, events.size(), "migration on/off, then two scope changes: " + events);
            assertTrue(events.get(2).startsWith("window 2: start vertices 64..95"), events.toString());
        }
        assertEquals(0, root.get("modes").get("orig").get("migrated_keys").asLong());
        assertTrue(root.get("modes").get("split-cache").get("migrated_keys").asLong() > 0,
            "automatic migration moved values:\n" + run.out());
        run.assertCharts("dynamic-throughput.png", "dynamic-remote-access-rate.png");
    }

    @Test
    void windowsThatDoNotFitTheGraphAreRefusedBeforeAnythingRuns() throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int status = ScenarioCommand.run(new DynamicWorkload(), new String[] {"--scale", "8", "--scope", "200",
            "--windows", "4"}, new PrintStream(out, true), new PrintStream(err, true));
        assertEquals(2, status);
        assertTrue(err.toString().contains("--windows 4 x --scope 200 exceeds the"), err.toString());
        assertTrue(!out.toString().contains("loaded"), "no cluster was loaded");
    }
}
