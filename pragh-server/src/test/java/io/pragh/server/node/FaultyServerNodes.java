package io.pragh.server.node;

import io.pragh.consistency.MigrationWorkload;
import io.pragh.embedded.Machine;
import io.pragh.fabric.Fabric;
import io.pragh.fabric.FabricKind;
import io.pragh.fabric.FabricProvider;
import io.pragh.fabric.FabricProviders;
import io.pragh.fabric.FabricSpec;
import io.pragh.fabric.fault.FaultFabric;
import io.pragh.fabric.tcp.TcpFabricProvider;
import io.pragh.keys.Placement;
import io.pragh.server.config.ClusterConfig;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Consumer;

/**
 * Server nodes of one cluster file in this JVM, each on the TCP fabric wrapped in a {@link FaultFabric}: the seam
 * through which tests delay, hold or lose the frames a node sends (a rule acts before the TCP fabric writes the
 * frame, or, for a lost reply, after the peer performed it). {@code rules} is applied to every fabric built, a
 * restarted node's too. {@link #restart} crashes a node (its connections drop and its memory goes, as a killed
 * process's; its log is on disk) and starts it again on its data directory. As {@link MigrationWorkload.Machines},
 * {@link #machine} gives the next node up while one restarts, so that clients neither spin on a closed one nor all
 * wait for it; or, with {@code waitForRestarting}, waits for that node, so that the clients that chose it all start
 * their operations there the moment it serves again.
 *
 * <pre>{@code
 * try (FaultyServerNodes nodes = new FaultyServerNodes(config, 5, f -> f.when().oneSided().probability(0.05)
 *         .delay(0, 1, TimeUnit.MILLISECONDS))) {
 *     nodes.startAll();
 *     nodes.restart(1);
 * }
 * }</pre>
 */
final class FaultyServerNodes implements MigrationWorkload.Machines, AutoCloseable {
    private static final long RESTART_PATIENCE_MILLIS = 60_000;

    private final ClusterConfig config;
    private final AtomicReferenceArray<ServerNode> nodes;
    private final AtomicReferenceArray<FaultFabric> fabrics;
    private final FabricProviders providers;
    private final AtomicLong restarts = new AtomicLong();
    private final boolean waitForRestarting;
    /** Every node's, the same (hash placement): kept so that a key's home is known while nodes restart. */
    private volatile Placement placement;

    FaultyServerNodes(ClusterConfig config, long seed, Consumer<FaultFabric> rules) {
        this(config, seed, rules, false);
    }

    FaultyServerNodes(ClusterConfig config, long seed, Consumer<FaultFabric> rules, boolean waitForRestarting) {
        this.config = config;
        this.waitForRestarting = waitForRestarting;
        this.nodes = new AtomicReferenceArray<>(config.machineCount());
        this.fabrics = new AtomicReferenceArray<>(config.machineCount());
        AtomicLong built = new AtomicLong();
        TcpFabricProvider tcp = new TcpFabricProvider();
        this.providers = FabricProviders.of(List.of(new FabricProvider() {
            @Override
            public FabricKind kind() {
                return FabricKind.TCP;
            }

            @Override
            public Availability availability() {
                return tcp.availability();
            }

            @Override
            public boolean supportsTls() {
                return tcp.supportsTls();
            }

            @Override
            public Fabric create(FabricSpec spec) {
                FaultFabric f = new FaultFabric(tcp.create(spec), seed * 1_000 + built.incrementAndGet());
                rules.accept(f);
                fabrics.set(spec.machine(), f);
                return f;
            }
        }));
    }

    void startAll() {
        for (int m = 0; m < count(); m++) {
            nodes.set(m, ServerNode.start(config, m, () -> { }, providers));
        }
        placement = nodes.get(0).machine().store().placement();
    }

    /** Node {@code m} as it runs now, or null while it restarts. */
    ServerNode node(int m) {
        return nodes.get(m);
    }

    /** The fault fabric node {@code m} runs on now (a restart builds a new one). */
    FaultFabric fabric(int m) {
        return fabrics.get(m);
    }

    /** Crashes node {@code m} and starts it again on its data; returns once it serves (its peers recovered). */
    void restart(int m) {
        ServerNode old = nodes.getAndSet(m, null);
        if (old != null) {
            old.close();
        }
        nodes.set(m, ServerNode.start(config, m, () -> { }, providers));
        restarts.incrementAndGet();
    }

    long restarts() {
        return restarts.get();
    }

    @Override
    public int count() {
        return config.machineCount();
    }

    @Override
    public int home(long key) {
        return placement.home(key);
    }

    @Override
    public Machine machine(int m) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(RESTART_PATIENCE_MILLIS);
        ServerNode n;
        for (int i = 0; (n = nodes.get((m + i) % count())) == null; i++) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("node " + m + " did not come back within "
                    + RESTART_PATIENCE_MILLIS + " ms of its crash");
            }
            if (waitForRestarting) {
                i = -1; // node m itself, again
            } else if (i < count()) {
                continue;
            }
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted waiting for node " + m + " to restart");
            }
        }
        return n.machine();
    }

    @Override
    public void close() {
        for (int m = 0; m < count(); m++) {
            ServerNode n = nodes.getAndSet(m, null);
            if (n != null) {
                n.close();
            }
        }
    }
}
