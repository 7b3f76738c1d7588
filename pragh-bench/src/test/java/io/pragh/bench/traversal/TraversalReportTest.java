package io.pragh.bench.traversal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.pragh.bench.traversal.history.HistoryCheck;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TraversalReportTest {
    private static Set<String> fields(JsonNode n) {
        Set<String> out = new TreeSet<>();
        n.fieldNames().forEachRemaining(out::add);
        return out;
    }

    @Test
    void theJsonReportHasExactlyTheIssuesSchema(@TempDir Path dir) throws Exception {
        TraversalConfig config = TraversalConfig.parse("--machines", "4", "--modes", "orig,split-cache");
        TraversalReport report = new TraversalReport(config);
        report.add(Mode.ORIG, new ModeResult(1000, 1.5, 3, 4, 0.8, 0, 0, 0, 0, 50, 1000));
        report.add(Mode.SPLIT_CACHE, new ModeResult(9000, 0.2, 1, 2, 0.03, 12, 0.001, 4096, 3, 450, 9000)
            .withHistory(new HistoryCheck(64, 60, 20, 5000, 200, 0, 2, 0, null, null, List.of(), 0.1)));
        Path file = dir.resolve("sub/out.json");
        report.writeJson(file);
        JsonNode root = new ObjectMapper().readTree(Files.readString(file));
        assertEquals(Set.of("config", "modes"), fields(root));
        assertEquals(new TreeSet<>(List.of("machines", "scale", "scope", "fanout", "get_ratio", "dist", "modes",
            "duration", "warmup", "interval", "intervals", "remote_latency_ns", "threads", "seed", "mechanism", "cache_mb", "json",
            "charts", "gets", "fabric", "remote_latency", "min_rate", "cluster_dir", "control", "history_keys")),
            fields(root.get("config")));
        assertEquals(4, root.get("config").get("machines").asInt());
        assertEquals("live", root.get("config").get("control").asText(), "the control plane runs through the measurement");
        List<String> modeNames = new ArrayList<>();
        root.get("modes").fieldNames().forEachRemaining(modeNames::add);
        assertEquals(List.of("orig", "split-cache"), modeNames, "mode names exactly as the issue spells them");
        JsonNode sc = root.get("modes").get("split-cache");
        assertEquals(new TreeSet<>(List.of("throughput_qps", "latency_ms", "remote_access_rate", "migrated_keys",
            "migrated_key_fraction", "migrated_bytes", "forwarded_puts", "puts", "queries", "history")), fields(sc));
        assertEquals(new TreeSet<>(List.of("sampled_keys", "keys", "inserted_keys", "operations", "reads", "inserts",
            "reads_not_recorded", "threads", "linearizable", "violating_keys", "first_violating_key", "violation",
            "undecided_keys", "check_s")), fields(sc.get("history")));
        assertTrue(sc.get("history").get("linearizable").asBoolean());
        assertEquals(5200, sc.get("history").get("operations").asLong());
        assertEquals(Set.of("throughput_qps", "latency_ms", "remote_access_rate", "migrated_keys",
            "migrated_key_fraction", "migrated_bytes", "forwarded_puts", "puts", "queries"),
            fields(root.get("modes").get("orig")), "no history recorded: no history object");
        assertEquals(Set.of("p50", "p99", "p999"), fields(sc.get("latency_ms")));
        assertEquals(9000, sc.get("throughput_qps").asDouble());
        assertEquals(0.2, sc.get("latency_ms").get("p50").asDouble());
        assertEquals(12, sc.get("migrated_keys").asLong());
        assertEquals(3, sc.get("forwarded_puts").asLong());
    }

    @Test
    void everyModeHasTheReportNameOfTheIssue() {
        List<String> names = new ArrayList<>();
        for (Mode m : Mode.values()) {
            names.add(m.reportName());
            assertEquals(m, Mode.byName(m.reportName()));
        }
        assertEquals(List.of("orig", "ideal", "shard", "split", "split-cache", "split-cache-replica"), names);
    }

    @Test
    void theTableShowsEachModeAgainstOrigAndIdeal() {
        TraversalReport report = new TraversalReport(TraversalConfig.defaults());
        report.add(Mode.ORIG, new ModeResult(1000, 1, 1, 1, 0.8, 0, 0, 0, 0, 0, 1000));
        report.add(Mode.IDEAL, new ModeResult(20000, 1, 1, 1, 0, 0, 0, 0, 0, 0, 20000));
        report.add(Mode.SPLIT_CACHE, new ModeResult(10000, 1, 1, 1, 0.02, 0, 0, 0, 0, 0, 10000));
        var bytes = new java.io.ByteArrayOutputStream();
        report.printTable(new java.io.PrintStream(bytes, true, java.nio.charset.StandardCharsets.UTF_8));
        String table = bytes.toString(java.nio.charset.StandardCharsets.UTF_8);
        String line = table.lines().filter(l -> l.startsWith("split-cache")).findFirst().orElseThrow();
        assertTrue(line.contains("10.00") && line.contains("50.0"), line);
    }
}
