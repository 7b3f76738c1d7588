package io.pragh.server.membership;

import io.pragh.server.config.MembershipConfig;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.api.CuratorWatcher;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One machine's membership in a ZooKeeper-tracked cluster. Under the configured root:
 * <pre>
 *  /members/&lt;id&gt;-&lt;seq&gt;  ephemeral sequential, one per incarnation, data = what the machine serves; gone = that
 *                          incarnation is presumed dead (a new sequence number tells a restart from a survivor)
 *  /coordinator/...        Curator leader latch: exactly one live machine coordinates migrations
 *  /migrations/&lt;key&gt;     persistent, data = the machine id an approved migration of the key targets
 * </pre>
 * A machine whose session is lost must stop serving (fail-stop): its peers have treated it as crashed and
 * recovered from it. The listener is told, and decides how (the server process halts).
 *
 * <pre>{@code
 * try (ZooKeeperMembership m = ZooKeeperMembership.join(config.membership(), 2, "fabric 10.0.0.3:7400", listener)) {
 *     if (m.isCoordinator()) { m.recordMigration(key, target); approve(key, target); }
 * }
 * }</pre>
 */
public final class ZooKeeperMembership implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ZooKeeperMembership.class);

    /** What membership reports. Called on Curator's threads: hand long work off. */
    public interface Listener {
        /** Machine {@code id}'s node disappeared: it crashed, was partitioned away, or restarted. */
        void machineLost(int id);

        /** This machine's session is gone: peers presume it dead. */
        void sessionLost();

        /** A new incarnation of machine {@code id} registered (also each machine found at this one's join). */
        default void machineJoined(int id) {
        }
    }

    private static final String MEMBERS = "/members";
    /**
     * How long a starting machine waits to reach ZooKeeper at least (longer when the session timeout is): a machine
     * and its ensemble often start together, and a loaded host may take seconds to connect; giving up sooner only
     * makes the supervisor start it again.
     */
    static final long CONNECT_PATIENCE_MILLIS = 30_000;

    private final int self;
    private final CuratorFramework client;
    private final Listener listener;
    private final Set<String> known = new java.util.HashSet<>();
    private LeaderLatch latch;
    private volatile boolean closed;
    private final AtomicBoolean lost = new AtomicBoolean();

    private ZooKeeperMembership(int self, CuratorFramework client, Listener listener) {
        this.self = self;
        this.client = client;
        this.listener = listener;
    }

    /**
     * Connects, replaces any node a previous incarnation of this machine left (its session may not have expired
     * yet: removing it now is what tells peers that incarnation is gone), registers this one, starts watching the
     * others and joins the coordinator election.
     *
     * @throws IllegalStateException when the ensemble cannot be reached within the session timeout
     */
    public static ZooKeeperMembership join(MembershipConfig config, int self, String info, Listener listener) {
        if (!config.enabled()) {
            throw new IllegalArgumentException("membership is not configured (no membership.zookeeper)");
        }
        int session = (int) config.sessionTimeout().toMillis();
        CuratorFramework client = CuratorFrameworkFactory.builder().connectString(config.zookeeper())
            .sessionTimeoutMs(session).connectionTimeoutMs(Math.min(session, 5_000))
            .retryPolicy(new ExponentialBackoffRetry(100, 5)).namespace(config.root().substring(1)).build();
        ZooKeeperMembership m = new ZooKeeperMembership(self, client, listener);
        try {
            client.getConnectionStateListenable().addListener((c, state) -> {
                if (state == ConnectionState.LOST) {
                    m.sessionEnded();
                }
            });
            client.start();
            long patience = Math.max(session, CONNECT_PATIENCE_MILLIS);
            if (!client.blockUntilConnected((int) patience, TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("machine " + self + " cannot reach ZooKeeper at " + config.zookeeper()
                    + " within " + patience + " ms");
            }
            client.createContainers(MEMBERS);
            for (String child : client.getChildren().forPath(MEMBERS)) {
                if (idOf(child) == self) {
                    try {
                        client.delete().forPath(MEMBERS + "/" + child);
                    } catch (KeeperException.NoNodeException gone) {
                        // Its session expired meanwhile.
                    }
                }
            }
            client.create().withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
                .forPath(MEMBERS + "/" + self + "-", info.getBytes(StandardCharsets.UTF_8));
            m.watchMembers();
            m.latch = new LeaderLatch(client, "/coordinator", Integer.toString(self));
            m.latch.start();
            return m;
        } catch (Exception e) {
            m.close();
            if (e instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException("machine " + self + " cannot join the membership at "
                + config.zookeeper() + ": " + e, e);
        }
    }

    /**
     * Reads the members and re-arms the watch (ZooKeeper watches fire once); every incarnation that was there last
     * time and is gone now is reported lost.
     */
    private synchronized void watchMembers() throws Exception {
        if (closed) {
            return;
        }
        CuratorWatcher rearm = event -> {
            if (event.getState() == Watcher.Event.KeeperState.Expired) {
                sessionEnded();
                return;
            }
            try {
                watchMembers();
            } catch (KeeperException.SessionExpiredException expired) {
                sessionEnded();
            } catch (Exception e) {
                if (!closed) {
                    LOG.warn("machine {} cannot watch the members", self, e);
                }
            }
        };
        Set<String> now = new java.util.HashSet<>(client.getChildren().usingWatcher(rearm).forPath(MEMBERS));
        for (String gone : known) {
            int id = idOf(gone);
            if (!now.contains(gone) && id >= 0 && id != self) {
                listener.machineLost(id);
            }
        }
        // After the losses: a restart seen in one listing (old incarnation gone, new one there) ends joined.
        for (String added : now) {
            int id = idOf(added);
            if (!known.contains(added) && id >= 0 && id != self) {
                listener.machineJoined(id);
            }
        }
        known.clear();
        known.addAll(now);
    }

    /**
     * Reports this machine's session lost, once. ZooKeeper's own word that it expired (an Expired event, or a
     * SessionExpiredException) is reported at once: Curator's LOST state comes only once its own session timer has run
     * out after the connection came back, which on a loaded host kept a machine serving for seconds after its peers
     * had presumed it dead and restored its values.
     */
    private void sessionEnded() {
        if (!closed && lost.compareAndSet(false, true)) {
            listener.sessionLost();
        }
    }

    /** The machine id of a member node name ({@code <id>-<seq>}), or -1 for anything else. */
    private static int idOf(String name) {
        int dash = name.indexOf('-');
        try {
            return dash < 1 ? -1 : Integer.parseInt(name.substring(0, dash));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    public int self() {
        return self;
    }

    /** Machines whose nodes exist now, this one included. */
    public Set<Integer> liveMachines() {
        Set<Integer> out = new TreeSet<>();
        try {
            for (String child : client.getChildren().forPath(MEMBERS)) {
                int id = idOf(child);
                if (id >= 0) {
                    out.add(id);
                }
            }
        } catch (Exception e) {
            throw new IllegalStateException("cannot list live machines: " + e, e);
        }
        return out;
    }

    /** The id of the elected coordinator, or -1 while there is none (an election in progress). */
    public int coordinator() {
        try {
            var leader = latch.getLeader();
            return leader.isLeader() ? Integer.parseInt(leader.getId()) : -1;
        } catch (Exception e) {
            return -1;
        }
    }

    /** Whether this machine is the elected coordinator now. */
    public boolean isCoordinator() {
        return latch != null && latch.hasLeadership();
    }

    /**
     * Records that an approved migration of {@code key} targets machine {@code target}; returns once ZooKeeper has
     * it. Called before the approval is sent, so that the record never lags what machines do.
     */
    public void recordMigration(long key, int target) {
        try {
            client.create().orSetData().creatingParentContainersIfNeeded()
                .forPath("/migrations/" + Long.toHexString(key), Integer.toString(target).getBytes(StandardCharsets.UTF_8));
        } catch (Exception e) {
            throw new IllegalStateException("cannot record the migration of key " + key + " to machine " + target
                + ": " + e, e);
        }
    }

    /** The target the last approved migration of {@code key} recorded, or -1 when none was. */
    public int recordedTarget(long key) {
        try {
            byte[] b = client.getData().forPath("/migrations/" + Long.toHexString(key));
            return Integer.parseInt(new String(b, StandardCharsets.UTF_8));
        } catch (KeeperException.NoNodeException e) {
            return -1;
        } catch (Exception e) {
            throw new IllegalStateException("cannot read the migration record of key " + key + ": " + e, e);
        }
    }

    /**
     * Every recorded migration target, key to machine: what a newly elected coordinator seeds itself with. Records
     * it cannot parse are logged and skipped (they name no machine it could trust).
     */
    public java.util.Map<Long, Integer> recordedTargets() {
        java.util.Map<Long, Integer> out = new java.util.HashMap<>();
        java.util.List<String> children;
        try {
            children = client.getChildren().forPath("/migrations");
        } catch (KeeperException.NoNodeException e) {
            return out;
        } catch (Exception e) {
            throw new IllegalStateException("cannot list the migration records: " + e, e);
        }
        for (String child : children) {
            try {
                long key = Long.parseUnsignedLong(child, 16);
                int target = recordedTarget(key);
                if (target >= 0) {
                    out.put(key, target);
                }
            } catch (NumberFormatException e) {
                LOG.warn("skipping migration record /migrations/{}: {}", child, e.getMessage());
            }
        }
        return out;
    }

    @Override
    public void close() {
        closed = true;
        closeQuietly(latch);
        client.close();
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c != null) {
            try {
                c.close();
            } catch (Exception ignored) {
                // Closing the client below ends the session, which removes everything ephemeral anyway.
            }
        }
    }
}
