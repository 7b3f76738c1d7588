package io.pragh.bench.traversal;

import io.pragh.cluster.EmbeddedCluster;
import io.pragh.fabric.Endpoint;
import io.pragh.fabric.Region;
import io.pragh.fabric.tcp.ClusterSecret;
import io.pragh.fabric.tcp.TcpFabric;
import io.pragh.fabric.tcp.TcpFabricOptions;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One {@link TcpFabric} per machine of a benchmark cluster, all in this JVM on 127.0.0.1: each binds its own
 * ephemeral port, runs its own Netty event loops and proves a freshly generated {@link ClusterSecret} (HMAC
 * handshake) to its peers, exactly as separate processes would, so {@code --fabric tcp} runs every mode over real
 * loopback sockets. {@link #cluster} hands them to {@code EmbeddedCluster.Builder.fabricPerMachine}; the cluster then
 * owns and closes them, and {@link #close} closes any it never took (closing twice is harmless).
 *
 * <pre>{@code
 * EmbeddedCluster cluster = LoopbackTcpFabrics.cluster(EmbeddedCluster.builder(), 4, "[orig]", System.out);
 * }</pre>
 */
final class LoopbackTcpFabrics implements AutoCloseable {
    /**
     * Generous timeouts: the benchmark shares its cores with its own query threads, and a loopback request stalled
     * behind them is slow, not lost.
     */
    static final TcpFabricOptions OPTIONS = TcpFabricOptions.defaults().withRequestTimeout(Duration.ofSeconds(30))
        .withHandshakeTimeout(Duration.ofSeconds(10)).withConnectTimeout(Duration.ofSeconds(5));

    private final TcpFabric[] fabrics;

    private LoopbackTcpFabrics(TcpFabric[] fabrics) {
        this.fabrics = fabrics;
    }

    /** Binds {@code machines} fabrics on 127.0.0.1 ephemeral ports and tells each the others' actual ports. */
    static LoopbackTcpFabrics open(int machines) {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        ClusterSecret secret = ClusterSecret.of(key);
        List<InetSocketAddress> unbound = Collections.nCopies(machines,
            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        TcpFabric[] fabrics = new TcpFabric[machines];
        LoopbackTcpFabrics all = new LoopbackTcpFabrics(fabrics);
        try {
            for (int m = 0; m < machines; m++) {
                fabrics[m] = new TcpFabric(m, unbound, secret, OPTIONS);
            }
            for (TcpFabric f : fabrics) {
                for (int peer = 0; peer < machines; peer++) {
                    f.updateAddress(peer, fabrics[peer].localAddress());
                }
            }
        } catch (RuntimeException | Error e) {
            all.close();
            throw e;
        }
        return all;
    }

    /**
     * Builds {@code b} with a fresh loopback TCP fabric per machine, printing their ports under {@code tag}, and
     * opens every connection before returning; the cluster owns the fabrics, and nothing is left open on failure.
     */
    static EmbeddedCluster cluster(EmbeddedCluster.Builder b, int machines, String tag, PrintStream out) {
        LoopbackTcpFabrics tcp = open(machines);
        EmbeddedCluster cluster;
        try {
            out.printf(Locale.ROOT, "%s fabric: tcp, machines on %s (real loopback latency; --remote-latency-ns not"
                + " used)%n", tag, tcp.ports());
            cluster = b.machines(machines).fabricPerMachine(tcp::fabric).build();
        } catch (RuntimeException | Error e) {
            tcp.close();
            throw e;
        }
        try {
            connectAll(cluster);
        } catch (RuntimeException | Error e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    /**
     * Opens every machine's connection to every peer (connect plus secret handshake) with one 8-byte READ each, so
     * that no mode's warm-up, and the first mode's least of all, spends its time on connection setup.
     */
    private static void connectAll(EmbeddedCluster cluster) {
        UnsafeBuffer word = new UnsafeBuffer(new byte[8]);
        for (int m = 0; m < cluster.machineCount(); m++) {
            Endpoint endpoint = cluster.machine(m).store().endpoint();
            for (int peer = 0; peer < cluster.machineCount(); peer++) {
                if (peer != m) {
                    endpoint.read(peer, Region.KEYS, 0, word, 0, word.capacity());
                }
            }
        }
    }

    TcpFabric fabric(int machine) {
        return fabrics[machine];
    }

    /** "127.0.0.1:port" of every machine, in id order, for the progress log. */
    String ports() {
        List<String> out = new ArrayList<>();
        for (TcpFabric f : fabrics) {
            out.add(f.localAddress().getAddress().getHostAddress() + ":" + f.localAddress().getPort());
        }
        return String.join(" ", out);
    }

    @Override
    public void close() {
        for (TcpFabric f : fabrics) {
            if (f != null) {
                f.close();
            }
        }
    }
}
