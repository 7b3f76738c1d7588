package io.pragh.server.cli;

import io.pragh.fabric.tcp.DevCertificates;
import io.pragh.server.config.ClusterConfig;
import io.pragh.server.config.PrivateFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * Writes what a new local cluster's directory holds before anything runs: {@code cluster.yaml} (loopback ports, a
 * fresh secret, data below {@code data/}, the settings' sections), {@code jvm-args} for its server processes, the
 * local ZooKeeper's {@code zookeeper.cfg} when it runs one, and with TLS a throwaway CA in {@code tls/}. The file is
 * checked as a server would read it before anything is written, so a bad setting leaves no half-made cluster.
 *
 * <pre>{@code
 * ClusterFiles.write(dir, LocalCluster.Settings.small(3), false);
 * ClusterConfig config = ClusterConfig.load(dir.resolve(LocalCluster.CONFIG));
 * }</pre>
 */
final class ClusterFiles {
    /** The extra JVM options of every server process, one a line. */
    static final String JVM_ARGS = "jvm-args";

    private ClusterFiles() {
    }

    /** Writes a new cluster in {@code dir}, which must not hold one yet. */
    static void write(Path dir, LocalCluster.Settings s, boolean tls) {
        Path file = dir.resolve(LocalCluster.CONFIG);
        if (Files.exists(file)) {
            throw new IllegalArgumentException(dir + " already holds a cluster (" + LocalCluster.CONFIG + "); use"
                + " another --dir or 'cluster stop' and remove it");
        }
        int[] ports = FreePorts.some(2 * s.machines() + 1);
        for (int i = 0; i < s.machines(); i++) {
            ports[2 * i] = LocalCluster.Ports.pick(s.ports().fabric(), i, ports[2 * i]);
            ports[2 * i + 1] = LocalCluster.Ports.pick(s.ports().client(), i, ports[2 * i + 1]);
        }
        int zookeeperPort = LocalCluster.Ports.pick(s.ports().zookeeper(), 0, ports[2 * s.machines()]);
        String zookeeper = switch (s.zookeeper()) {
            case LocalCluster.Settings.NO_MEMBERSHIP -> null;
            case LocalCluster.Settings.LOCAL_ZOOKEEPER -> "127.0.0.1:" + zookeeperPort;
            default -> s.zookeeper();
        };
        String yaml = clusterFile(dir, s, tls, ports, zookeeper);
        // Checked before anything is written: a bad setting leaves no half-made cluster behind.
        ClusterConfig.parse(yaml, file.toString(), dir.toAbsolutePath());
        try {
            Files.createDirectories(dir);
            PrivateFiles.writeString(file, yaml); // it holds the cluster secret
            Files.writeString(dir.resolve(JVM_ARGS), String.join("\n", s.jvmArgs()), StandardCharsets.UTF_8);
            if (s.zookeeper().equals(LocalCluster.Settings.LOCAL_ZOOKEEPER)) {
                Files.writeString(dir.resolve(LocalCluster.ZOOKEEPER_CONFIG), "tickTime=200\nminSessionTimeout=400\n"
                    + "dataDir=" + dir.toAbsolutePath().resolve("zookeeper") + "\nclientPort=" + zookeeperPort
                    + "\nclientPortAddress=127.0.0.1\nmaxClientCnxns=100\nadmin.enableServer=false\n",
                    StandardCharsets.UTF_8);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * The cluster file's text: machine I on {@code ports[2I]} (fabric) and {@code ports[2I + 1]} (client),
     * membership at {@code zookeeper} (null for none).
     */
    private static String clusterFile(Path dir, LocalCluster.Settings s, boolean tls, int[] ports, String zookeeper) {
        byte[] secret = new byte[24];
        new SecureRandom().nextBytes(secret);
        StringBuilder y = new StringBuilder("# written by ./pragh cluster start\nmachines:\n");
        for (int i = 0; i < s.machines(); i++) {
            y.append("  - {id: ").append(i).append(", host: 127.0.0.1, fabricPort: ").append(ports[2 * i])
                .append(", clientPort: ").append(ports[2 * i + 1]);
            if (s.gremlinPortBase() != LocalCluster.Settings.NO_GREMLIN) {
                y.append(", gremlinPort: ").append(s.gremlinPortBase() + i);
            }
            y.append("}\n");
        }
        y.append("store: {valueBytes: ").append(s.valueBytes()).append(", expectedKeys: ").append(s.expectedKeys())
            .append(", cacheBytes: ").append(s.cacheBytes()).append(", chunkBytes: ").append(s.chunkBytes())
            .append(", reclaimRingSlots: 4096}\n")
            .append("dataDirectory: data\n")
            .append("durability: {sync: ").append(s.sync()).append(", snapshotInterval: 30s}\n")
            .append("security: {clusterSecret: \"").append(HexFormat.of().formatHex(secret)).append("\"")
            .append(tls ? devTls(dir) : "").append("}\n")
            .append("fabric: {kind: tcp, requestTimeout: ").append(s.requestTimeout())
            .append(", connectTimeout: 500ms, reconnectBackoff: 200ms, inboxBytes: 4MiB, ioThreads: 1}\n");
        if (zookeeper != null) {
            y.append("membership: {zookeeper: \"").append(zookeeper).append("\", sessionTimeout: ")
                .append(s.sessionTimeout()).append("}\n");
        }
        if (!s.sections().containsKey("metrics")) {
            // Machine I serves GET /metrics on this port + I: a run of free ports, as the other ports are free ones.
            y.append("metrics: {port: ").append(FreePorts.run(s.machines(), ports)).append("}\n");
        }
        s.sections().forEach((key, flowMap) -> y.append(key).append(": ").append(flowMap).append("\n"));
        return y.toString();
    }

    /** Makes the throwaway CA and node certificate; the {@code tls} entry of the security section that uses them. */
    private static String devTls(Path dir) {
        Path tlsDir = dir.toAbsolutePath().resolve("tls");
        try {
            DevCertificates.create(tlsDir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make the cluster's TLS certificates in " + tlsDir + ": "
                + e.getMessage(), e);
        }
        return ", tls: {certificate: tls/node.pem, key: tls/node-key.pem, trust: tls/ca.pem}";
    }
}
