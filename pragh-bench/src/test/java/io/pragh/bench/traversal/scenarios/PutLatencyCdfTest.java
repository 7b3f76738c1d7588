package io.pragh.bench.traversal.scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PutLatencyCdfTest {
    @TempDir
    Path dir;

    @Test
    void eachSideHasAMonotonePutCdfAndItsForwardedShare() throws Exception {
        ScenarioRun run = ScenarioRun.of(new PutLatencyCdf(), dir, "--scope", "64");
        JsonNode root = run.json();
        assertEquals(0.5, root.get("config").get("get_ratio").asDouble(), "the 50/50 mix by default");
        assertEquals(List.of("orig", "split-cache"), ScenarioRun.fieldNames(root.get("modes")));
        assertTrue(!root.get("modes").get("orig").get("migrates").asBoolean());
        assertTrue(root.get("modes").get("split-cache").get("migrates").asBoolean());
        for (JsonNode side : root.get("modes")) {
            long puts = side.get("puts").asLong();
            long forwarded = side.get("forwarded_puts").asLong();
            assertTrue(puts > 0, "PUTs measured");
            assertTrue(forwarded >= 0 && forwarded <= puts);
            assertEquals((double) forwarded / puts, side.get("forwarded_fraction").asDouble(), 1e-12);
            JsonNode cdf = side.get("put_latency_cdf");
            assertEquals(PutLatencyCdf.PERCENTILES.length, cdf.size());
            double lastP = -1;
            double lastMs = 0;
            for (JsonNode point : cdf) {
                assertTrue(point.get("percentile").asDouble() > lastP, "percentiles rise");
                assertTrue(point.get("latency_ms").asDouble() >= lastMs, "latency never falls along the CDF");
                lastP = point.get("percentile").asDouble();
                lastMs = point.get("latency_ms").asDouble();
            }
            assertEquals(100, lastP);
            assertTrue(lastMs > 0);
        }
        assertEquals(0, root.get("modes").get("orig").get("forwarded_puts").asLong(), "nothing migrated, none forwarded");
        run.assertCharts("put-latency-cdf.png", "forwarded-puts.png");
    }

    @Test
    void aMixWithoutPutsIsRefusedByName() throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int status = ScenarioCommand.run(new PutLatencyCdf(), new String[] {"--scale", "8", "--get-ratio", "1"},
            new PrintStream(out, true), new PrintStream(err, true));
        assertEquals(2, status);
        assertTrue(err.toString().contains("--get-ratio 1.0 leaves no PUTs"), err.toString());
        assertEquals("", out.toString(), "refused before the graph was generated");
    }
}
