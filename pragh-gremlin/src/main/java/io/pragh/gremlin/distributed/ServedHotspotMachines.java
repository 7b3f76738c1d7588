package io.pragh.gremlin.distributed;

import io.pragh.gremlin.hotspot.HotspotMachines;
import io.pragh.keys.Placement;
import io.pragh.server.config.ClusterConfig;
import io.pragh.server.config.MachineConfig;
import io.pragh.server.frontend.FrontEnd;
import io.pragh.server.rpc.ClientException;
import io.pragh.server.rpc.ClientProtocol;
import io.pragh.server.rpc.MachineClient;

import java.util.concurrent.TimeUnit;

/**
 * The machines of a multi-process cluster as one process's view-driven hotspot migration reaches them: through their
 * client ports (the cluster file's {@code clientPort}s, under the cluster secret). Other processes' read counts come
 * from {@code HOTSPOT_READS} of the {@code views} extension (every machine must run it: {@code extensions: [views]}),
 * where values are from {@code HOSTS} asked at each key's home (a local read of its key region there), and moves go
 * to the coordinator as {@code PLACE}: it records each like an approval and has the target MIGRATE it, and the round
 * waits until {@code HOSTS} shows the values at their targets. Rounds run in the coordinator's process only, the
 * machine that answers STATS as coordinator.
 *
 * <p>Example: {@code ViewHotspots.of(events, new ServedHotspotMachines(host))}, as {@link GremlinFrontEnd} does.
 */
final class ServedHotspotMachines implements HotspotMachines, AutoCloseable {
    /** How often a round looks whether its moves arrived. */
    private static final long MOVE_POLL_MILLIS = 20;

    private final int self;
    private final int machines;
    private final Placement placement;
    /** A client per machine with a client port (null for one without: a memory node), this machine's included. */
    private final MachineClient[] clients;

    ServedHotspotMachines(final FrontEnd.Host host) {
        final ClusterConfig config = host.config();
        this.self = host.id();
        this.machines = config.machineCount();
        this.placement = host.machine().store().placement();
        this.clients = new MachineClient[machines];
        for (int m = 0; m < machines; m++) {
            final MachineConfig mc = config.machine(m);
            if (mc.clientPort() != MachineConfig.NO_CLIENT_PORT) {
                // Connects on first use: peers may not listen yet while this machine starts.
                clients[m] = new MachineClient(mc.clientAddress(), m, (int) host.timeoutMillis(), config.secret(),
                    config.tls());
            }
        }
        if (clients[self] == null) {
            throw new IllegalArgumentException("machine " + self + " has no clientPort in the cluster file: view"
                + " hotspot migration reaches the machines through their client ports");
        }
    }

    @Override
    public int machineCount() {
        return machines;
    }

    @Override
    public String roundsRunElsewhere() {
        if (clients[self].stats().coordinator()) {
            return null;
        }
        for (int m = 0; m < machines; m++) {
            if (m != self && clients[m] != null) {
                try {
                    if (clients[m].stats().coordinator()) {
                        return "machine " + m + " coordinates: view hotspot rounds run in its process (call"
                            + " pragh.hotspot there), not in machine " + self + "'s";
                    }
                } catch (ClientException e) {
                    // Down or unreachable: it does not coordinate then.
                }
            }
        }
        return "no machine coordinates yet (machine " + self + " does not): run the round again shortly";
    }

    @Override
    public long[] takeOtherReads(final String view) {
        final long[] sum = new long[machines + 1];
        for (int m = 0; m < machines; m++) {
            if (m == self || clients[m] == null) {
                continue;
            }
            final long[] theirs = ViewEventFrames.reads(clients[m].extension("HOTSPOT_READS",
                ViewEventFrames.hotspotReads(view)), machines);
            for (int i = 0; i < sum.length; i++) {
                sum[i] += theirs[i];
            }
        }
        return sum;
    }

    @Override
    public int[] hosts(final long[] keys, final int count) {
        final int[] out = new int[count];
        // Asked at each key's home, which reads its own key region; a home without a client port is asked through
        // this machine (one bucket read per key there).
        final int[] asked = new int[count];
        for (int i = 0; i < count; i++) {
            final int home = placement.home(keys[i]);
            asked[i] = clients[home] != null ? home : self;
        }
        for (int m = 0; m < machines; m++) {
            int n = 0;
            final long[] mine = new long[count];
            final int[] at = new int[count];
            for (int i = 0; i < count; i++) {
                if (asked[i] == m) {
                    mine[n] = keys[i];
                    at[n++] = i;
                }
            }
            for (int from = 0; from < n; from += ClientProtocol.MAX_BATCH_KEYS) {
                final int k = Math.min(ClientProtocol.MAX_BATCH_KEYS, n - from);
                final int[] hosts = clients[m].hosts(mine, from, k);
                for (int j = 0; j < k; j++) {
                    out[at[from + j]] = hosts[j];
                }
            }
        }
        return out;
    }

    @Override
    public int move(final long[] keys, final int[] targets, final int count, final long patienceMillis) {
        // To this machine's client port: rounds run in the coordinator's process, and PLACE refuses anywhere else.
        for (int from = 0; from < count; from += ClientProtocol.MAX_BATCH_KEYS) {
            clients[self].place(keys, targets, from, Math.min(ClientProtocol.MAX_BATCH_KEYS, count - from));
        }
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(patienceMillis);
        while (true) {
            final int[] now = hosts(keys, count);
            int arrived = 0;
            for (int i = 0; i < count; i++) {
                if (now[i] == targets[i]) {
                    arrived++;
                }
            }
            if (arrived == count || System.nanoTime() >= deadline) {
                return arrived; // a value that did not arrive stays where it was: a later hot round tries again
            }
            try {
                Thread.sleep(MOVE_POLL_MILLIS); // the MIGRATEs run on the targets; nothing here to wake on
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return arrived;
            }
        }
    }

    @Override
    public void close() {
        for (final MachineClient c : clients) {
            if (c != null) {
                c.close();
            }
        }
    }
}
