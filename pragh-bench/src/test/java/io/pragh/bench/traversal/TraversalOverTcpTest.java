package io.pragh.bench.traversal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./pragh bench traversal --fabric tcp} at a tiny scale: all five modes run on clusters of server processes
 * (three JVMs each, one for ideal), their queries over the client RPC; split-cache migrates values and shard moves
 * shards between processes through the RPC; the JSON report says what ran; and no server outlives its mode. Checks
 * what the run means, never how fast it is.
 */
@Timeout(400)
class TraversalOverTcpTest {
    @Test
    void everyModeRunsOnServerProcessesAndNoServerOutlivesItsMode(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("tcp.json");
        Path clusters = dir.resolve("clusters");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = TraversalCommand.run(new String[] {"--fabric", "tcp", "--cluster-dir", clusters.toString(),
            "--machines", "3", "--scale", "8", "--scope", "64", "--fanout", "20", "--duration", "1", "--warmup", "0.5",
            "--interval", "1", "--min-rate", "1", "--threads", "2", "--cache-mb", "1", "--json", json.toString()},
            new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        String log = out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, log);
        assertTrue(log.contains("remote latency: real loopback TCP"), log);
        assertTrue(log.matches("(?s).*\\[split-cache] fabric: tcp, 3 server process\\(es\\) on 127\\.0\\.0\\.1, client"
            + " ports \\d+ \\d+ \\d+ .*"), log);

        JsonNode root = new ObjectMapper().readTree(Files.readString(json));
        JsonNode config = root.get("config");
        assertEquals("tcp", config.get("fabric").asText());
        assertEquals(clusters.toString(), config.get("cluster_dir").asText());
        assertTrue(config.get("remote_latency_ns").isNull(), "no emulated latency is claimed over tcp");
        List<String> modes = new ArrayList<>();
        root.get("modes").fieldNames().forEachRemaining(modes::add);
        assertEquals(List.of("orig", "ideal", "shard", "split", "split-cache"), modes);
        for (String mode : modes) {
            JsonNode m = root.get("modes").get(mode);
            double rate = m.get("remote_access_rate").asDouble();
            assertTrue(rate >= 0 && rate <= 1, mode + " remote access rate " + rate);
            assertTrue(m.get("queries").asLong() > 0, mode + " ran no query:\n" + log);
        }
        JsonNode byMode = root.get("modes");
        assertEquals(0, byMode.get("ideal").get("remote_access_rate").asDouble(), "one machine reads only locally");
        assertTrue(byMode.get("orig").get("remote_access_rate").asDouble() > 0, "three processes read remotely in orig");
        assertEquals(0, byMode.get("orig").get("migrated_keys").asLong(), "orig never migrates");
        assertTrue(byMode.get("split-cache").get("migrated_keys").asLong() > 0,
            "the servers' monitors and coordinator, driven over the RPC, migrated values:\n" + log);
        assertTrue(byMode.get("shard").get("migrated_keys").asLong() > 0,
            "whole shards moved between the processes:\n" + log);

        // Every mode's cluster lives in its own directory, and every server of it stopped with its mode.
        for (String mode : modes) {
            Path d = clusters.resolve(mode);
            int machines = mode.equals("ideal") ? 1 : 3;
            for (int m = 0; m < machines; m++) {
                Path log0 = d.resolve("machine-" + m + ".log");
                assertTrue(Files.readString(log0).contains("machine " + m + " of " + machines + " serves"), mode + " "
                    + log0);
                Optional<ProcessHandle> p = ProcessHandle.of(Long.parseLong(
                    Files.readString(d.resolve("machine-" + m + ".pid")).trim()));
                assertTrue(p.isEmpty() || !p.get().isAlive(), mode + " machine " + m + " still runs");
            }
        }
    }
}
