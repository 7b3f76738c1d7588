package io.pragh.fabric.tcp;

import io.pragh.fabric.AttachedCluster;
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
        return AttachedCluster.of(cluster.attach(memories, handlers), cluster::close);
    }
}
