package io.pragh.bench.views;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ViewsBenchTest {
    @Test
    void aTinyRunWarmsUpThenReportsBothModesWithEveryEventHandled(@TempDir Path dir) throws Exception {
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        int status = ViewsBench.run(new String[] {"--width", "10", "--height", "3", "--machines", "2", "--writers", "1",
            "--rates", "50", "--duration", "1", "--warmup", "1", "--incident-fraction", "0.2",
            "--out", dir.toString()}, new PrintStream(text, true, StandardCharsets.UTF_8), System.err);
        String log = text.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, log);
        assertTrue(log.contains("warmed up for 1 s per mode at 50 updates/s"), log);
        JsonNode json = new ObjectMapper().readTree(dir.resolve("views.json").toFile());
        assertEquals(1, json.get("config").get("warmup_s").asInt());
        JsonNode runs = json.get("runs");
        assertEquals(2, runs.size(), "the warm-up is not reported: " + runs);
        JsonNode handlers = runs.get(0);
        assertEquals("handlers", handlers.get("mode").asText());
        assertEquals(handlers.get("updates").asLong(), handlers.get("events").asLong(), "an event per update");
        assertEquals(0, handlers.get("dropped").asLong());
        assertEquals("polling", runs.get(1).get("mode").asText());
    }

    @Test
    void aNegativeWarmUpIsAClearError() throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = ViewsBench.run(new String[] {"--warmup", "-1"}, System.out,
            new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(2, status);
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("the warm-up not negative"), err.toString());
    }
}
