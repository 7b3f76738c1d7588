/**
 * The client RPC of a server process: a small length-prefixed binary protocol on each machine's {@code clientPort}
 * (PING, PUT, GET, DELETE, batched updates ({@link UpdatesFrame}), edge insert, k-hop traversal, MIGRATE, paged scan of
 * home keys, {@link MachineStats} and
 * the manual phases of the migration policy through {@link MigrationDriver}) for tests, the {@code ./pragh cluster}
 * CLI, benchmarks, front ends ({@link HomeKeyScan}) and applications that are not machines of the cluster; and the
 * operations of the server extensions a machine runs ({@code io.pragh.server.extension}, put in its
 * {@code ExtensionTable}), refused while it runs none that declares them. {@link ClientProtocol} is the wire format.
 * Server side, by duty: {@link ClientServer} the port and the routing of each request, {@code ClientConnection} one
 * connection (the handshake, then pipelined requests answered in order), {@code UserOperations} the protocol's own
 * operations on a {@code io.pragh.embedded.Machine}, {@code ExtensionTable} the extensions', {@code Reply} an answer
 * and how a failure becomes one. Client side: {@code MachineConnection} the socket and the handshake,
 * {@link MachineClient} one machine's operations ({@link MachineClient#extension} sends an extension's request),
 * {@link ClusterClient} a cluster's. A connection serves requests only after the client proved the cluster secret
 * (the fabric's {@code Handshake}), optionally inside mutual TLS. May depend on core ({@code io.pragh.embedded},
 * {@code io.pragh.store}, {@code io.pragh.fabric}), {@code io.pragh.server.extension} and Netty; knows nothing of
 * configuration files or processes.
 */
@MayDependOn({"io.netty..", "io.pragh", "io.pragh.address", "io.pragh.embedded", "io.pragh.fabric",
    "io.pragh.fabric.tcp", "io.pragh.graph", "io.pragh.keys", "io.pragh.migration", "io.pragh.server.extension",
    "io.pragh.store", "org.agrona.."})
package io.pragh.server.rpc;

import io.pragh.MayDependOn;
