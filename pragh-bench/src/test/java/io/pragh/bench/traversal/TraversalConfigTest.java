package io.pragh.bench.traversal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.coordinator.Mechanism;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class TraversalConfigTest {
    @Test
    void everyFlagOfTheIssueIsParsed() {
        TraversalConfig c = TraversalConfig.parse("--machines", "4", "--scale", "12", "--scope", "256", "--fanout",
            "50", "--get-ratio", "0.5", "--dist", "uniform", "--modes", "orig,split", "--duration", "5",
            "--remote-latency-ns", "1000", "--threads", "3", "--seed", "7", "--json", "out.json",
            "--mechanism", "deferred");
        assertEquals(4, c.machines());
        assertEquals(12, c.scale());
        assertEquals(256, c.scope());
        assertEquals(50, c.fanout());
        assertEquals(0.5, c.getRatio());
        assertEquals("uniform", c.dist());
        assertEquals(List.of(Mode.ORIG, Mode.SPLIT), c.modes());
        assertEquals(5, c.durationSeconds());
        assertEquals(1000, c.remoteLatencyNs());
        assertEquals(3, c.threads());
        assertEquals(7, c.seed());
        assertEquals(Path.of("out.json"), c.json());
        assertEquals(Mechanism.DEFERRED, c.mechanism());
    }

    @Test
    void defaultsAreThePapersSetting() {
        TraversalConfig c = TraversalConfig.defaults();
        assertEquals(8, c.machines());
        assertEquals(1024, c.scope());
        assertEquals(100, c.fanout());
        assertEquals(0.95, c.getRatio());
        assertEquals("zipf", c.dist());
    }

    private static String refusal(String... args) {
        return assertThrows(IllegalArgumentException.class, () -> TraversalConfig.parse(args)).getMessage();
    }

    @Test
    void badFlagsAreRefusedNamingTheFlag() {
        assertTrue(refusal("--machnes", "4").contains("--machnes"));
        assertTrue(refusal("--dist", "pareto").contains("--dist"));
        assertTrue(refusal("--scale", "twelve").contains("--scale"));
        assertTrue(refusal("--get-ratio", "1.5").contains("--get-ratio"));
        assertTrue(refusal("--modes", "orig,fast").contains("fast"));
        assertTrue(refusal("--modes", "orig,orig").contains("twice"));
        assertTrue(refusal("--duration").contains("needs a value"));
        assertTrue(refusal("--mechanism", "lazy").contains("--mechanism"));
    }

    @Test
    void theMigrationRateThresholdDefaultsToTheCoresRelativePolicyAndIsRefusedWhenNegative() {
        assertEquals(io.pragh.coordinator.CoordinatorConfig.DEFAULT_MIN_RATE, TraversalConfig.defaults().minRate());
        assertEquals(io.pragh.monitor.MonitorConfig.DEFAULT_REPORT_RATE, TraversalConfig.defaults().minRate());
        assertEquals(0.0, TraversalConfig.defaults().minRate(), "no absolute rate unless asked for");
        assertEquals(0.5, TraversalConfig.parse("--min-rate", "0.5").minRate());
        assertEquals(0.5, TraversalConfig.parse("--min-rate", "0.5").asMap().get("min_rate"));
        assertTrue(refusal("--min-rate", "-1").contains("--min-rate"));
    }

    @Test
    void aHistoryOfSampledKeysIsRecordedByDefaultAndZeroTurnsItOff() {
        assertEquals(TraversalConfig.DEFAULT_HISTORY_KEYS, TraversalConfig.defaults().historyKeys());
        assertEquals(TraversalConfig.DEFAULT_HISTORY_KEYS, TraversalConfig.defaults().asMap().get("history_keys"));
        assertEquals(0, TraversalConfig.parse("--history-keys", "0").historyKeys());
        assertTrue(refusal("--history-keys", "-1").contains("--history-keys -1 is invalid"));
    }

    @Test
    void theControlPlaneRunsThroughTheMeasurementUnlessFrozenIsAsked() {
        assertTrue(TraversalConfig.defaults().liveControl(), "a running system keeps deciding");
        assertEquals("live", TraversalConfig.defaults().asMap().get("control"));
        assertFalse(TraversalConfig.parse("--control", "frozen").liveControl());
        assertEquals("frozen", TraversalConfig.parse("--control", "frozen").asMap().get("control"));
        assertTrue(refusal("--control", "on").contains("--control on is invalid"));
    }

    @Test
    void theFabricIsInProcessUnlessTcpIsAskedAndTcpRefusesAnEmulatedLatency() {
        TraversalConfig inProcess = TraversalConfig.defaults();
        assertEquals("inprocess", inProcess.fabric());
        assertEquals("inprocess", inProcess.asMap().get("fabric"));
        assertEquals(inProcess.remoteLatencyNs(), inProcess.asMap().get("remote_latency_ns"));
        assertEquals("emulated", inProcess.asMap().get("remote_latency"));

        TraversalConfig tcp = TraversalConfig.parse("--fabric", "tcp");
        assertTrue(tcp.tcp());
        assertEquals("tcp", tcp.asMap().get("fabric"));
        assertEquals(null, tcp.asMap().get("remote_latency_ns"), "no emulated latency over tcp");
        assertEquals("real loopback TCP", tcp.asMap().get("remote_latency"));
        assertTrue(tcp.fabricDescription().contains("real loopback"), tcp.fabricDescription());

        assertTrue(refusal("--fabric", "rdma").contains("--fabric rdma is invalid: unknown fabric 'rdma'"));
        assertTrue(refusal("--fabric", "verbs").contains("the benchmark runs on inprocess"), "verbs: not here");
        assertEquals("inprocess", TraversalConfig.parse("--fabric", "in-process").fabric(), "FabricKind's label too");
        String both = refusal("--fabric", "tcp", "--remote-latency-ns", "500");
        assertTrue(both.contains("--remote-latency-ns") && both.contains("loopback"), both);
    }

    @Test
    void aClusterDirectoryIsForServerProcessesOnly() {
        assertEquals(null, TraversalConfig.parse("--fabric", "tcp").clusterDir(), "a temporary directory by default");
        TraversalConfig kept = TraversalConfig.parse("--fabric", "tcp", "--cluster-dir", "runs/c");
        assertEquals(java.nio.file.Path.of("runs/c"), kept.clusterDir());
        assertEquals("runs/c", kept.asMap().get("cluster_dir"));
        String inProcess = refusal("--cluster-dir", "runs/c");
        assertTrue(inProcess.contains("--cluster-dir applies to --fabric tcp only"), inProcess);
    }

    @Test
    void chartsNeedADirectory() {
        assertTrue(refusal("--charts").contains("needs a value"));
    }
}
