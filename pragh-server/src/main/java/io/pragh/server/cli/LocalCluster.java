package io.pragh.server.cli;

import io.pragh.fabric.tcp.DevCertificates;
import io.pragh.server.config.ClusterConfig;
import io.pragh.server.config.MachineConfig;
import io.pragh.server.config.PrivateFiles;
import io.pragh.server.rpc.ClientException;
import io.pragh.server.rpc.ClusterClient;
import io.pragh.server.rpc.MachineClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A multi-process cluster on 127.0.0.1 kept in one directory: {@code cluster.yaml} (free loopback ports, a fresh
 * secret, data below {@code data/}), and per machine {@code machine-I.pid} and {@code machine-I.log}. Each machine
 * is a {@code java ... ServerCommand} child process on this JVM's class path; {@link #awaitServing} waits until a
 * machine answers on its client port, which it opens only after it recovered. {@link #supervise} starts a
 * {@link Supervisor} that restarts machines whose processes exit.
 *
 * <pre>{@code
 * LocalCluster c = LocalCluster.create(dir, LocalCluster.Settings.defaults(3));
 * c.startAll(false);
 * c.kill(1);            // kill -9
 * c.start(1, false); c.awaitServing(1, 60_000);
 * c.stopAll();
 * }</pre>
 */
public final class LocalCluster {
    public static final String CONFIG = "cluster.yaml";
    /** Present when this directory runs its own ZooKeeper. */
    public static final String ZOOKEEPER_CONFIG = "zookeeper.cfg";
    /** The index {@link #process}, {@link #log} and friends use for the local ZooKeeper. */
    public static final int ZOOKEEPER = -1;
    /** The index {@link #process}, {@link #log} and friends use for the {@link Supervisor}. */
    public static final int SUPERVISOR = -2;

    /**
     * What a generated cluster file holds besides ports.
     *
     * @param machines        machine count
     * @param gremlinPortBase machine I's gremlinPort is this plus I; {@link #NO_GREMLIN} for no Gremlin port at all
     * @param valueBytes      value region per machine (a size such as {@code 64MiB})
     * @param expectedKeys    keys per machine
     * @param cacheBytes      location cache per machine ({@code 0} for none)
     * @param chunkBytes      region chunk
     * @param sync            none, batch or always
     * @param requestTimeout  fabric request timeout (bounds how long an operation on a dead peer waits)
     * @param zookeeper       {@code host:port} of an ensemble to use, {@link #LOCAL_ZOOKEEPER} to start one in this
     *                        directory, or {@link #NO_MEMBERSHIP} for none (crashes recovered at restart only)
     * @param sessionTimeout  ZooKeeper session timeout: how long until a dead machine is noticed
     * @param jvmArgs         extra JVM options of each server process
     * @param sections        further top-level sections of the cluster file by key, each a YAML flow map written
     *                        as given (such as {@code policy -> "{trigger: manual}"}); checked with the rest
     * @param ports           the first fabric, client and local ZooKeeper ports, or free ones ({@link Ports#FREE})
     */
    public record Settings(int machines, int gremlinPortBase, String valueBytes, long expectedKeys, String cacheBytes,
                           String chunkBytes, String sync, String requestTimeout, String zookeeper,
                           String sessionTimeout, List<String> jvmArgs, Map<String, String> sections, Ports ports) {
        public static final String LOCAL_ZOOKEEPER = "local";
        public static final String NO_MEMBERSHIP = "none";
        public static final int NO_GREMLIN = 0;

        public Settings {
            if (machines < 1 || machines > 128) {
                throw new IllegalArgumentException("--machines must be 1..128, got " + machines);
            }
            if (gremlinPortBase != NO_GREMLIN && (gremlinPortBase < 1 || gremlinPortBase + machines - 1 > 65535)) {
                throw new IllegalArgumentException("--gremlin-port-base must leave room for " + machines
                    + " ports below 65536, got " + gremlinPortBase);
            }
            jvmArgs = List.copyOf(jvmArgs);
            for (String key : sections.keySet()) {
                if (GENERATED.contains(key)) {
                    throw new IllegalArgumentException("section '" + key + "' is written from the settings' own"
                        + " fields; only other sections can be added");
                }
            }
            sections = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(sections));
            ports.check(machines);
        }

        /** The sections {@link #create} writes itself. */
        private static final List<String> GENERATED = List.of("machines", "store", "dataDirectory", "durability",
            "security", "fabric", "membership");

        /** What {@code ./pragh cluster start} uses. */
        public static Settings defaults(int machines) {
            return new Settings(machines, 8182, "64MiB", 262_144, "16MiB", "16MiB", "batch", "2s", LOCAL_ZOOKEEPER,
                "4s", List.of("-Xmx512m"), Map.of(), Ports.FREE_PORTS);
        }

        /** Small regions and short timeouts, for tests. */
        public static Settings small(int machines) {
            return new Settings(machines, 18182, "8MiB", 16_384, "1MiB", "1MiB", "batch", "1s", NO_MEMBERSHIP, "4s",
                List.of("-Xmx160m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"), Map.of(), Ports.FREE_PORTS);
        }

        public Settings withSync(String s) {
            return new Settings(machines, gremlinPortBase, valueBytes, expectedKeys, cacheBytes, chunkBytes, s,
                requestTimeout, zookeeper, sessionTimeout, jvmArgs, sections, ports);
        }

        public Settings withGremlinPortBase(int base) {
            return new Settings(machines, base, valueBytes, expectedKeys, cacheBytes, chunkBytes, sync,
                requestTimeout, zookeeper, sessionTimeout, jvmArgs, sections, ports);
        }

        /** {@code host:port}, {@link #LOCAL_ZOOKEEPER} or {@link #NO_MEMBERSHIP}. */
        public Settings withZooKeeper(String z) {
            return new Settings(machines, gremlinPortBase, valueBytes, expectedKeys, cacheBytes, chunkBytes, sync,
                requestTimeout, z, sessionTimeout, jvmArgs, sections, ports);
        }

        /** Region sizes: the value region, the expected keys and the location cache of every machine. */
        public Settings withStore(String values, long keys, String cache) {
            return new Settings(machines, gremlinPortBase, values, keys, cache, chunkBytes, sync, requestTimeout,
                zookeeper, sessionTimeout, jvmArgs, sections, ports);
        }

        /** ZooKeeper session timeout, e.g. {@code "8s"}: how long a silent machine keeps its membership. */
        public Settings withSessionTimeout(String timeout) {
            return new Settings(machines, gremlinPortBase, valueBytes, expectedKeys, cacheBytes, chunkBytes, sync,
                requestTimeout, zookeeper, timeout, jvmArgs, sections, ports);
        }

        public Settings withRequestTimeout(String timeout) {
            return new Settings(machines, gremlinPortBase, valueBytes, expectedKeys, cacheBytes, chunkBytes, sync,
                timeout, zookeeper, sessionTimeout, jvmArgs, sections, ports);
        }

        public Settings withJvmArgs(List<String> args) {
            return new Settings(machines, gremlinPortBase, valueBytes, expectedKeys, cacheBytes, chunkBytes, sync,
                requestTimeout, zookeeper, sessionTimeout, args, sections, ports);
        }

        /** The first fabric, client and local ZooKeeper ports ({@link Ports#FREE} for free ones). */
        public Settings withPorts(Ports p) {
            return new Settings(machines, gremlinPortBase, valueBytes, expectedKeys, cacheBytes, chunkBytes, sync,
                requestTimeout, zookeeper, sessionTimeout, jvmArgs, sections, p);
        }

        /** Adds (or replaces) a top-level section of the cluster file, a YAML flow map. */
        public Settings withSection(String key, String flowMap) {
            Map<String, String> m = new java.util.LinkedHashMap<>(sections);
            m.put(key, flowMap);
            return new Settings(machines, gremlinPortBase, valueBytes, expectedKeys, cacheBytes, chunkBytes, sync,
                requestTimeout, zookeeper, sessionTimeout, jvmArgs, m, ports);
        }
    }

    /**
     * Where a new cluster's machines listen: machine I's fabric port is {@code fabric + I}, its client port
     * {@code client + I}; {@code zookeeper} is the local ZooKeeper's client port. {@link #FREE} in any of them: free
     * loopback ports, found when the cluster is made.
     */
    public record Ports(int fabric, int client, int zookeeper) {
        public static final int FREE = -1;
        public static final Ports FREE_PORTS = new Ports(FREE, FREE, FREE);

        void check(int machines) {
            range("--fabric-port", fabric, machines);
            range("--client-port", client, machines);
            range("--zookeeper-port", zookeeper, 1);
        }

        private static void range(String flag, int first, int n) {
            if (first != FREE && (first < 1 || first + n - 1 > 65535)) {
                throw new IllegalArgumentException(flag + " must leave room for " + n + " port" + (n == 1 ? "" : "s")
                    + " in 1..65535, got " + first);
            }
        }

        public Ports withFabric(int p) {
            return new Ports(p, client, zookeeper);
        }

        public Ports withClient(int p) {
            return new Ports(fabric, p, zookeeper);
        }

        public Ports withZooKeeper(int p) {
            return new Ports(fabric, client, p);
        }

        /** The port {@code first + i}, or {@code free} when {@code first} is {@link #FREE}. */
        static int pick(int first, int i, int free) {
            return first == FREE ? free : first + i;
        }
    }

    private final Path dir;
    private final ClusterConfig config;

    private LocalCluster(Path dir) {
        this.dir = dir.toAbsolutePath();
        Path file = this.dir.resolve(CONFIG);
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException(dir + " holds no cluster (no " + CONFIG + "); run 'cluster start'"
                + " first");
        }
        this.config = ClusterConfig.load(file);
    }

    /** Writes a new cluster file in {@code dir} (which must not hold one yet) with free loopback ports. */
    public static LocalCluster create(Path dir, Settings s) {
        return create(dir, s, false);
    }

    /**
     * As {@link #create(Path, Settings)}; with {@code tls}, every port runs in mutual TLS under a throwaway CA made
     * in {@code dir/tls} ({@link DevCertificates}).
     */
    public static LocalCluster create(Path dir, Settings s, boolean tls) {
        Path file = dir.resolve(CONFIG);
        if (Files.exists(file)) {
            throw new IllegalArgumentException(dir + " already holds a cluster (" + CONFIG + "); use another --dir"
                + " or 'cluster stop' and remove it");
        }
        int[] ports = freePorts(2 * s.machines() + 1);
        for (int i = 0; i < s.machines(); i++) {
            ports[2 * i] = Ports.pick(s.ports().fabric(), i, ports[2 * i]);
            ports[2 * i + 1] = Ports.pick(s.ports().client(), i, ports[2 * i + 1]);
        }
        int zookeeperPort = Ports.pick(s.ports().zookeeper(), 0, ports[2 * s.machines()]);
        String zookeeper = switch (s.zookeeper()) {
            case Settings.NO_MEMBERSHIP -> null;
            case Settings.LOCAL_ZOOKEEPER -> "127.0.0.1:" + zookeeperPort;
            default -> s.zookeeper();
        };
        byte[] secret = new byte[24];
        new SecureRandom().nextBytes(secret);
        StringBuilder y = new StringBuilder("# written by ./pragh cluster start\nmachines:\n");
        for (int i = 0; i < s.machines(); i++) {
            y.append("  - {id: ").append(i).append(", host: 127.0.0.1, fabricPort: ").append(ports[2 * i])
                .append(", clientPort: ").append(ports[2 * i + 1]);
            if (s.gremlinPortBase() != Settings.NO_GREMLIN) {
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
            y.append("metrics: {port: ").append(freePortRun(s.machines(), ports)).append("}\n");
        }
        s.sections().forEach((key, flowMap) -> y.append(key).append(": ").append(flowMap).append("\n"));
        // Checked before anything is written: a bad setting leaves no half-made cluster behind.
        ClusterConfig.parse(y.toString(), file.toString(), dir.toAbsolutePath());
        try {
            Files.createDirectories(dir);
            PrivateFiles.writeString(file, y.toString()); // it holds the cluster secret
            Files.writeString(dir.resolve("jvm-args"), String.join("\n", s.jvmArgs()), StandardCharsets.UTF_8);
            if (s.zookeeper().equals(Settings.LOCAL_ZOOKEEPER)) {
                Files.writeString(dir.resolve(ZOOKEEPER_CONFIG), "tickTime=200\nminSessionTimeout=400\n"
                    + "dataDir=" + dir.toAbsolutePath().resolve("zookeeper") + "\nclientPort=" + zookeeperPort
                    + "\nclientPortAddress=127.0.0.1\nmaxClientCnxns=100\nadmin.enableServer=false\n",
                    StandardCharsets.UTF_8);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
        return new LocalCluster(dir);
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

    /**
     * The cluster in {@code dir} if there is one (started again on its data, which must have {@code s.machines()}
     * machines), else a new one.
     */
    public static LocalCluster openOrCreate(Path dir, Settings s) {
        return openOrCreate(dir, s, false);
    }

    /** As {@link #openOrCreate(Path, Settings)}; {@code tls} applies to a new cluster only (see {@link #create}). */
    public static LocalCluster openOrCreate(Path dir, Settings s, boolean tls) {
        if (!Files.exists(dir.resolve(CONFIG))) {
            return create(dir, s, tls);
        }
        LocalCluster c = open(dir);
        if (c.machineCount() != s.machines()) {
            throw new IllegalArgumentException(dir + " holds a cluster of " + c.machineCount() + " machines, not "
                + s.machines() + "; use another --dir");
        }
        return c;
    }

    /**
     * Whether servers started by the CLI stop when the CLI's JVM exits: only when the system property
     * {@code pragh.cluster.tieServers} is true, which tests that drive the CLI in-process set so that no server
     * outlives them.
     */
    static boolean tieServersToCaller() {
        return Boolean.getBoolean("pragh.cluster.tieServers");
    }

    /** The cluster a previous {@link #create} left in {@code dir}. */
    public static LocalCluster open(Path dir) {
        return new LocalCluster(dir);
    }

    public Path directory() {
        return dir;
    }

    public ClusterConfig config() {
        return config;
    }

    public int machineCount() {
        return config.machineCount();
    }

    private static String name(int i) {
        return i == ZOOKEEPER ? "zookeeper" : i == SUPERVISOR ? "supervisor" : "machine-" + i;
    }

    public Path log(int i) {
        return dir.resolve(name(i) + ".log");
    }

    private Path pidFile(int i) {
        return dir.resolve(name(i) + ".pid");
    }

    /** Present while the CLI restarts machine {@code i} itself: the {@link Supervisor} leaves it alone. */
    Path holdFile(int i) {
        return dir.resolve(name(i) + ".hold");
    }

    /** Whether this directory runs its own ZooKeeper (else an external one, or none). */
    public boolean hasLocalZooKeeper() {
        return Files.exists(dir.resolve(ZOOKEEPER_CONFIG));
    }

    /** The live process of machine {@code i} (or of the local ZooKeeper), if its pid file names one. */
    public Optional<ProcessHandle> process(int i) {
        if (i >= 0) {
            config.machine(i);
        }
        try {
            Path p = pidFile(i);
            if (!Files.exists(p)) {
                return Optional.empty();
            }
            long pid = Long.parseLong(Files.readString(p).trim());
            return ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    /**
     * Starts machine {@code i}'s process (output appended to its log). With {@code tiedToThisProcess} the server
     * stops by itself when this JVM exits (tests); otherwise it outlives the CLI. Returns the new process.
     */
    public Process start(int i, boolean tiedToThisProcess) {
        if (process(i).isPresent()) {
            throw new IllegalStateException(name(i) + " already runs (pid " + process(i).get().pid() + ")");
        }
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(moduleOptions());
        try {
            if (i == SUPERVISOR) {
                // It only watches processes: a small heap, whatever the machines get.
                cmd.addAll(List.of("-Xmx48m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
            } else {
                for (String a : Files.readAllLines(dir.resolve("jvm-args"))) {
                    if (!a.isBlank()) {
                        cmd.add(a.trim());
                    }
                }
            }
        } catch (IOException e) {
            // No extra options recorded: defaults.
        }
        if (i == SUPERVISOR) {
            cmd.addAll(List.of("-cp", absoluteClassPath(), Supervisor.class.getName(), "--dir", dir.toString()));
        } else if (i == ZOOKEEPER) {
            cmd.addAll(List.of("-cp", absoluteClassPath(), LocalZooKeeper.class.getName(),
                dir.resolve(ZOOKEEPER_CONFIG).toString()));
        } else {
            cmd.addAll(List.of("-cp", absoluteClassPath(), ServerCommand.class.getName(),
                "--config", dir.resolve(CONFIG).toString(), "--id", Integer.toString(i)));
        }
        if (tiedToThisProcess) {
            cmd.addAll(List.of("--parent-pid", Long.toString(ProcessHandle.current().pid())));
        }
        try {
            Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log(i).toFile())).start();
            Files.writeString(pidFile(i), Long.toString(p.pid()));
            return p;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name(i) + ": " + e.getMessage(), e);
        }
    }

    /** This JVM's class path with every entry absolute: servers run in the cluster directory. */
    private static String absoluteClassPath() {
        List<String> out = new ArrayList<>();
        for (String e : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            if (!e.isEmpty()) {
                out.add(Path.of(e).toAbsolutePath().toString());
            }
        }
        return String.join(java.io.File.pathSeparator, out);
    }

    /** The --add-opens / --add-exports this JVM runs with: the servers need the same (Agrona, Netty). */
    private static List<String> moduleOptions() {
        List<String> in = ManagementFactory.getRuntimeMXBean().getInputArguments();
        List<String> out = new ArrayList<>();
        for (int k = 0; k < in.size(); k++) {
            String a = in.get(k);
            if (a.startsWith("--add-opens") || a.startsWith("--add-exports")) {
                out.add(a);
                if (!a.contains("=") && k + 1 < in.size()) {
                    out.add(in.get(++k));
                }
            }
        }
        return out;
    }

    /** Waits until machine {@code i} answers PING on its client port; fails at once if its process died. */
    public MachineClient.Status awaitServing(int i, long timeoutMillis) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        try (MachineClient c = new MachineClient(clientAddress(i), 1_000, config.secret(), config.tls())) {
            while (true) {
                try {
                    return c.ping();
                } catch (ClientException e) {
                    if (process(i).isEmpty()) {
                        throw new IllegalStateException("machine " + i + " exited before serving; the end of "
                            + log(i) + ":\n" + tail(log(i), 20));
                    }
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("machine " + i + " did not serve within " + timeoutMillis
                            + " ms; the end of " + log(i) + ":\n" + tail(log(i), 20));
                    }
                    sleep(50);
                }
            }
        }
    }

    /** Starts the local ZooKeeper (if this directory has one) and every machine that is not running; waits for all. */
    public void startAll(boolean tiedToThisProcess, long timeoutMillis) {
        if (hasLocalZooKeeper() && process(ZOOKEEPER).isEmpty()) {
            start(ZOOKEEPER, tiedToThisProcess);
            awaitZooKeeper(timeoutMillis);
        }
        for (int i = 0; i < machineCount(); i++) {
            if (process(i).isEmpty()) {
                start(i, tiedToThisProcess);
            }
        }
        for (int i = 0; i < machineCount(); i++) {
            awaitServing(i, timeoutMillis);
        }
    }

    /**
     * Starts the {@link Supervisor} unless one runs: from then on a machine process that exits is started again
     * (after a back-off), until {@link #stopAll} or {@code cluster stop}.
     */
    public void supervise(boolean tiedToThisProcess) {
        if (process(SUPERVISOR).isEmpty()) {
            start(SUPERVISOR, tiedToThisProcess);
        }
    }

    /** Whether a {@link Supervisor} watches this cluster's machines now. */
    public boolean supervised() {
        return process(SUPERVISOR).isPresent();
    }

    /**
     * Stops machine {@code i} if it runs and starts it again, with the {@link Supervisor} (if any) told to keep out
     * meanwhile; returns once the machine serves.
     */
    public MachineClient.Status restart(int i, boolean tiedToThisProcess, long timeoutMillis) {
        Path hold = holdFile(i);
        try {
            Files.writeString(hold, "restarted by the CLI");
            // The supervisor may be starting it right now: one poll later it has either done so or seen the hold.
            sleep(2 * Supervisor.POLL_MILLIS);
            if (process(i).isPresent()) {
                stop(i);
            }
            start(i, tiedToThisProcess);
            return awaitServing(i, timeoutMillis);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + hold + ": " + e.getMessage(), e);
        } finally {
            try {
                Files.deleteIfExists(hold);
            } catch (IOException e) {
                System.err.println("pragh: cannot remove " + hold + " (the supervisor ignores machine " + i
                    + " while it exists): " + e.getMessage());
            }
        }
    }

    /** kill -9 of machine {@code i}; returns once the process is gone. */
    public void kill(int i) {
        ProcessHandle p = process(i).orElseThrow(() -> new IllegalStateException("machine " + i + " is not running"));
        p.destroyForcibly();
        p.onExit().join();
    }

    /** SIGTERM, then kill -9 if it has not stopped within 15 s; returns whether it stopped cleanly. */
    public boolean stop(int i) {
        Optional<ProcessHandle> p = process(i);
        if (p.isEmpty()) {
            return true;
        }
        p.get().destroy();
        try {
            p.get().onExit().get(15, TimeUnit.SECONDS);
            return true;
        } catch (Exception e) {
            p.get().destroyForcibly();
            p.get().onExit().join();
            return false;
        }
    }

    /** Stops the supervisor (machines that exit from now on stay down), every machine, then the local ZooKeeper. */
    public void stopAll() {
        stop(SUPERVISOR);
        // SIGTERM to every machine first: they shut down side by side, not one 15 s wait after another.
        for (int i = 0; i < machineCount(); i++) {
            process(i).ifPresent(ProcessHandle::destroy);
        }
        for (int i = 0; i < machineCount(); i++) {
            stop(i);
        }
        stop(ZOOKEEPER);
    }

    /** Waits until the local ZooKeeper accepts connections on its client port. */
    private void awaitZooKeeper(long timeoutMillis) {
        String connect = config.membership().zookeeper();
        int port = Integer.parseInt(connect.substring(connect.lastIndexOf(':') + 1));
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (true) {
            try (java.net.Socket s = new java.net.Socket()) {
                s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
                return;
            } catch (IOException e) {
                if (process(ZOOKEEPER).isEmpty() || System.nanoTime() > deadline) {
                    throw new IllegalStateException("the local ZooKeeper did not serve on port " + port + "; the end"
                        + " of " + log(ZOOKEEPER) + ":\n" + tail(log(ZOOKEEPER), 20));
                }
                sleep(50);
            }
        }
    }

    /** One line per machine: pid, running or not, and what PING answers. */
    public List<String> status() {
        List<String> lines = new ArrayList<>();
        if (hasLocalZooKeeper()) {
            lines.add("zookeeper " + config.membership().zookeeper() + ": " + process(ZOOKEEPER)
                .map(p -> "pid " + p.pid() + " running").orElse("not running"));
        } else if (config.membership().enabled()) {
            lines.add("zookeeper " + config.membership().zookeeper() + " (external)");
        }
        lines.add("supervisor: " + process(SUPERVISOR).map(p -> "pid " + p.pid() + " running (restarts machines that"
            + " exit; log " + log(SUPERVISOR) + ")").orElse("not running (machines that exit stay down)"));
        for (int i = 0; i < machineCount(); i++) {
            Optional<ProcessHandle> p = process(i);
            String line = "machine " + i + ": " + (p.isPresent() ? "pid " + p.get().pid() + " running" : "not running");
            if (p.isPresent()) {
                try (MachineClient c = new MachineClient(clientAddress(i), 2_000, config.secret(), config.tls())) {
                    MachineClient.Status s = c.ping();
                    line += ", serving clients on " + clientAddress(i) + ", " + s.homeKeys() + " home keys, "
                        + s.restoredValues() + " values restored after peers' crashes, " + (config.machine(i)
                        .gremlinPort() == MachineConfig.NO_GREMLIN_PORT ? "no gremlinPort" : "gremlinPort "
                        + config.machine(i).gremlinPort() + " (served when pragh-gremlin is on the class path)")
                        + (config.metrics().port(i) == 0 ? "" : ", metrics http://127.0.0.1:"
                        + config.metrics().port(i) + "/metrics");
                } catch (ClientException e) {
                    line += ", not answering on " + clientAddress(i) + " (" + e.getMessage() + ")";
                }
            }
            lines.add(line);
        }
        return lines;
    }

    public InetSocketAddress clientAddress(int i) {
        MachineConfig m = config.machine(i);
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), m.clientPort());
    }

    public List<InetSocketAddress> clientAddresses() {
        List<InetSocketAddress> out = new ArrayList<>();
        for (int i = 0; i < machineCount(); i++) {
            out.add(clientAddress(i));
        }
        return out;
    }

    /** A client of every machine, routing by key home. */
    public ClusterClient client(int timeoutMillis) {
        return new ClusterClient(clientAddresses(), timeoutMillis, config.secret(), config.tls());
    }

    /** The first of {@code n} consecutive loopback ports that were all free just now and are none of {@code taken}. */
    private static int freePortRun(int n, int[] taken) {
        for (int attempt = 0; attempt < 100; attempt++) {
            int first = freePorts(1)[0];
            if (first + n - 1 > 65535 || java.util.Arrays.stream(taken).anyMatch(p -> p >= first && p < first + n)) {
                continue;
            }
            List<ServerSocket> held = new ArrayList<>();
            try {
                for (int i = 0; i < n; i++) {
                    held.add(new ServerSocket(first + i, 1, InetAddress.getLoopbackAddress()));
                }
                return first;
            } catch (IOException inUse) {
                // One of the run is in use: try another start.
            } finally {
                for (ServerSocket socket : held) {
                    try {
                        socket.close();
                    } catch (IOException ignored) {
                        // The port is free again either way.
                    }
                }
            }
        }
        throw new IllegalStateException("cannot find " + n + " consecutive free loopback ports for metrics");
    }

    private static int[] freePorts(int n) {
        List<ServerSocket> held = new ArrayList<>();
        int[] ports = new int[n];
        try {
            for (int i = 0; i < n; i++) {
                ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                held.add(s);
                ports[i] = s.getLocalPort();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot find free loopback ports: " + e.getMessage(), e);
        } finally {
            for (ServerSocket s : held) {
                try {
                    s.close();
                } catch (IOException ignored) {
                    // The port is free again either way.
                }
            }
        }
        return ports;
    }

    static String tail(Path file, int lines) {
        try {
            List<String> all = Files.readAllLines(file, StandardCharsets.UTF_8);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(cannot read " + file + ": " + e.getMessage() + ")";
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the cluster", e);
        }
    }
}
