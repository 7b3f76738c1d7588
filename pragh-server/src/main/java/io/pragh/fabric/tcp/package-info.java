/**
 * The TCP fabric: the Fabric SPI over Netty for hosts without RDMA, one process per machine. One-sided READ, WRITE
 * and CAS travel as request frames and are performed by the target's Netty event-loop threads directly on its
 * registered regions, never by its worker threads; two-sided messages go to a per-machine delivery thread. Peers
 * prove they hold the cluster secret before any other frame is accepted ({@code Handshake}, which the client port
 * of {@code io.pragh.server.rpc} uses too), optionally inside mutual TLS ({@code ClusterTls}; {@code DevCertificates}
 * makes a throwaway CA for local clusters and tests), and every frame is validated.
 *
 * <p>Layering inside: {@code Frame*} classes are the wire format (pure, fuzzed), {@code FramedHandler} and its client
 * and server subclasses speak it on a channel, {@code PeerLink}, {@code TcpEndpoint} and {@code TcpOpBatch} turn it
 * into the SPI. May depend on {@code io.pragh} (limits, exceptions), {@code io.pragh.address}, {@code io.pragh.fabric},
 * {@code io.pragh.memory}, Agrona, Netty and {@code sun.misc.Unsafe} (one copy between a frame and a region).
 */
@MayDependOn({"io.netty..", "io.pragh", "io.pragh.address", "io.pragh.fabric", "io.pragh.memory", "org.agrona..",
    "sun.misc"})
package io.pragh.fabric.tcp;

import io.pragh.MayDependOn;
