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
     * PUTs every key with its value at its home, pipelined on each machine's connection ({@link MachineClient#putAll},
     * at most {@code window} unanswered per machine); returns once all are acknowledged, or throws the first refusal
     * once every machine answered.
     */
    public void putAll(long[] keys, byte[][] values, int window) {
        int[] counts = new int[machines.length];
        for (long key : keys) {
            counts[home(key)]++;
        }
        long[][] byHomeKeys = new long[machines.length][];
        byte[][][] byHomeValues = new byte[machines.length][][];
        for (int m = 0; m < machines.length; m++) {
            byHomeKeys[m] = new long[counts[m]];
            byHomeValues[m] = new byte[counts[m]][];
            counts[m] = 0;
        }
        for (int i = 0; i < keys.length; i++) {
            int m = home(keys[i]);
            byHomeKeys[m][counts[m]] = keys[i];
            byHomeValues[m][counts[m]++] = values[i];
        }
        ClientException first = null;
        for (int m = 0; m < machines.length; m++) {
            if (counts[m] > 0) {
                try {
                    machines[m].putAll(byHomeKeys[m], byHomeValues[m], 0, counts[m], window);
                } catch (ClientException e) {
                    if (first == null) {
                        first = e;
                    }
                }
            }
        }
        if (first != null) {
            throw first;
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
