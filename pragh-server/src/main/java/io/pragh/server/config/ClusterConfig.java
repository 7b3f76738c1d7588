package io.pragh.server.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.pragh.address.Address;
import io.pragh.fabric.tcp.ClusterSecret;
import io.pragh.fabric.tcp.ClusterTls;
import io.pragh.fabric.tcp.TcpFabricOptions;
import io.pragh.store.StoreConfig;
import io.pragh.tier.MachineRole;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A cluster's configuration file, the same on every machine: the machines and their ports, store sizes, leases,
 * migration policy, data directory, cluster secret and fabric. {@link #load} checks it all and throws a
 * {@link ConfigException} naming the key at fault; an example with every key is {@code cluster-example.yaml} in
 * this module's resources.
 *
 * <pre>{@code
 * ClusterConfig config = ClusterConfig.load(Path.of("cluster.yaml"));
 * try (TcpFabric fabric = new TcpFabric(id, config.fabricAddresses(), config.secret(), config.tcpOptions(id),
 *                                      config.tls())) {
 *     ...
 * }
 * }</pre>
 *
 * @param machines      ordered by id; a machine's id is its index
 * @param store         region and cache sizes per machine
 * @param leases        cache and reclaim leases
 * @param policy        migration policy
 * @param dataDirectory where machines keep their logs and snapshots (relative paths are relative to the file)
 * @param secret        the cluster secret (from {@code security.clusterSecret} or {@code security.clusterSecretFile})
 * @param tls           mutual TLS for the fabric and client ports ({@code security.tls}), or null when not configured
 * @param fabric        fabric kind and TCP options
 * @param durability    when the write-ahead log syncs and how often snapshots are taken
 * @param membership    the ZooKeeper ensemble that tracks live machines (optional)
 * @param placement     hash placement (the default) or a kind an extension supplies (never with a membership)
 * @param metrics       each machine's metrics port and the slow-query log's threshold
 * @param gremlin       what the Gremlin ports admit: io() in one directory, logins
 * @param sparql        each machine's SPARQL port (pragh-rdf's front end) and what it admits
 * @param limits        idle timeout of every port and the Gremlin port's frame limit
 * @param extensions    the server extensions every machine runs, by name ({@code io.pragh.server.extension}):
 *                      none unless the file names them
 * @param replicas      read replicas of contended values: off unless the file gives them bytes
 * @param tiering       the far-memory tier: off unless the file gives each compute machine a local budget
 */
public record ClusterConfig(List<MachineConfig> machines, StoreSizes store, LeaseConfig leases,
                            MigrationPolicy policy, Path dataDirectory, ClusterSecret secret, ClusterTls tls,
                            FabricConfig fabric,
                            DurabilityConfig durability, MembershipConfig membership, PlacementConfig placement,
                            MetricsConfig metrics, GremlinConfig gremlin, SparqlConfig sparql,
                            LimitsConfig limits, List<String> extensions, ReplicaConfig replicas,
                            TierConfig tiering) {
    public ClusterConfig {
        machines = List.copyOf(machines);
        extensions = List.copyOf(extensions);
    }

    /** Reads and checks a configuration file. */
    public static ClusterConfig load(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ConfigException(file.toString(), "", "cannot read the file: " + e);
        }
        Path dir = file.toAbsolutePath().getParent();
        return parse(text, file.toString(), dir);
    }

    /**
     * Checks configuration text; {@code source} names it in errors and relative paths resolve against
     * {@code baseDir}.
     */
    public static ClusterConfig parse(String yaml, String source, Path baseDir) {
        ConfigNode root = new ConfigNode(source, "", readTree(yaml, source))
            .allow("machines", "store", "leases", "policy", "dataDirectory", "security", "fabric", "durability",
                "membership", "placement", "metrics", "gremlin", "sparql", "limits", "extensions", "replicas",
                "tiering");
        Map<String, String> endpoints = new HashMap<>();
        List<MachineConfig> machines = readMachines(root, source, endpoints);
        StoreSizes store = StoreSizes.read(root.section("store"));
        LeaseConfig leases = LeaseConfig.read(root.section("leases"));
        MigrationPolicy policy = MigrationPolicy.read(root.section("policy"));
        Path data = baseDir.resolve(root.string("dataDirectory", null)).normalize();
        ConfigNode security = root.section("security");
        ClusterSecret secret = readSecret(security, baseDir);
        ClusterTls tls = readTls(security.section("tls"), baseDir);
        FabricConfig fabric = FabricConfig.read(root.section("fabric"));
        MetricsConfig metrics = MetricsConfig.read(root.section("metrics"), machines.size());
        GremlinConfig gremlin = GremlinConfig.read(root.section("gremlin"), baseDir);
        SparqlConfig sparql = SparqlConfig.read(root.section("sparql"), machines.size());
        for (MachineConfig m : machines) {
            claimRun(endpoints, m, metrics.port(m.id()), "metrics.port", source);
            claimRun(endpoints, m, sparql.port(m.id()), "sparql.port", source);
        }
        DurabilityConfig durability = DurabilityConfig.read(root.section("durability"));
        MembershipConfig membership = MembershipConfig.read(root.section("membership"));
        PlacementConfig placement = PlacementConfig.read(root.section("placement"));
        List<String> extensions = root.words("extensions");
        if (!placement.isHash() && extensions.isEmpty()) {
            throw new ConfigException(source, "placement.kind", "'" + placement.kind() + "' is not built in (only"
                + " hash is): a server extension supplies it, so name that extension under extensions (for the"
                + " benchmark's shard placement: extensions: [bench])");
        }
        if (!placement.isHash() && machines.stream().anyMatch(m -> m.role() == MachineRole.MEMORY)) {
            throw new ConfigException(source, "placement.kind", "placement '" + placement.kind() + "' cannot run"
                + " with memory nodes (role: memory): only hash placement leaves them without keys");
        }
        if (!placement.isHash() && membership.enabled()) {
            throw new ConfigException(source, "placement.kind", "placement '" + placement.kind() + "' cannot run"
                + " with a membership section: crash recovery assumes a key's home never changes, which only hash"
                + " placement guarantees (remove membership, e.g. cluster start --zookeeper none)");
        }
        ReplicaConfig replicas = ReplicaConfig.read(root.section("replicas"));
        if (replicas.bytesPerMachine() > 0 && replicas.lease().compareTo(leases.cache()) > 0) {
            // The holder's cache entry carries the replica's lease: it cannot outlast the cache lease.
            throw new ConfigException(source, "replicas.lease", "must be at most leases.cache (" + leases.cache()
                .toMillis() + " ms), got " + replicas.lease().toMillis() + " ms");
        }
        TierConfig tiering = TierConfig.read(root.section("tiering"));
        if (tiering.enabled() && machines.stream().noneMatch(m -> m.role() == MachineRole.MEMORY)) {
            throw new ConfigException(source, "tiering.localBudgetPerMachine", "a local budget needs memory nodes to"
                + " spill values to: give at least one machine role: memory, or remove the tiering section");
        }
        return new ClusterConfig(machines, store, leases, policy, data, secret, tls, fabric, durability,
            membership, placement, metrics, gremlin, sparql, LimitsConfig.read(root.section("limits")), extensions,
            replicas, tiering);
    }

    private static JsonNode readTree(String yaml, String source) {
        // Duplicate keys are refused: YAML would otherwise keep the last one and hide the first.
        ObjectMapper mapper = new ObjectMapper(YAMLFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build());
        JsonNode tree;
        try {
            tree = mapper.readTree(yaml);
        } catch (JsonProcessingException e) {
            throw new ConfigException(source, keyOf(e), where(e.getLocation()) + e.getOriginalMessage());
        }
        if (tree == null || tree.isMissingNode() || tree.isNull()) {
            throw new ConfigException(source, "", "the file is empty");
        }
        if (!tree.isObject()) {
            throw new ConfigException(source, "", "expected a mapping of keys at the top level");
        }
        return tree;
    }

    private static String where(JsonLocation at) {
        return at == null || at.getLineNr() < 1 ? "" : "line " + at.getLineNr() + ", column " + at.getColumnNr()
            + ": ";
    }

    /** The key a parse error happened under, as {@code machines[0].host}, when the parser knows it. */
    private static String keyOf(JsonProcessingException e) {
        if (!(e.getProcessor() instanceof JsonParser p) || p.getParsingContext() == null) {
            return "";
        }
        StringBuilder key = new StringBuilder();
        for (String part : p.getParsingContext().pathAsPointer().toString().split("/")) {
            if (part.isEmpty()) {
                continue;
            }
            if (part.chars().allMatch(Character::isDigit)) {
                key.append('[').append(part).append(']');
            } else {
                key.append(key.length() == 0 ? "" : ".").append(part.replace("~1", "/").replace("~0", "~"));
            }
        }
        return key.toString();
    }

    private static List<MachineConfig> readMachines(ConfigNode root, String source, Map<String, String> endpoints) {
        List<ConfigNode> nodes = root.mappings("machines");
        if (nodes.isEmpty() || nodes.size() > Address.MAX_MACHINES) {
            throw root.error("machines", "a cluster has 1 to " + Address.MAX_MACHINES + " machines, got "
                + nodes.size());
        }
        MachineConfig[] byId = new MachineConfig[nodes.size()];
        String[] idKey = new String[nodes.size()];
        for (ConfigNode n : nodes) {
            MachineConfig m = MachineConfig.read(n);
            if (m.id() >= byId.length) {
                throw new ConfigException(source, n.keyPath("id"), "machine ids must be 0.." + (byId.length - 1)
                    + " for " + byId.length + " machines (an id is the machine's index in the address word), got "
                    + m.id());
            }
            if (byId[m.id()] != null) {
                throw new ConfigException(source, n.keyPath("id"), "duplicate machine id " + m.id() + " (also "
                    + idKey[m.id()] + ")");
            }
            byId[m.id()] = m;
            idKey[m.id()] = n.keyPath("id");
            claim(endpoints, m.host(), m.fabricPort(), n.keyPath("fabricPort"), source);
            if (m.gremlinPort() != MachineConfig.NO_GREMLIN_PORT) {
                claim(endpoints, m.host(), m.gremlinPort(), n.keyPath("gremlinPort"), source);
            }
            if (m.clientPort() != MachineConfig.NO_CLIENT_PORT) {
                claim(endpoints, m.host(), m.clientPort(), n.keyPath("clientPort"), source);
            }
        }
        // Memory nodes home no key: they come after every compute machine, so hash placement over the first ids
        // is the same on servers and clients, whoever computes it.
        int compute = 0;
        while (compute < byId.length && byId[compute].role() == MachineRole.COMPUTE) {
            compute++;
        }
        for (int i = compute; i < byId.length; i++) {
            if (byId[i].role() != MachineRole.MEMORY) {
                throw new ConfigException(source, "machines", "memory nodes take the highest ids, after every"
                    + " compute machine: machine " + i + " is a compute machine after memory node " + compute);
            }
        }
        if (compute == 0) {
            throw new ConfigException(source, "machines", "a cluster needs at least one compute machine (role:"
                + " compute, the default), got only memory nodes");
        }
        // A traversal is routed to its start vertex's home Gremlin port: every compute machine serves one, or none.
        for (int i = 1; i < compute; i++) {
            if ((byId[i].gremlinPort() == MachineConfig.NO_GREMLIN_PORT)
                != (byId[0].gremlinPort() == MachineConfig.NO_GREMLIN_PORT)) {
                int without = byId[i].gremlinPort() == MachineConfig.NO_GREMLIN_PORT ? i : 0;
                throw new ConfigException(source, "machines", "machine " + without + " has no gremlinPort while"
                    + " others have one: every machine serves Gremlin (traversals are routed to their start vertex's"
                    + " home), or none does");
            }
        }
        return List.of(byId);
    }

    /**
     * A port run's port of one machine (the {@code metrics} or {@code sparql} section's {@code port + id}; 0: none),
     * claimed beside the machine's own ports: a SPARQL port equal to the machine's Gremlin or client port would
     * otherwise fail only when the second front end binds, or, on a reused address, answer the wrong protocol.
     */
    private static void claimRun(Map<String, String> endpoints, MachineConfig m, int port, String key, String source) {
        if (port == 0) {
            return;
        }
        String previous = endpoints.putIfAbsent(m.host().toLowerCase(Locale.ROOT) + ":" + port, key);
        if (previous != null) {
            throw new ConfigException(source, key, "duplicate port: machine " + m.id() + " would listen on "
                + m.host() + ":" + port + " (port + " + m.id() + "), which is already " + previous);
        }
    }

    /** Two services cannot listen on one host and port; hosts compare as written (no name resolution). */
    private static void claim(Map<String, String> endpoints, String host, int port, String key, String source) {
        String endpoint = host.toLowerCase(Locale.ROOT) + ":" + port;
        String previous = endpoints.putIfAbsent(endpoint, key);
        if (previous != null) {
            throw new ConfigException(source, key, "duplicate port: " + host + ":" + port + " is already "
                + previous);
        }
    }

    private static ClusterSecret readSecret(ConfigNode n, Path baseDir) {
        n.allow("clusterSecret", "clusterSecretFile", "tls");
        if (n.has("clusterSecret") == n.has("clusterSecretFile")) {
            throw n.error(null, "set exactly one of clusterSecret and clusterSecretFile (the file keeps the secret"
                + " out of the config)");
        }
        ClusterSecret secret;
        if (n.has("clusterSecret")) {
            String text = n.string("clusterSecret", null, true);
            try {
                secret = ClusterSecret.fromString(text);
            } catch (IllegalArgumentException e) {
                throw n.error("clusterSecret", e.getMessage());
            }
        } else {
            Path file = baseDir.resolve(n.string("clusterSecretFile", null));
            try {
                secret = ClusterSecret.fromFile(file);
            } catch (IOException e) {
                throw n.error("clusterSecretFile", "cannot read " + file + ": " + e);
            } catch (IllegalArgumentException e) {
                throw n.error("clusterSecretFile", file + ": " + e.getMessage());
            }
        }
        return secret;
    }

    /**
     * {@code security.tls}: absent means no TLS; present, all three files are required, read and checked now, so a
     * missing file, a key that is not PKCS#8 or does not match the certificate fails the start naming its key.
     */
    private static ClusterTls readTls(ConfigNode n, Path baseDir) {
        if (n.isAbsent()) {
            return null;
        }
        n.allow("certificate", "key", "trust");
        Path certificate = baseDir.resolve(n.string("certificate", null));
        Path key = baseDir.resolve(n.string("key", null));
        Path trust = baseDir.resolve(n.string("trust", null));
        try {
            return ClusterTls.fromPem(certificate, key, trust);
        } catch (ClusterTls.InvalidPem e) {
            String at = switch (e.part()) {
                case CERTIFICATE -> "certificate";
                case KEY -> "key";
                case TRUST -> "trust";
            };
            throw n.error(at, e.getMessage());
        }
    }

    /** Machines that home keys and run queries: ids {@code 0..computeMachineCount()-1}; memory nodes follow. */
    public int computeMachineCount() {
        return (int) machines.stream().filter(m -> m.role() == MachineRole.COMPUTE).count();
    }

    public int machineCount() {
        return machines.size();
    }

    public MachineConfig machine(int id) {
        if (id < 0 || id >= machines.size()) {
            throw new IllegalArgumentException("machine " + id + " is not in this " + machines.size()
                + "-machine cluster");
        }
        return machines.get(id);
    }

    /** Every machine's fabric address, indexed by machine id: what a {@code TcpFabric} is built from. */
    public List<InetSocketAddress> fabricAddresses() {
        List<InetSocketAddress> out = new ArrayList<>(machines.size());
        for (MachineConfig m : machines) {
            out.add(m.fabricAddress());
        }
        return out;
    }

    /** The TCP fabric options for machine {@code id}, listening on {@code fabric.bindHost} when one is set. */
    public TcpFabricOptions tcpOptions(int id) {
        TcpFabricOptions tcp = fabric.tcp();
        return fabric.bindHost() == null ? tcp
            : tcp.withBindAddress(new InetSocketAddress(fabric.bindHost(), machine(id).fabricPort()));
    }

    /** The core store configuration of every machine: sizes and leases. */
    public StoreConfig storeConfig() {
        return store.toStoreConfig(leases);
    }

    /** Machine {@code id}'s own data directory below {@link #dataDirectory}. */
    public Path dataDirectory(int id) {
        return dataDirectory.resolve("m" + machine(id).id());
    }
}
