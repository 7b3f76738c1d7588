package io.pragh.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.fabric.FabricKind;
import io.pragh.fabric.tcp.ClusterSecret;
import io.pragh.fabric.tcp.TcpFabricOptions;
import io.pragh.reclaim.Leases;
import io.pragh.store.StoreConfig;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A cluster file is read completely or refused with the offending key and the reason, one class of fault at a time. */
class ClusterConfigTest {
    private static final String SECRET = ConfigFiles.SECRET;
    private static final String MACHINES = ConfigFiles.MACHINES;
    private static final String MINIMAL = ConfigFiles.MINIMAL;

    @TempDir
    Path dir;

    private ClusterConfig parse(String yaml) {
        return ConfigFiles.parse(dir, yaml);
    }

    private ConfigException refused(String yaml, String key, String reasonPart) {
        return ConfigFiles.refused(dir, yaml, key, reasonPart);
    }

    // ------------------------------------------------------------------ what loads

    @Test
    void theExampleFileLoadsWithEveryKeyRead() throws IOException {
        String example;
        try (InputStream in = ClusterConfig.class.getResourceAsStream("/cluster-example.yaml")) {
            example = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        ClusterConfig c = parse(example);
        assertEquals(3, c.machineCount());
        assertEquals(7402, c.machine(2).fabricPort());
        assertEquals(8183, c.machine(1).gremlinPort());
        assertEquals(256L << 20, c.store().valueBytes());
        assertEquals(1 << 30, c.store().chunkBytes());
        assertEquals(Duration.ofSeconds(5), c.leases().cache());
        assertEquals(MigrationPolicy.Mode.EAGER, c.policy().mode());
        assertEquals(FabricKind.AUTO, c.fabric().kind());
        assertEquals(dir.resolve("pragh-data"), c.dataDirectory());
        assertEquals(dir.resolve("pragh-data").resolve("m1"), c.dataDirectory(1));
        assertEquals(TcpFabricOptions.defaults().withIoThreads(2), c.fabric().tcp(),
            "the example documents the TCP defaults");
        assertEquals(StoreSizes.DEFAULT, c.store(), "the example documents the store defaults");
        assertEquals(MigrationPolicy.DEFAULT, c.policy(), "the example documents the policy defaults");
        assertEquals(DurabilityConfig.DEFAULT, c.durability(), "the example documents the durability defaults");
        assertEquals(ReplicaConfig.OFF, c.replicas(), "the example documents the replica defaults");
        assertEquals(7501, c.machine(1).clientPort());
        assertEquals(new MembershipConfig("127.0.0.1:2181", Duration.ofSeconds(10), "/pragh"), c.membership());
    }

    @Test
    void membershipIsOptionalAndChecked() {
        assertFalse(parse(MINIMAL).membership().enabled(), "no ZooKeeper unless configured");
        refused(MINIMAL + "membership: {zookeeper: \"zk one:2181\"}\n", "membership.zookeeper", "host:port");
        refused(MINIMAL + "membership: {zookeeper: \"zk:2181\", root: pragh}\n", "membership.root",
            "absolute znode path");
        refused(MINIMAL + "membership: {zookeeper: \"zk:2181\", sessionTimeout: 10ms}\n",
            "membership.sessionTimeout", "must be between");
    }

    @Test
    void gremlinPortIsOptionalForEveryMachineOrForNone() {
        ClusterConfig c = parse(MINIMAL.replace(", gremlinPort: 8182", "").replace(", gremlinPort: 8183", ""));
        assertEquals(MachineConfig.NO_GREMLIN_PORT, c.machine(0).gremlinPort());
        assertEquals(MachineConfig.NO_GREMLIN_PORT, c.machine(1).gremlinPort());
        refused(MINIMAL.replace(", gremlinPort: 8183", ""), "machines",
            "machine 1 has no gremlinPort while others have one");
        refused(MINIMAL.replace(", gremlinPort: 8182", ""), "machines",
            "machine 0 has no gremlinPort while others have one");
    }

    @Test
    void aMemoryNodeTakesTheHighestIdsAndNoQueryPorts() {
        String withMemory = MINIMAL.replace("gremlinPort: 8183}", "gremlinPort: 8183}\n  - {id: 2, host: 127.0.0.1,"
            + " fabricPort: 7402, role: memory}");
        ClusterConfig c = parse(withMemory);
        assertEquals(io.pragh.tier.MachineRole.MEMORY, c.machine(2).role());
        assertEquals(io.pragh.tier.MachineRole.COMPUTE, c.machine(0).role(), "compute is the default role");
        assertEquals(2, c.computeMachineCount());
        assertEquals(3, c.machineCount());
        refused(withMemory.replace("role: memory", "role: storage"), "machines[2].role",
            "unknown machine role 'storage': expected compute or memory");
        refused(withMemory.replace("fabricPort: 7402, role: memory", "fabricPort: 7402, gremlinPort: 8184, role: memory"),
            "machines[2].gremlinPort", "a memory node runs no queries");
        refused(MINIMAL.replace("fabricPort: 7400, gremlinPort: 8182}", "fabricPort: 7400, role: memory}"),
            "machines", "memory nodes take the highest ids");
    }

    @Test
    void aTieringBudgetIsReadAndNeedsAMemoryNode() {
        String withMemory = MINIMAL.replace("gremlinPort: 8183}", "gremlinPort: 8183}\n  - {id: 2, host: 127.0.0.1,"
            + " fabricPort: 7402, role: memory}");
        assertFalse(parse(withMemory).tiering().enabled(), "no tiering section: tiering off");
        ClusterConfig c = parse(withMemory + "tiering: {localBudgetPerMachine: 64MiB, warmKeptLocal: 25%,"
            + " hotAccesses: 4, interval: 500ms}\n");
        assertEquals(new io.pragh.tier.TieringConfig(64L << 20, 0.25, 4, 500), c.tiering().settings());
        refused(MINIMAL + "tiering: {localBudgetPerMachine: 64MiB}\n", "tiering.localBudgetPerMachine",
            "a local budget needs memory nodes to spill values to");
        refused(withMemory + "tiering: {localBudgetPerMachine: lots}\n", "tiering.localBudgetPerMachine",
            "lots");
        refused(withMemory + "tiering: {localBudgetPerMachine: 1MiB, interval: 0ms}\n", "tiering.interval",
            "must be between");
        refused(withMemory + "tiering: {localBudget: 1MiB}\n", "tiering.localBudget", "");
    }

    @Test
    void clientPortIsOptionalAndClaimsItsPort() {
        ClusterConfig c = parse(MINIMAL);
        assertEquals(MachineConfig.NO_CLIENT_PORT, c.machine(0).clientPort(), "no client port unless given");
        assertThrows(IllegalStateException.class, () -> c.machine(0).clientAddress());
        refused(MINIMAL.replace("gremlinPort: 8183}", "gremlinPort: 8183, clientPort: 7400}"),
            "machines[1].clientPort", "duplicate port: 127.0.0.1:7400 is already machines[0].fabricPort");
        refused(MINIMAL.replace("gremlinPort: 8183}", "gremlinPort: 8183, clientPort: 0}"),
            "machines[1].clientPort", "must be between 1 and 65535");
    }

    @Test
    void replicasTakeABudgetAndALeaseAndAreOffWithoutBytes() {
        ClusterConfig c = parse(MINIMAL + "replicas: {bytesPerMachine: 64MiB, lease: 200ms}\n");
        assertEquals(new io.pragh.store.ReplicaSettings(64L << 20, 200), c.replicas().toSettings());
        assertFalse(parse(MINIMAL).replicas().toSettings().enabled(), "off unless the file gives them bytes");
        refused(MINIMAL + "replicas: {bytesPerMachine: lots}\n", "replicas.bytesPerMachine", "");
        refused(MINIMAL + "replicas: {leaseMillis: 5}\n", "replicas.leaseMillis", "unknown key");
        refused(MINIMAL + "leases: {cache: 2s}\nreplicas: {bytesPerMachine: 1MiB, lease: 3s}\n", "replicas.lease",
            "must be at most leases.cache (2000 ms), got 3000 ms");
    }

    @Test
    void durabilityTakesASyncPolicyAndASnapshotInterval() {
        ClusterConfig c = parse(MINIMAL + "durability: {sync: always, snapshotInterval: 0s}\n");
        assertEquals(new DurabilityConfig(io.pragh.durability.SyncPolicy.ALWAYS, Duration.ZERO), c.durability());
        refused(MINIMAL + "durability: {sync: sometimes}\n", "durability.sync",
            "expected one of none, batch, always");
        refused(MINIMAL + "durability: {snapshotInterval: 5}\n", "durability.snapshotInterval", "expected a duration");
        refused(MINIMAL + "durability: {fsync: always}\n", "durability.fsync", "unknown key");
    }

    @Test
    void omittedSectionsTakeThePapersDefaults() {
        ClusterConfig c = parse(MINIMAL);
        assertEquals(0.5, c.policy().thresholdMargin());
        assertEquals(Duration.ofSeconds(10), c.policy().reportInterval());
        assertEquals(100, c.policy().instantReportRate());
        assertEquals(MigrationPolicy.Mode.EAGER, c.policy().mode());
        assertEquals(MigrationPolicy.Trigger.AUTO, c.policy().trigger(), "the policy runs by itself by default");
        assertEquals(io.pragh.monitor.MonitorConfig.DEFAULT_REPORT_RATE, c.policy().minimumRate());
        assertEquals(LeaseConfig.DEFAULT, c.leases());
        assertEquals(StoreSizes.DEFAULT, c.store());
        assertEquals(FabricKind.AUTO, c.fabric().kind());
        assertNull(c.fabric().bindHost());
        assertEquals(2, c.fabricAddresses().size());
        assertEquals(7401, c.fabricAddresses().get(1).getPort());
    }

    @Test
    void unitsAndChoicesAreRead() {
        ClusterConfig c = parse(MINIMAL + """
            store: {valueBytes: 64MiB, chunkBytes: 16MiB, cacheBytes: 0, expectedKeys: 1000, leakScan: 0s,
                    hugePages: true}
            leases: {cache: 250ms, reclaim: 2m}
            policy: {migrationThresholdMargin: 12.5%, migration: deferred, instantReportRate: 0}
            fabric: {kind: tcp, requestTimeout: 10m, inboxBytes: 64KiB, bindHost: 0.0.0.0}
            """);
        assertEquals(64L << 20, c.store().valueBytes());
        assertEquals(16 << 20, c.store().chunkBytes());
        assertEquals(0, c.store().cacheBytes());
        assertEquals(0, c.storeConfig().leakScanMillis(), "0s turns the leak scan off");
        assertTrue(c.storeConfig().hugePages(), "store.hugePages reaches the machines' store configuration");
        assertFalse(parse(MINIMAL).storeConfig().hugePages(), "off unless asked");
        assertEquals(Duration.ofMillis(250), c.leases().cache());
        assertEquals(Duration.ofMinutes(2), c.leases().reclaim());
        assertEquals(0.125, c.policy().thresholdMargin());
        assertEquals(MigrationPolicy.Mode.DEFERRED, c.policy().mode());
        assertEquals(FabricKind.TCP, c.fabric().kind());
        assertEquals(Duration.ofMinutes(10), c.fabric().tcp().requestTimeout());
        assertEquals(8192, c.fabric().tcp().maxMessageBytes());
        assertEquals(7401, c.tcpOptions(1).bindAddress().getPort());
        assertEquals("0.0.0.0", c.tcpOptions(1).bindAddress().getHostString());
    }

    @Test
    void verbsTakesTheSharedTimeoutsAndRefusesTheTcpFabricsOwnKeys() {
        ClusterConfig c = parse(MINIMAL + "fabric: {kind: verbs, connectTimeout: 250ms, requestTimeout: 3s}\n");
        assertEquals(FabricKind.VERBS, c.fabric().kind());
        assertEquals(Duration.ofMillis(250), c.fabric().connectTimeout());
        assertEquals(Duration.ofSeconds(3), c.fabric().requestTimeout());
        for (String key : FabricConfig.TCP_ONLY) {
            String value = key.endsWith("Bytes") ? "64KiB" : key.equals("ioThreads") ? "1" : "1s";
            refused(MINIMAL + "fabric: {kind: verbs, " + key + ": " + value + "}\n", "fabric." + key,
                "tunes the tcp fabric only, and fabric.kind is verbs");
            assertEquals(FabricKind.AUTO, parse(MINIMAL + "fabric: {kind: auto, " + key + ": " + value + "}\n")
                .fabric().kind(), "auto keeps " + key + " for a fallback to tcp");
        }
    }

    @Test
    void inProcessCannotConnectTheProcessesOfAClusterFile() {
        refused(MINIMAL + "fabric: {kind: in-process}\n", "fabric.kind", "'in-process' connects machines of one JVM"
            + " only, and the machines of a cluster file run in separate processes; use auto, tcp or verbs");
        refused(MINIMAL + "fabric: {kind: rdma}\n", "fabric.kind", "expected one of auto, verbs, tcp, in-process");
    }

    @Test
    void theDeferredIntervalThatNothingReadIsRefusedSayingWhatToSetInstead() {
        refused(MINIMAL + "policy: {migration: deferred, deferredInterval: 5s}\n", "policy.deferredInterval",
            "a deferred decision watches the home's accesses for one reportInterval");
    }

    @Test
    void theSecretMayComeFromAFileNamedRelativeToTheConfig() throws IOException {
        Files.writeString(dir.resolve("secret"), SECRET + "\n");
        ClusterConfig c = parse(MACHINES + "dataDirectory: /var/pragh\nsecurity: {clusterSecretFile: secret}\n");
        assertEquals(Path.of("/var/pragh"), c.dataDirectory());
        assertFalse(c.secret().toString().contains(SECRET));
        assertEquals(c.secret().toString(), ClusterSecret.fromString(SECRET).toString());
    }

    @Test
    void loadNamesTheFileAndResolvesAgainstItsDirectory() throws IOException {
        Path file = dir.resolve("c.yaml");
        Files.writeString(file, MINIMAL);
        assertEquals(dir.resolve("data"), ClusterConfig.load(file).dataDirectory());
        ConfigException missing = assertThrows(ConfigException.class,
            () -> ClusterConfig.load(dir.resolve("absent.yaml")));
        assertTrue(missing.getMessage().contains("absent.yaml: cannot read the file"), missing.getMessage());
    }

    // ------------------------------------------------------------------ unknown keys

    @Test
    void anUnknownKeyIsRefusedWithTheKeysThatExist() {
        refused(MINIMAL.replace("fabricPort: 7401", "fabricPrt: 7401"), "machines[1].fabricPrt",
            "unknown key (known keys here: id, host, fabricPort, gremlinPort, clientPort, role)");
        refused(MINIMAL + "polcy: {migration: eager}\n", "polcy", "unknown key");
        refused(MINIMAL + "leases: {cache: 1s, reclam: 2s}\n", "leases.reclam", "unknown key");
        refused(MINIMAL + "fabric: {kind: tcp, threads: 4}\n", "fabric.threads", "known keys here: kind,");
    }

    // ------------------------------------------------------------------ wrong types

    @Test
    void aValueOfTheWrongTypeIsRefusedSayingWhatWasExpected() {
        refused(MINIMAL.replace("fabricPort: 7400", "fabricPort: seven"), "machines[0].fabricPort",
            "expected an integer, got the string \"seven\"");
        refused(MINIMAL.replace("fabricPort: 7400", "fabricPort: 7400.5"), "machines[0].fabricPort",
            "expected an integer, got 7400.5");
        refused(MINIMAL + "leases: {cache: 10}\n", "leases.cache",
            "expected a duration with a unit like 500ms, 10s, 2m or 1h, got 10");
        refused(MINIMAL + "store: {valueBytes: 64MB}\n", "store.valueBytes",
            "expected a size like 4096, 64KiB, 256MiB or 1GiB (binary units), got \"64MB\"");
        refused(MINIMAL + "policy: {migrationThresholdMargin: 0.5}\n", "policy.migrationThresholdMargin",
            "expected a percentage like 50%, got 0.5");
        refused(MINIMAL + "policy: {migration: lazy}\n", "policy.migration",
            "expected one of eager, deferred, got the string \"lazy\"");
        refused(MINIMAL + "fabric: {kind: rdma}\n", "fabric.kind", "expected one of auto, verbs, tcp, in-process");
        refused(MINIMAL + "store: 5\n", "store", "expected a mapping of keys, got 5");
        refused("machines: 3\ndataDirectory: d\n", "machines", "expected a list, got 3");
        refused("machines:\n  - 7\n", "machines[0]", "expected a mapping of keys, got 7");
        refused(MACHINES + "dataDirectory: d\nsecurity: {clusterSecret: 12345678901234567890}\n",
            "security.clusterSecret", "expected a string");
    }

    @Test
    void requiredKeysMustBePresent() {
        refused("store: {}\n", "machines", "required");
        refused(MINIMAL.replace("dataDirectory: data\n", ""), "dataDirectory", "required");
        refused(MINIMAL.replace("fabricPort: 7400", "fabricPort: ~"), "machines[0].fabricPort", "required");
        refused(MACHINES + "dataDirectory: d\n", "security", "set exactly one of clusterSecret and clusterSecretFile");
    }

    @Test
    void aMalformedOrEmptyDocumentIsRefusedWithItsLine() {
        refused("", "", "the file is empty");
        refused("- a\n- b\n", "", "expected a mapping of keys at the top level");
        ConfigException e = refused(MINIMAL + "fabric: {kind: tcp\n", "fabric.kind", "line ");
        assertTrue(e.reason().startsWith("line "), e.getMessage());
    }

    // ------------------------------------------------------------------ out of range

    @Test
    void theMigrationTriggerAndMinimumRateAreReadAndCheckedByName() {
        MigrationPolicy p = parse(MINIMAL + "policy: {trigger: manual, minimumRate: 2.5}\n").policy();
        assertEquals(MigrationPolicy.Trigger.MANUAL, p.trigger());
        assertEquals(2.5, p.minimumRate());
        assertEquals(40, parse(MINIMAL + "policy: {minimumRate: 40}\n").policy().minimumRate(), "an integer is a rate");
        refused(MINIMAL + "policy: {trigger: sometimes}\n", "policy.trigger", "expected one of auto, manual");
        assertEquals(0, parse(MINIMAL + "policy: {minimumRate: 0}\n").policy().minimumRate(), "0: the relative policy");
        refused(MINIMAL + "policy: {minimumRate: -3.5}\n", "policy.minimumRate",
            "must be at least 0 and at most 1000000000, got -3.5");
        refused(MINIMAL + "policy: {minimumRate: 2e9}\n", "policy.minimumRate", "at most 1000000000");
        refused(MINIMAL + "policy: {minimumRate: fast}\n", "policy.minimumRate", "expected a number, got");
    }

    @Test
    void aValueOutOfRangeIsRefusedWithTheRange() {
        refused(MINIMAL.replace("fabricPort: 7401", "fabricPort: 70000"), "machines[1].fabricPort",
            "must be between 1 and 65535, got 70000");
        refused(MINIMAL + "store: {chunkBytes: 3000000}\n", "store.chunkBytes", "must be a power of two");
        refused(MINIMAL + "store: {chunkBytes: 2GiB}\n", "store.chunkBytes", "must be between 4KiB and 1GiB, got 2GiB");
        refused(MINIMAL + "store: {valueBytes: 1TiB}\n", "store.valueBytes", "must be between 4KiB and 128GiB");
        refused(MINIMAL + "store: {leakScan: 25h}\n", "store.leakScan", "must be between 0ms and 24h, got 25h");
        refused(MINIMAL + "store: {hugePages: \"yes\"}\n", "store.hugePages", "expected true or false");
        refused(MINIMAL + "policy: {migrationThresholdMargin: 2000%}\n", "policy.migrationThresholdMargin",
            "must be between 0% and 1000%, got 2000%");
        refused(MINIMAL + "policy: {reportInterval: 0s}\n", "policy.reportInterval",
            "must be between 10ms and 1h, got 0s");
        refused(MINIMAL + "policy: {instantReportRate: -1}\n", "policy.instantReportRate",
            "must be between 0 and 1000000, got -1");
        refused(MINIMAL + "fabric: {ioThreads: 0}\n", "fabric.ioThreads", "must be between 1 and 64, got 0");
        refused(MINIMAL + "fabric: {inboxBytes: 100000}\n", "fabric.inboxBytes", "must be a power of two");
        refused(MINIMAL.replace("host: 127.0.0.1, fabricPort: 7401", "host: 'a b', fabricPort: 7401"),
            "machines[1].host", "has no spaces");
        refused(MACHINES + "dataDirectory: d\nsecurity: {clusterSecret: short}\n", "security.clusterSecret",
            "needs at least 16 bytes, got 5");
    }

    @Test
    void aClusterOfMoreThan128MachinesIsRefused() {
        StringBuilder yaml = new StringBuilder("machines:\n");
        for (int i = 0; i < 129; i++) {
            yaml.append("  - {id: ").append(i).append(", host: h").append(i)
                .append(", fabricPort: 7400, gremlinPort: 8182}\n");
        }
        refused(yaml + "dataDirectory: d\nsecurity: {clusterSecret: " + SECRET + "}\n", "machines",
            "a cluster has 1 to 128 machines, got 129");
    }

    // ------------------------------------------------------------------ duplicates

    @Test
    void duplicateMachineIdsAndGapsAreRefused() {
        refused(MINIMAL.replace("id: 1", "id: 0"), "machines[1].id", "duplicate machine id 0 (also machines[0].id)");
        refused(MINIMAL.replace("id: 1", "id: 2"), "machines[1].id", "machine ids must be 0..1 for 2 machines");
    }

    @Test
    void twoServicesOnOneHostAndPortAreRefused() {
        refused(MINIMAL.replace("fabricPort: 7401", "fabricPort: 8182"), "machines[1].fabricPort",
            "duplicate port: 127.0.0.1:8182 is already machines[0].gremlinPort");
        refused(MINIMAL.replace("gremlinPort: 8183", "gremlinPort: 7401"), "machines[1].gremlinPort",
            "duplicate port: 127.0.0.1:7401 is already machines[1].fabricPort");
        ClusterConfig otherHosts = parse(MINIMAL.replace("host: 127.0.0.1, fabricPort: 7401, gremlinPort: 8183",
            "host: 127.0.0.2, fabricPort: 7400, gremlinPort: 8182"));
        assertEquals(7400, otherHosts.machine(1).fabricPort(), "the same port on another host is fine");
    }

    @Test
    void aKeyWrittenTwiceIsRefused() {
        refused(MINIMAL + "leases:\n  cache: 1s\n  cache: 2s\n", "leases.cache", "Duplicate field 'cache'");
    }

    // ------------------------------------------------------------------ leases and secret

    /** A cached address that outlived its memory fails its generation check, so the reclaim lease may be shorter. */
    @Test
    void aCacheLeaseLongerThanTheReclaimLeaseIsAccepted() {
        LeaseConfig leases = parse(MINIMAL + "leases: {cache: 20s, reclaim: 200ms}\n").leases();
        assertEquals(Duration.ofSeconds(20), leases.cache());
        assertEquals(Duration.ofMillis(200), leases.reclaim());
        assertEquals(new Leases(20_000, 200), leases.toLeases());
    }

    @Test
    void theSizesAndLeasesBecomeTheCoreStoreConfiguration() {
        StoreConfig core = parse(MINIMAL
            + "store: {expectedKeys: 5000, valueBytes: 8MiB, chunkBytes: 1MiB, cacheBytes: 0, reclaimRingSlots: 32}\n"
            + "leases: {cache: 300ms, reclaim: 900ms}\n").storeConfig();
        assertEquals(new StoreConfig(5000, 8L << 20, 1 << 20, 0, new Leases(300, 900), 32,
            StoreConfig.DEFAULT_MAX_VALUE_BYTES), core);
        assertEquals(StoreConfig.defaults(), parse(MINIMAL).storeConfig(), "omitted keys are the core's defaults");
    }

    @Test
    void theSecretMustComeFromExactlyOnePlaceAndBeReadable() throws IOException {
        refused(MACHINES + "dataDirectory: d\nsecurity: {clusterSecret: " + SECRET + ", clusterSecretFile: f}\n",
            "security", "set exactly one of clusterSecret and clusterSecretFile");
        refused(MACHINES + "dataDirectory: d\nsecurity: {clusterSecretFile: nowhere}\n", "security.clusterSecretFile",
            "cannot read " + dir.resolve("nowhere"));
        Files.writeString(dir.resolve("weak"), "tiny\n");
        refused(MACHINES + "dataDirectory: d\nsecurity: {clusterSecretFile: weak}\n", "security.clusterSecretFile",
            "needs at least 16 bytes, got 4");
    }
}
