package io.pragh.gremlin.distributed;

import io.netty.util.internal.logging.InternalLoggerFactory;
import io.netty.util.internal.logging.JdkLoggerFactory;
import io.pragh.gremlin.storage.GraphKeys;
import io.pragh.gremlin.structure.GraphStore;
import io.pragh.gremlin.structure.UpdateBatch;
import io.pragh.server.cli.LocalCluster;
import io.pragh.server.config.ClusterConfig;
import io.pragh.server.config.MachineConfig;
import io.pragh.server.node.ServerNode;
import io.pragh.store.Mutators;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;

/**
 * Server machines in this JVM, as separate processes would run them: each a {@link ServerNode} on its own 127.0.0.1
 * ephemeral fabric and client ports (TCP fabric), with its own data directory in a temporary directory, and the
 * Gremlin front end's mutators (found on this class path) but no Gremlin port. {@link #store} builds a {@link
 * ClusterGraphStore} over one machine as that machine's Gremlin front end does. {@link #close} stops every machine
 * and removes the directory.
 *
 * <p>Example: {@code try (InJvmCluster c = InJvmCluster.start(3)) { c.store(0).put(key, value); }}
 */
public final class InJvmCluster implements AutoCloseable {
    /** How long a store over the cluster waits for a scan page (the fabric's own timeout bounds its operations). */
    private static final int CLIENT_TIMEOUT_MILLIS = 10_000;

    /** Every kind of key a PraghGraph stores ({@link GraphKeys}): what {@link #clear} scans for. */
    private static final int[] GRAPH_KINDS = {GraphKeys.VERTEX, GraphKeys.OUT, GraphKeys.IN, GraphKeys.EDGE,
        GraphKeys.EDGE_INDEX, GraphKeys.SHARED};

    private final Path dir;
    private final ClusterConfig config;
    private final ServerNode[] nodes;

    private InJvmCluster(final Path dir, final ClusterConfig config, final ServerNode[] nodes) {
        this.dir = dir;
        this.config = config;
        this.nodes = nodes;
    }

    /** Starts {@code machines} machines; returns once every one serves. */
    public static InJvmCluster start(final int machines) {
        return start(machines, java.util.function.UnaryOperator.identity());
    }

    /**
     * As {@link #start(int)}, with the test settings changed by {@code tune} first (regions, a section of the cluster
     * file, such as pragh-rdf's {@code sparql} on {@link #freeConsecutivePorts}).
     */
    public static InJvmCluster start(final int machines,
                                     final java.util.function.UnaryOperator<LocalCluster.Settings> tune) {
        InternalLoggerFactory.setDefaultFactory(JdkLoggerFactory.INSTANCE);
        final Path dir;
        try {
            dir = Files.createTempDirectory("pragh-in-jvm-cluster");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        final ClusterConfig config = LocalCluster.create(dir.resolve("cluster"),
            tune.apply(LocalCluster.Settings.small(machines).withGremlinPortBase(LocalCluster.Settings.NO_GREMLIN)
                // Nothing outlives the JVM: logging without syncing keeps the suites off the disk.
                .withSync("none"))).config();
        // Settings.small's 1 s fabric request timeout is kept: a machine's start waits up to 4 operation timeouts for
        // peers not started yet to acknowledge its restart, so a longer one makes every cluster start slowly.
        final ServerNode[] nodes = new ServerNode[machines];
        final InJvmCluster cluster = new InJvmCluster(dir, config, nodes);
        try {
            for (int m = 0; m < machines; m++) {
                nodes[m] = ServerNode.start(config, m);
            }
        } catch (RuntimeException | Error e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    public int machines() {
        return nodes.length;
    }

    public ServerNode node(final int machine) {
        return nodes[machine];
    }

    public ClusterConfig config() {
        return config;
    }

    /** The keys every machine is home to, summed, as each machine's client port answers a PING. */
    public long homeKeys() {
        long keys = 0;
        for (int m = 0; m < nodes.length; m++) {
            try (io.pragh.server.rpc.MachineClient c = new io.pragh.server.rpc.MachineClient(
                config.machine(m).clientAddress(), 10_000, config.secret(), null)) {
                keys += c.ping().homeKeys();
            }
        }
        return keys;
    }

    /** The cluster file every machine read, as {@code ./pragh cluster start} writes it. */
    public Path configFile() {
        return dir.resolve("cluster").resolve(LocalCluster.CONFIG);
    }

    /** A new store over {@code machine}, as its Gremlin front end builds it; closing it leaves the machine up. */
    public ClusterGraphStore store(final int machine) {
        final List<java.net.InetSocketAddress> clients = new ArrayList<>();
        final List<String> fabric = new ArrayList<>();
        for (final MachineConfig m : config.machines()) {
            clients.add(new java.net.InetSocketAddress(m.host(), m.clientPort()));
            fabric.add(m.host() + ":" + m.fabricPort());
        }
        return new ClusterGraphStore(nodes[machine].machine(), clients, fabric, CLIENT_TIMEOUT_MILLIS,
            config.secret(), config.tls());
    }

    /**
     * Deletes every key of every kind a graph stores, the dictionary and the id counter included, so that the next
     * graph starts as on a new cluster. Graphs and stores over the cluster must be closed first: their dictionaries
     * cache names.
     */
    public void clear() {
        try (GraphStore store = store(0)) {
            // A kind's keys gathered first, then deleted in one batch: deleting while a region is walked could skip keys.
            final UpdateBatch deletes = new UpdateBatch(1024);
            for (final int kind : GRAPH_KINDS) {
                deletes.clear();
                store.forEachKey(kind, key -> deletes.add(key, Mutators.DELETE, new byte[0]));
                store.updateAll(deletes);
            }
            if (store.get(GraphKeys.dictionary()) != null || store.get(GraphKeys.idBlocks()) != null) {
                throw new IllegalStateException("the shared records outlived a clear of every key");
            }
        }
    }

    /** Stops every machine that started, last first, and removes the data directory. */
    @Override
    public void close() {
        for (int m = nodes.length - 1; m >= 0; m--) {
            if (nodes[m] != null) {
                nodes[m].close();
                nodes[m] = null;
            }
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove " + dir, e);
        }
    }

    /** The first of {@code n} consecutive loopback ports that are free now. */
    public static int freeConsecutivePorts(final int n) {
        for (int attempt = 0; attempt < 50; attempt++) {
            final int base = ThreadLocalRandom.current().nextInt(20_000, 60_000);
            final List<ServerSocket> held = new ArrayList<>();
            try {
                for (int i = 0; i < n; i++) {
                    held.add(new ServerSocket(base + i, 1, InetAddress.getLoopbackAddress()));
                }
                return base;
            } catch (IOException busy) {
                // Taken: try another base.
            } finally {
                for (final ServerSocket s : held) {
                    try {
                        s.close();
                    } catch (IOException ignored) {
                        // Free again either way.
                    }
                }
            }
        }
        throw new IllegalStateException("no " + n + " consecutive free loopback ports found in 50 attempts");
    }
}
