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

class HotspotBenchTest {
    @Test
    void aGatheredViewIsReadWithoutRemoteReadsAndASpreadOneEvenly(@TempDir Path dir) throws Exception {
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        Path json = dir.resolve("hotspot.json");
        int status = HotspotBench.run(new String[] {"--width", "20", "--height", "4", "--machines", "4",
            "--readers", "1", "--seconds", "1", "--threshold", "0.001", "--out", json.toString()},
            new PrintStream(text, true, StandardCharsets.UTF_8), System.err);
        assertEquals(0, status, text.toString(StandardCharsets.UTF_8));
        JsonNode report = new ObjectMapper().readTree(json.toFile());
        JsonNode gather = report.get("gather");
        assertTrue(gather.get("before").get("view_remote_reads").asLong() > 0, gather.toString());
        assertEquals(0, gather.get("after").get("view_remote_reads").asLong(), "all local once gathered: " + gather);
        assertEquals("[8,0,0,0]", gather.get("members_by_host_after").toString());
        JsonNode spread = report.get("spread");
        assertEquals("[0,8,0,0]", spread.get("members_by_host_before").toString());
        assertEquals(4, spread.get("members_by_host_after").size());
    }

    /**
     * Over server processes (one per machine, 127.0.0.1, stopped with the case): the round runs in the coordinator's
     * process, asked over Gremlin, and gathers the view where it is read (through machine 0), so the second phase's
     * reads are all local; the spread case starts with every read value on machine 1.
     */
    @Test
    void overServerProcessesTheCoordinatorsRoundGathersTheViewWhereItIsRead(@TempDir Path dir) throws Exception {
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        Path json = dir.resolve("hotspot-tcp.json");
        int status = HotspotBench.run(new String[] {"--fabric", "tcp", "--width", "10", "--height", "2",
            "--machines", "2", "--readers", "1", "--seconds", "1", "--threshold", "0.001", "--out", json.toString()},
            new PrintStream(text, true, StandardCharsets.UTF_8), System.err);
        assertEquals(0, status, text.toString(StandardCharsets.UTF_8));
        JsonNode report = new ObjectMapper().readTree(json.toFile());
        assertEquals("tcp", report.get("config").get("fabric").asText());
        JsonNode gather = report.get("gather");
        assertTrue(gather.get("before").get("view_reads").asLong() > 0, gather.toString());
        assertEquals(0, gather.get("after").get("view_remote_reads").asLong(), "all local once gathered: " + gather);
        assertEquals("[2,0]", gather.get("members_by_host_after").toString());
        assertEquals("[0,2]", report.get("spread").get("members_by_host_before").toString());
    }
}
