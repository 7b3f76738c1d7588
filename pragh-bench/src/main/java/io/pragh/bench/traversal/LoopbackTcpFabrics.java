package io.pragh.bench.traversal;

import io.pragh.fabric.tcp.ClusterSecret;
import io.pragh.fabric.tcp.TcpFabric;
import io.pragh.fabric.tcp.TcpFabricOptions;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * One {@link TcpFabric} per machine of a benchmark cluster, all in this JVM on 127.0.0.1: each binds its own
 * ephemeral port, runs its own Netty event loops and proves a freshly generated {@link ClusterSecret} (HMAC
 * handshake) to its peers, exactly as separate processes would, so {@code --fabric tcp} runs every mode over real
 * loopback sockets. Hand {@link #fabric} to {@code EmbeddedCluster.Builder.fabricPerMachine}; the cluster then owns
 * and closes them, and {@link #close} closes any it never took (closing twice is harmless).
 *
 * <pre>{@code
 * LoopbackTcpFabrics tcp = LoopbackTcpFabrics.open(4);
 * EmbeddedCluster cluster = EmbeddedCluster.builder().machines(4).fabricPerMachine(tcp::fabric).build();
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
