package io.pragh.fabric.tcp;

import io.pragh.fabric.Endpoint;
import io.pragh.fabric.FabricConformanceTest;
import io.pragh.fabric.MachineMemory;
import io.pragh.fabric.MessageHandler;

/** The TCP fabric passes the shared Fabric contract: three fabrics, one per machine, on 127.0.0.1 ephemeral ports. */
class TcpFabricConformanceTest extends FabricConformanceTest {
    /** The TLS the fabrics run under; none here, mutual TLS in {@link TlsTcpFabricConformanceTest}. */
    protected ClusterTls tls() {
        return null;
    }

    protected TcpFabricOptions options() {
        return TcpFabricOptions.defaults();
    }

    @Override
    protected FabricCluster open(MachineMemory[] memories, MessageHandler[] handlers) {
        LoopbackCluster cluster = LoopbackCluster.start(memories.length, LoopbackCluster.SECRET,
            options(), tls());
        Endpoint[] endpoints = cluster.attach(memories, handlers);
        return new FabricCluster() {
            @Override
            public Endpoint endpoint(int machine) {
                return endpoints[machine];
            }

            @Override
            public void close() {
                cluster.close();
            }
        };
    }
}
