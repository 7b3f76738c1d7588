package io.pragh.bench.traversal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.bench.traversal.deploy.PathRecorder;
import io.pragh.bench.traversal.history.HistoryCheck;
import io.pragh.bench.traversal.history.TraversalHistory;
import io.pragh.bench.workload.AdjacencyGraph;
import io.pragh.bench.workload.RmatGenerator;
import io.pragh.keys.KeyLayout;
import io.pragh.store.ValueView;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * A tiny traversal run of split-cache-replica (migrations and read replicas under the queries) records the history
 * of its sampled keys from every query thread and checks it: linearizable over real GETs and edge inserts; and the
 * same run with a stale read planted in its history before the check reports the key, in the report and its exit
 * status.
 */
class TraversalRunHistoryTest {
    private static final long PLANTED = 123_456_789L;

    private final ByteArrayOutputStream progress = new ByteArrayOutputStream();

    private static TraversalConfig tiny() {
        // Few enough keys that --history-keys' default samples all of the scope's two-hop reads.
        return TraversalConfig.parse("--machines", "3", "--scale", "9", "--scope", "64", "--fanout", "20",
            "--duration", "0.5", "--warmup", "0.2", "--interval", "0.5", "--remote-latency-ns", "0", "--threads", "2",
            "--cache-mb", "1", "--modes", "split-cache-replica");
    }

    private TraversalReport run(Consumer<TraversalHistory> beforeCheck) throws Exception {
        TraversalConfig c = tiny();
        AdjacencyGraph g = new RmatGenerator(c.scale(), RmatGenerator.EDGE_FACTOR, c.seed()).generate();
        TraversalRunner runner = new TraversalRunner(c, g, new PrintStream(progress, true, StandardCharsets.UTF_8),
            beforeCheck);
        TraversalReport report = new TraversalReport(c);
        report.add(Mode.SPLIT_CACHE_REPLICA, runner.run(Mode.SPLIT_CACHE_REPLICA));
        return report;
    }

    private String log() {
        return progress.toString(StandardCharsets.UTF_8);
    }

    @Test
    void splitCacheReplicasHistoryOfRealReadsAndInsertsIsCheckedAndLinearizable() throws Exception {
        TraversalReport report = run(h -> { });
        ModeResult r = report.results().get(Mode.SPLIT_CACHE_REPLICA);
        HistoryCheck h = r.history();
        assertNotNull(h, log());
        assertTrue(r.migratedKeys() > 0, "the history should run under migrations:\n" + log());
        assertTrue(h.reads() > 0 && h.inserts() > 0 && h.keys() > 0 && h.insertedKeys() > 0, h.describe());
        assertEquals(2, h.threads(), h.describe());
        assertTrue(h.linearizable(), h.describe() + "\n" + h.violation());
        assertTrue(h.undecidedKeys().isEmpty(), h.describe());
        assertEquals(0, report.historyStatus());
        assertTrue(log().contains("[split-cache-replica] history: "), log());
        @SuppressWarnings("unchecked")
        Map<String, Object> json = (Map<String, Object>) ((Map<String, Object>) ((Map<String, Object>)
            report.asMap().get("modes")).get("split-cache-replica")).get("history");
        assertEquals(true, json.get("linearizable"));
        assertEquals(h.operations(), json.get("operations"));
    }

    @Test
    void aStaleReadPlantedInTheRunsHistoryIsReportedWithItsKey() throws Exception {
        TraversalConfig c = tiny();
        AdjacencyGraph g = new RmatGenerator(c.scale(), RmatGenerator.EDGE_FACTOR, c.seed()).generate();
        int start = g.verticesWithEdges()[0]; // the hottest start vertex: the queries read and insert into it
        long key = KeyLayout.key(start, TwoHopWorkload.LABEL, KeyLayout.OUT);
        byte[] loaded = TraversalRunner.adjacencyValue(g, start);
        TraversalReport report = run(history -> {
            // After every real operation: an insert answered, then a read of the list as loaded, which it replaced.
            // Recorded whatever the queries left of the read budget (a quiet host spent all of it: session 19).
            PathRecorder p = history.plantingRecorder();
            long t = System.nanoTime();
            p.inserted(key, PLANTED, Integer.MAX_VALUE, t, t + 1);
            p.read(key, new ValueView().over(loaded), t + 2, t + 3);
        });
        HistoryCheck h = report.results().get(Mode.SPLIT_CACHE_REPLICA).history();
        assertFalse(h.linearizable(), h.describe());
        assertEquals(key, h.firstViolatingKey());
        assertTrue(h.violation().contains("neighbour " + PLANTED), h.violation());
        assertTrue(log().contains("NOT LINEARIZABLE"), log());
        assertEquals(1, report.historyStatus());
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        assertEquals(1, report.printHistoryFailures(new PrintStream(printed, true, StandardCharsets.UTF_8)));
        String failures = printed.toString(StandardCharsets.UTF_8);
        assertTrue(failures.contains("history NOT linearizable") && failures.contains("key " + key), failures);
    }
}
