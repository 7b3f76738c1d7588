package io.pragh.fabric.tcp;

import java.time.Duration;

/** The TCP fabric passes the shared Fabric contract with every connection in mutual TLS (and the secret inside). */
class TlsTcpFabricConformanceTest extends TcpFabricConformanceTest {
    @Override
    protected TcpFabricOptions options() {
        // A JVM's first TLS handshakes load and warm the JDK's TLS code: seconds on a loaded machine.
        return TcpFabricOptions.defaults().withHandshakeTimeout(Duration.ofSeconds(15));
    }

    @Override
    protected ClusterTls tls() {
        return TestCertificates.clusterTls();
    }
}
