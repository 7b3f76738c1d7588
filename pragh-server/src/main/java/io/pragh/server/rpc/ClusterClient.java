package io.pragh.server.rpc;

import io.pragh.fabric.tcp.ClusterSecret;
import io.pragh.fabric.tcp.ClusterTls;
import io.pragh.keys.KeyLayout;
import io.pragh.keys.Placement;
import java.net.InetSocketAddress;
import java.util.List;

/**
 * A client of a whole cluster: each request goes to the home machine of its key (a traversal to its start vertex's
 * home, where it runs locally), so that no request pays an extra forwarding hop. Placement is the servers' own
 * ({@link Placement#hashed}). Every connection authenticates with the cluster's secret (and TLS, when it has TLS).
 *
 * <pre>{@code
 * ClusterConfig config = ClusterConfig.load(Path.of("cluster.yaml"));
 * try (ClusterClient c = new ClusterClient(List.of(addr0, addr1, addr2), 5_000, config.secret(), config.tls())) {
 *     c.addEdge(1, 0, 2);
 *     long[] twoHop = c.kHop(1, 0, 2, 100);
 * }
 * }</pre>
 */
public final class ClusterClient implements AutoCloseable {
    private final MachineClient[] machines;
    private final Placement placement;

    /** @param tls the cluster's mutual TLS, or null when its ports run without */
    public ClusterClient(List<InetSocketAddress> clientAddresses, int timeoutMillis, ClusterSecret secret,
                         ClusterTls tls) {
        machines = new MachineClient[clientAddresses.size()];
        for (int i = 0; i < machines.length; i++) {
            machines[i] = new MachineClient(clientAddresses.get(i), i, timeoutMillis, secret, tls);
        }
        placement = Placement.hashed(machines.length);
    }

    public int machineCount() {
        return machines.length;
    }

    public MachineClient machine(int id) {
        return machines[id];
    }

    public int home(long key) {
        return placement.home(key);
    }

    public void put(long key, byte[] value) {
        machines[home(key)].put(key, value);
    }

    /**
     * PUTs every key with its value at its home, pipelined on every home's connection at once (at most
     * {@code window} unanswered per machine): all machines work on their share together, each connection's requests
     * sent and its answers read in turn. Returns once all are acknowledged; throws the first refusal once every
     * machine answered (or its connection broke: retryable).
     *
     * <pre>{@code
     * client.putAll(keys, values, 256);
     * }</pre>
     */
    public void putAll(long[] keys, byte[][] values, int window) {
        int[] counts = new int[machines.length];
        for (long key : keys) {
            counts[home(key)]++;
        }
        int[][] byHome = new int[machines.length][];
        for (int m = 0; m < machines.length; m++) {
            byHome[m] = new int[counts[m]];
            counts[m] = 0;
        }
        for (int i = 0; i < keys.length; i++) {
            int m = home(keys[i]);
            byHome[m][counts[m]++] = i;
        }
        MachineConnection.Run[] runs = new MachineConnection.Run[machines.length];
        int locked = 0;
        try {
            // In machine order, so that two clients stepping runs over the same connections cannot deadlock.
            for (; locked < machines.length; locked++) {
                machines[locked].connection().lock().lock();
            }
            for (int m = 0; m < machines.length; m++) {
                if (counts[m] > 0) {
                    int[] mine = byHome[m];
                    runs[m] = machines[m].putRun(i -> keys[mine[i]], i -> values[mine[i]], counts[m], window);
                }
            }
            boolean pending = true;
            while (pending) {
                pending = false;
                for (MachineConnection.Run r : runs) {
                    if (r != null) {
                        r.send();
                    }
                }
                for (MachineConnection.Run r : runs) {
                    if (r != null) {
                        r.read();
                        pending |= !r.done();
                    }
                }
            }
        } finally {
            while (locked > 0) {
                machines[--locked].connection().lock().unlock();
            }
        }
        for (MachineConnection.Run r : runs) {
            if (r != null) {
                r.throwIfFailed();
            }
        }
    }

    public byte[] get(long key) {
        return machines[home(key)].get(key);
    }

    public void delete(long key) {
        machines[home(key)].delete(key);
    }

    public void addEdge(long src, int label, long dst) {
        machines[home(KeyLayout.key(src, label, KeyLayout.OUT))].addEdge(src, label, dst);
    }

    public long[] kHop(long start, int label, int hops, int fanout) {
        return machines[home(KeyLayout.key(start, label, KeyLayout.OUT))].kHop(start, label, hops, fanout);
    }

    @Override
    public void close() {
        for (MachineClient m : machines) {
            m.close();
        }
    }
}
