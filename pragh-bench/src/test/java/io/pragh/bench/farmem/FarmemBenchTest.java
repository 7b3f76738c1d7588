package io.pragh.bench.farmem;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FarmemBenchTest {
    @Test
    void aTinyRunWritesEveryModeEveryRatioAndTheChunkSweep(@TempDir Path dir) throws Exception {
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        int status = FarmemBench.run(new String[] {"--scale", "7", "--ratios", "0,0.75", "--chunks", "512,65536",
            "--runs", "1", "--iterations", "2", "--latency-ns", "0", "--out", dir.toString()},
            new PrintStream(text, true, StandardCharsets.UTF_8), System.err);
        assertEquals(0, status, text.toString(StandardCharsets.UTF_8));
        JsonNode json = new ObjectMapper().readTree(dir.resolve("farmem.json").toFile());
        // all-local at 0 (bfs, pagerank), chunked and on-demand at 0.75: 6 points; 2 chunk sizes x 2 algorithms.
        assertEquals(6, json.get("points").size());
        assertEquals(4, json.get("chunkSweep").size());
        assertEquals(2, json.get("comparisons").size());
        for (JsonNode c : json.get("comparisons")) {
            assertTrue(c.get("onDemandOverAllLocal").asDouble() > 0, "the speedup's ceiling is reported: " + c);
        }
        for (JsonNode p : json.get("points")) {
            assertTrue(p.get("cpuSeconds").asDouble() > 0, "a run's CPU time is measured: " + p);
            if (p.get("ratio").asDouble() == 0.75) {
                assertTrue(p.get("farShare").asDouble() > 0.5, "values went far: " + p);
                assertTrue(p.get("farReadsPerRun").asLong() > 0, "far values were read: " + p);
            }
        }
        for (String png : new String[] {"farmem-bfs.png", "farmem-pagerank.png", "farmem-chunks.png"}) {
            assertTrue(Files.size(dir.resolve(png)) > 0, png);
        }
    }

    @Test
    void aBadFlagIsAClearError() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = FarmemBench.run(new String[] {"--ratios", "0,1.5"}, System.out,
            new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(2, status);
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("--ratios takes ratios in [0, 1), got 1.5"));
    }
}
