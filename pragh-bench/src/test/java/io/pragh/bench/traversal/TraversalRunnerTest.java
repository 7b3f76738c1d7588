package io.pragh.bench.traversal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.bench.workload.AdjacencyGraph;
import io.pragh.bench.workload.RmatGenerator;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** A tiny run of every available mode: checks what the modes mean (counts), never how fast they are. */
class TraversalRunnerTest {
    @Test
    void modesDifferInRemoteAccessesAndMigratingModesMigrateByThemselves() throws Exception {
        TraversalConfig c = TraversalConfig.parse("--machines", "3", "--scale", "9", "--scope", "64",
            "--fanout", "20", "--duration", "0.5", "--warmup", "0.2", "--interval", "0.5", "--remote-latency-ns", "0",
            "--threads", "2", "--cache-mb", "1");
        AdjacencyGraph g = new RmatGenerator(c.scale(), RmatGenerator.EDGE_FACTOR, c.seed()).generate();
        ByteArrayOutputStream progress = new ByteArrayOutputStream();
        TraversalRunner runner = new TraversalRunner(c, g, new PrintStream(progress, true, StandardCharsets.UTF_8));
        ModeResult orig = runner.run(Mode.ORIG);
        ModeResult ideal = runner.run(Mode.IDEAL);
        ModeResult split = runner.run(Mode.SPLIT);
        ModeResult cached = runner.run(Mode.SPLIT_CACHE);
        ModeResult shard = runner.run(Mode.SHARD);
        String log = progress.toString(StandardCharsets.UTF_8);
        assertTrue(orig.queries() > 0 && ideal.queries() > 0 && split.queries() > 0 && cached.queries() > 0, log);
        assertEquals(0, ideal.remoteAccessRate(), "one machine has nothing remote");
        assertTrue(orig.remoteAccessRate() > 0.4, "orig " + orig.remoteAccessRate());
        assertEquals(0, orig.migratedKeys());
        assertTrue(split.migratedKeys() > 0, "split migrated nothing:\n" + log);
        assertTrue(cached.migratedKeys() > 0, "split-cache migrated nothing:\n" + log);
        assertTrue(cached.remoteAccessRate() < orig.remoteAccessRate(),
            "split-cache " + cached.remoteAccessRate() + " vs orig " + orig.remoteAccessRate());
        assertTrue(shard.queries() > 0 && shard.migratedKeys() > 0, "shards moved nothing:\n" + log);
        assertTrue(log.contains("[shard] migration:") && log.contains("clients paused"), log);
        assertTrue(cached.puts() > 0 && cached.puts() < cached.queries());
        assertTrue(log.contains("[split-cache] measurement") && log.contains("migration:"), log);
    }

    /** split-cache-replica runs the split phases and reports its replicas after migrating. */
    @Test
    void splitCacheReplicaMigratesAndReportsItsReplicas() throws Exception {
        TraversalConfig c = TraversalConfig.parse("--machines", "3", "--scale", "9", "--scope", "64",
            "--fanout", "20", "--duration", "0.5", "--warmup", "0.2", "--interval", "0.5", "--remote-latency-ns", "0",
            "--threads", "2", "--cache-mb", "1");
        AdjacencyGraph g = new RmatGenerator(c.scale(), RmatGenerator.EDGE_FACTOR, c.seed()).generate();
        ByteArrayOutputStream progress = new ByteArrayOutputStream();
        TraversalRunner runner = new TraversalRunner(c, g, new PrintStream(progress, true, StandardCharsets.UTF_8));
        ModeResult replica = runner.run(Mode.SPLIT_CACHE_REPLICA);
        String log = progress.toString(StandardCharsets.UTF_8);
        assertTrue(replica.queries() > 0 && replica.migratedKeys() > 0, log);
        // How many are placed depends on how many keys the interval saw read from several machines, i.e. on the
        // host's speed: ReplicaPlacementTest (pragh-core) pins placement itself; here the mode's report lines.
        assertTrue(log.contains("[split-cache-replica] read replicas placed or kept so far: "), log);
        assertTrue(log.contains("[split-cache-replica] read replicas held "), log);
        // The measurement's CPU by duty: the query threads ran through it, so theirs is above zero.
        assertTrue(replica.cpuByDuty().get("queries") > 0, "CPU by duty " + replica.cpuByDuty());
        assertTrue(log.contains("[split-cache-replica] cpu by duty (us per query): queries "), log);
        assertEquals(replica.cpuByDuty(), replica.asMap().get("cpu_by_duty_us_per_query"));
    }

    @Test
    void splitCacheReplicaRunsOverServerProcessesToo() {
        // Server processes place replicas too (their cluster file's replicas section: ProcessBenchClusterSettingsTest).
        assertEquals(java.util.List.of(Mode.SPLIT_CACHE, Mode.SPLIT_CACHE_REPLICA),
            TraversalConfig.parse("--fabric", "tcp", "--modes", "split-cache,split-cache-replica").modes());
    }
}
