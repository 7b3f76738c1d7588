package io.pragh.bench.traversal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./pragh bench traversal --fabric tcp} at a tiny scale: all five modes run over one loopback TCP fabric per
 * machine, the JSON report says so, and no fabric thread outlives its mode's cluster. Checks what the run means,
 * never how fast it is.
 */
@Timeout(180)
class TraversalOverTcpTest {
    /** Netty event loops and inboxes of the TCP fabric are named pragh-m{id}-tcp... */
    private static List<String> tcpThreads() {
        List<String> names = new ArrayList<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.isAlive() && t.getName().matches("pragh-m\\d+-tcp.*")) {
                names.add(t.getName());
            }
        }
        return names;
    }

    @Test
    void everyModeRunsOverLoopbackTcpAndLeavesNoFabricThreadBehind(@TempDir Path dir) throws Exception {
        assertEquals(List.of(), tcpThreads(), "no TCP fabric runs before the benchmark");
        Path json = dir.resolve("tcp.json");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = TraversalCommand.run(new String[] {"--fabric", "tcp", "--machines", "3", "--scale", "8",
            "--scope", "64", "--fanout", "20", "--duration", "0.8", "--warmup", "0.4", "--interval", "0.4",
            "--threads", "2", "--cache-mb", "1", "--json", json.toString()},
            new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        String log = out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, log);
        assertTrue(log.contains("remote latency: real loopback TCP"), log);
        assertTrue(log.matches("(?s).*\\[split-cache] fabric: tcp, machines on 127\\.0\\.0\\.1:\\d+ 127\\.0\\.0\\.1:\\d+"
            + " 127\\.0\\.0\\.1:\\d+ .*"), log);

        JsonNode root = new ObjectMapper().readTree(Files.readString(json));
        JsonNode config = root.get("config");
        assertEquals("tcp", config.get("fabric").asText());
        assertTrue(config.get("remote_latency_ns").isNull(), "no emulated latency is claimed over tcp");
        assertEquals("real loopback TCP", config.get("remote_latency").asText());
        List<String> modes = new ArrayList<>();
        root.get("modes").fieldNames().forEachRemaining(modes::add);
        assertEquals(List.of("orig", "ideal", "shard", "split", "split-cache"), modes);
        for (String mode : modes) {
            JsonNode m = root.get("modes").get(mode);
            double rate = m.get("remote_access_rate").asDouble();
            assertTrue(rate >= 0 && rate <= 1, mode + " remote access rate " + rate);
            assertTrue(m.get("queries").asLong() > 0, mode + " ran no query:\n" + log);
        }
        assertEquals(0, root.get("modes").get("ideal").get("remote_access_rate").asDouble(), "one machine");
        assertTrue(root.get("modes").get("orig").get("remote_access_rate").asDouble() > 0,
            "three machines over tcp read remotely in orig");

        // Each cluster closed its fabrics (awaiting their event loops) before the next mode began.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!tcpThreads().isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertEquals(List.of(), tcpThreads(), "TCP fabric threads outlived the benchmark");
        Matcher port = Pattern.compile("127\\.0\\.0\\.1:(\\d+)").matcher(log);
        int ports = 0;
        while (port.find()) {
            // Binding succeeds only if the fabric's listener let go of its port.
            try (ServerSocket s = new ServerSocket(Integer.parseInt(port.group(1)), 1, InetAddress.getLoopbackAddress())) {
                ports++;
            }
        }
        assertEquals(3 * 4 + 1, ports, "three ports for each multi-machine mode, one for ideal");
    }
}
