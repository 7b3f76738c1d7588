package io.pragh.fabric.tcp;

import io.pragh.fabric.Deployment;
import io.pragh.fabric.Endpoint;
import io.pragh.fabric.FabricKind;
import io.pragh.fabric.FabricProviders;
import io.pragh.fabric.FabricSpec;
import io.pragh.fabric.MachineMemory;
import io.pragh.fabric.MessageHandler;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * N TCP fabrics in this JVM on 127.0.0.1 ephemeral ports, each told the others' actual ports. Built as a server
 * builds its fabric: the TCP provider found on the class path, chosen by kind, given a spec.
 */
final class LoopbackCluster implements AutoCloseable {
    static final ClusterSecret SECRET = ClusterSecret.fromString("test-cluster-secret-0123456789");

    final TcpFabric[] fabrics;

    private LoopbackCluster(TcpFabric[] fabrics) {
        this.fabrics = fabrics;
    }

    static InetSocketAddress loopback(int port) {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
    }

    static LoopbackCluster start(int machines, ClusterSecret secret, TcpFabricOptions options) {
        return start(machines, secret, options, null);
    }

    /** With {@code tls} not null, every fabric runs its connections in mutual TLS. */
    static LoopbackCluster start(int machines, ClusterSecret secret, TcpFabricOptions options, ClusterTls tls) {
        List<InetSocketAddress> unbound = new ArrayList<>();
        for (int m = 0; m < machines; m++) {
            unbound.add(loopback(0));
        }
        FabricProviders providers = FabricProviders.load(LoopbackCluster.class.getClassLoader());
        TcpFabric[] fabrics = new TcpFabric[machines];
        for (int m = 0; m < machines; m++) {
            FabricSpec spec = FabricSpec.of(m, unbound)
                .withTimeouts(options.connectTimeout(), options.requestTimeout())
                .withSetting(ClusterSecret.class, secret)
                .withSetting(TcpFabricOptions.class, options)
                .withSetting(ClusterTls.class, tls)
                .requiringTls(tls != null);
            fabrics[m] = (TcpFabric) providers.open(FabricKind.TCP, Deployment.MULTI_PROCESS, spec);
        }
        for (TcpFabric f : fabrics) {
            for (int peer = 0; peer < machines; peer++) {
                f.updateAddress(peer, fabrics[peer].localAddress());
            }
        }
        return new LoopbackCluster(fabrics);
    }

    Endpoint[] attach(MachineMemory[] memories, MessageHandler[] handlers) {
        Endpoint[] endpoints = new Endpoint[fabrics.length];
        for (int m = 0; m < fabrics.length; m++) {
            endpoints[m] = fabrics[m].attach(m, memories[m], handlers[m]);
        }
        return endpoints;
    }

    List<InetSocketAddress> addresses() {
        List<InetSocketAddress> out = new ArrayList<>();
        for (TcpFabric f : fabrics) {
            out.add(f.localAddress());
        }
        return out;
    }

    @Override
    public void close() {
        for (TcpFabric f : fabrics) {
            f.close();
        }
    }
}
