package io.pragh.bench.traversal.scenarios;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
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
import java.util.Arrays;
import java.util.List;

/** Runs a scenario end to end on a tiny cluster with JSON and charts into {@code dir}; what the tests inspect. */
record ScenarioRun(int status, String out, String err, JsonNode json, Path charts) {
    /** Two machines, scale 9, sub-second phases, no emulated latency: fast, and still migrating. */
    static final List<String> TINY = List.of("--machines", "2", "--scale", "9", "--fanout", "20", "--duration", "0.6",
        "--warmup", "0.2", "--interval", "0.4", "--remote-latency-ns", "0", "--threads", "2", "--cache-mb", "1");

    static ScenarioRun of(Scenario s, Path dir, String... flags) throws Exception {
        List<String> args = new ArrayList<>(TINY);
        args.addAll(Arrays.asList(flags));
        Path json = dir.resolve("out.json");
        Path charts = dir.resolve("charts");
        args.addAll(List.of("--json", json.toString(), "--charts", charts.toString()));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = ScenarioCommand.run(s, args.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        String o = out.toString(StandardCharsets.UTF_8);
        String e = err.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, o + e);
        return new ScenarioRun(status, o, e, new ObjectMapper().readTree(Files.readString(json)), charts);
    }

    /** The named files are in the chart directory, each a PNG. */
    void assertCharts(String... names) throws Exception {
        for (String name : names) {
            Path f = charts.resolve(name);
            assertTrue(Files.isRegularFile(f), name + " written");
            byte[] magic = Arrays.copyOf(Files.readAllBytes(f), 8);
            assertArrayEquals(new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'}, magic, f + " is a PNG");
            assertTrue(out.contains("chart: " + f.toAbsolutePath()), "the command names " + name);
        }
    }

    static List<String> fieldNames(JsonNode n) {
        List<String> names = new ArrayList<>();
        n.fieldNames().forEachRemaining(names::add);
        return names;
    }

    static void assertFraction(JsonNode n, String what) {
        assertTrue(n.isNumber() && n.asDouble() >= 0 && n.asDouble() <= 1, what + " in [0, 1]: " + n);
    }

    /** A timeline: ticks in time order, each with a phase, non-negative throughput and a remote rate in [0, 1]. */
    static void assertTimeline(JsonNode timeline, double tick, double atLeastSeconds) {
        assertTrue(timeline.isArray());
        // Every tick of the phases' length is there (a tick may be lost at either end, never more).
        int expected = (int) Math.floor(atLeastSeconds / tick);
        assertTrue(timeline.size() >= expected - 2, timeline.size() + " ticks, expected about " + expected);
        double last = 0;
        for (JsonNode p : timeline) {
            assertTrue(p.get("t").asDouble() > last, "ticks in time order");
            last = p.get("t").asDouble();
            assertTrue(p.get("throughput_qps").asDouble() >= 0);
            assertFraction(p.get("remote_access_rate"), "tick remote rate");
            assertTrue(!p.get("phase").asText().isEmpty());
        }
    }

    static List<String> phases(JsonNode timeline) {
        List<String> phases = new ArrayList<>();
        for (JsonNode p : timeline) {
            if (!phases.contains(p.get("phase").asText())) {
                phases.add(p.get("phase").asText());
            }
        }
        return phases;
    }
}
