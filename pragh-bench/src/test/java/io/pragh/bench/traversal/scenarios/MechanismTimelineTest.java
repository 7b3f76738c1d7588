package io.pragh.bench.traversal.scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MechanismTimelineTest {
    @TempDir
    Path dir;

    @Test
    void eachMechanismHasATimelineThroughEveryIntervalAndItsMigration() throws Exception {
        ScenarioRun run = ScenarioRun.of(new MechanismTimeline(), dir, "--scope", "64", "--tick", "0.1");
        JsonNode root = run.json();
        assertEquals(2, root.get("config").get("intervals").asInt(), "both mechanisms run two intervals");
        assertEquals(List.of("eager", "deferred"), ScenarioRun.fieldNames(root.get("mechanisms")));
        for (JsonNode m : root.get("mechanisms")) {
            assertEquals(0.1, m.get("tick").asDouble(), 1e-9);
            // warm-up 0.2 + two intervals of 0.4 + measurement 0.6, migrations on top
            ScenarioRun.assertTimeline(m.get("timeline"), 0.1, 1.6);
            List<String> phases = ScenarioRun.phases(m.get("timeline"));
            assertTrue(phases.containsAll(List.of("warm-up", "monitoring interval 1", "monitoring interval 2",
                "measurement")), phases.toString());
            assertTrue(phases.indexOf("monitoring interval 1") < phases.indexOf("measurement"));
            List<String> events = new ArrayList<>();
            m.get("events").forEach(e -> events.add(e.get("what").asText()));
            assertEquals(4, events.size(), events.toString());
            assertTrue(events.get(0).startsWith("interval 1 ends") && events.get(3).startsWith("migration 2 done"),
                events.toString());
            assertTrue(m.get("result").get("queries").asLong() > 0);
        }
        assertTrue(root.get("mechanisms").get("eager").get("result").get("migrated_keys").asLong() > 0,
            "eager migrated:\n" + run.out());
        run.assertCharts("mechanisms-timeline.png", "mechanisms-vs-paper.png");
    }

    @Test
    void theMechanismFlagIsRefusedInFavourOfTheList() throws Exception {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> ScenarioArgs.parse(new MechanismTimeline(), "--mechanism", "eager"));
        assertTrue(e.getMessage().contains("--mechanism is not a flag of bench mechanisms"), e.getMessage());
        ScenarioArgs a = ScenarioArgs.parse(new MechanismTimeline(), "--mechanisms", "deferred", "--tick", "0.25");
        assertEquals(List.of("deferred"), a.names("--mechanisms", MechanismTimeline.MECHANISMS));
        assertEquals(0.25, a.decimal("--tick", 0.01));
        ScenarioArgs lazy = ScenarioArgs.parse(new MechanismTimeline(), "--mechanisms", "lazy");
        e = assertThrows(IllegalArgumentException.class, () -> lazy.names("--mechanisms", MechanismTimeline.MECHANISMS));
        assertTrue(e.getMessage().contains("--mechanisms 'lazy' is not one of eager, deferred"), e.getMessage());
    }
}
