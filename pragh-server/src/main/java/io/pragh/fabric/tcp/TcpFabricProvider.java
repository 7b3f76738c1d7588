package io.pragh.fabric.tcp;

import io.pragh.fabric.Fabric;
import io.pragh.fabric.FabricKind;
import io.pragh.fabric.FabricProvider;
import io.pragh.fabric.FabricSpec;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * Provides the {@link TcpFabric}: runs wherever there are sockets, one fabric per process for the one machine the
 * spec names. It needs the spec's {@link ClusterSecret} setting; a {@link TcpFabricOptions} setting tunes it (the
 * spec's timeouts win over the options' own) and a {@link ClusterTls} setting runs it in mutual TLS. Peers whose
 * host names do not resolve yet (containers that exist only once they run) are resolved again in the background
 * until they do, and the fabric pointed at them.
 *
 * <pre>{@code
 * Fabric f = new TcpFabricProvider().create(FabricSpec.of(0, addresses).withSetting(ClusterSecret.class, secret));
 * }</pre>
 */
public final class TcpFabricProvider implements FabricProvider {
    private static final long RESOLVE_EVERY_MILLIS = 500;

    @Override
    public FabricKind kind() {
        return FabricKind.TCP;
    }

    @Override
    public Availability availability() {
        return Availability.available("TCP needs no device");
    }

    @Override
    public boolean supportsTls() {
        return true;
    }

    @Override
    public Fabric create(FabricSpec spec) {
        if (spec.hostsEveryMachine()) {
            throw new IllegalArgumentException("the tcp fabric serves one machine per process; the spec must name "
                + "the machine this process hosts");
        }
        ClusterTls tls = spec.setting(ClusterTls.class).orElse(null);
        if (spec.tlsRequired() && tls == null) {
            throw new IllegalArgumentException("the spec requires TLS but carries no ClusterTls setting");
        }
        TcpFabricOptions options = spec.setting(TcpFabricOptions.class).orElse(TcpFabricOptions.defaults())
            .withConnectTimeout(spec.connectTimeout()).withRequestTimeout(spec.requestTimeout());
        List<InetSocketAddress> addresses = spec.requireAddresses(name());
        TcpFabric fabric = new TcpFabric(spec.machine(), addresses, spec.require(ClusterSecret.class, name()),
            options, tls);
        resolveLater(fabric, addresses);
        return fabric;
    }

    private static void resolveLater(TcpFabric fabric, List<InetSocketAddress> addresses) {
        if (addresses.stream().noneMatch(InetSocketAddress::isUnresolved)) {
            return;
        }
        Thread t = new Thread(() -> {
            List<InetSocketAddress> pending = new ArrayList<>(addresses);
            while (!fabric.isClosed() && pending.stream().anyMatch(a -> a != null)) {
                for (int peer = 0; peer < pending.size(); peer++) {
                    InetSocketAddress a = pending.get(peer);
                    if (a == null || !a.isUnresolved()) {
                        pending.set(peer, null);
                        continue;
                    }
                    InetSocketAddress again = new InetSocketAddress(a.getHostString(), a.getPort());
                    if (!again.isUnresolved()) {
                        fabric.updateAddress(peer, again);
                        pending.set(peer, null);
                    }
                }
                try {
                    Thread.sleep(RESOLVE_EVERY_MILLIS);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "pragh-m" + fabric.machine() + "-tcp-resolve");
        t.setDaemon(true);
        t.start();
    }
}
