package io.pragh.server.cli;

import io.pragh.server.config.ClusterConfig;
import io.pragh.server.config.MachineConfig;
import io.pragh.server.rpc.ClusterClient;
import io.pragh.server.rpc.MachineClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A multi-process cluster on 127.0.0.1 kept in one directory: {@code cluster.yaml} (free loopback ports, a fresh
 * secret, data below {@code data/}), and per machine {@code machine-I.pid} and {@code machine-I.log}. Each machine
 * is a {@code java ... ServerCommand} child process on this JVM's class path; {@link #awaitServing} waits until a
 * machine answers on its client port, which it opens only after it recovered. {@link #supervise} starts a
 * {@link Supervisor} that restarts machines whose processes exit. This class is the cluster's lifecycle and the way
 * in; by duty, {@code ClusterFiles} writes a new directory, {@code ClusterProcesses} launches and tracks the
 * processes, {@code ClusterReadiness} waits for them to serve and {@code ClusterStatus} describes them.
 *
 * <pre>{@code
 * LocalCluster c = LocalCluster.create(dir, LocalCluster.Settings.defaults(3));
 * c.startAll(false, 60_000);
 * c.kill(1);            // kill -9
 * c.start(1, false); c.awaitServing(1, 60_000);
 * c.stopAll();
 * }</pre>
 */
public final class LocalCluster {
    private static final Logger LOG = LoggerFactory.getLogger(LocalCluster.class);

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

        /**
         * Small regions and a short session, for tests. The request timeout is 5 s (a machine's wait for an operation
         * 10 s): at 1 s, PUTs of freshly started machines failed beside a CPU hog, their peers' first answers slower
         * than that while the JVMs compiled.
         */
        public static Settings small(int machines) {
            return new Settings(machines, 18182, "8MiB", 16_384, "1MiB", "1MiB", "batch", "5s", NO_MEMBERSHIP, "4s",
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
    private final ClusterProcesses processes;

    private LocalCluster(Path dir) {
        this.dir = dir.toAbsolutePath();
        this.processes = new ClusterProcesses(this.dir);
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
        ClusterFiles.write(dir, s, tls);
        return new LocalCluster(dir);
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

    public Path log(int i) {
        return processes.log(i);
    }

    /** Present while the CLI restarts machine {@code i} itself: the {@link Supervisor} leaves it alone. */
    Path holdFile(int i) {
        return processes.holdFile(i);
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
        return processes.process(i);
    }

    /**
     * Starts machine {@code i}'s process (output appended to its log). With {@code tiedToThisProcess} the server
     * stops by itself when this JVM exits (tests); otherwise it outlives the CLI. Returns the new process.
     */
    public Process start(int i, boolean tiedToThisProcess) {
        return processes.launch(i, tiedToThisProcess);
    }

    /** Waits until machine {@code i} answers PING on its client port; fails at once if its process died. */
    public MachineClient.Status awaitServing(int i, long timeoutMillis) {
        return ClusterReadiness.awaitServing(this, i, timeoutMillis);
    }

    /** Starts the local ZooKeeper (if this directory has one) and every machine that is not running; waits for all. */
    public void startAll(boolean tiedToThisProcess, long timeoutMillis) {
        if (hasLocalZooKeeper() && process(ZOOKEEPER).isEmpty()) {
            start(ZOOKEEPER, tiedToThisProcess);
            ClusterReadiness.awaitZooKeeper(this, timeoutMillis);
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
            ClusterReadiness.sleep(2 * Supervisor.POLL_MILLIS);
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
                LOG.warn("cannot remove {} (the supervisor ignores machine {} while it exists): {}", hold, i,
                    e.getMessage());
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

    /** One line per machine: pid, running or not, and what PING answers. */
    public List<String> status() {
        return ClusterStatus.lines(this);
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

    /**
     * The last {@code lines} lines of every machine's log, each under a heading: what a test prints when it fails,
     * because the cluster's directory goes with the test.
     */
    public String logTails(int lines) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < config.machineCount(); i++) {
            out.append("---- machine ").append(i).append(" (").append(log(i)).append(")\n")
                .append(tail(log(i), lines)).append('\n');
        }
        return out.toString();
    }

    /** The last {@code lines} lines of a process's log, or why it cannot be read. */
    static String tail(Path file, int lines) {
        return ClusterReadiness.tail(file, lines);
    }
}
