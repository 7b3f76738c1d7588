/**
 * The client RPC of a server process: a small length-prefixed binary protocol on each machine's {@code clientPort}
 * (PING, PUT, GET, DELETE, edge insert, k-hop traversal, MIGRATE, paged scan of home keys; for the traversal
 * benchmark over processes capped edge inserts, counting traversals, {@link MachineStats}, the manual phases of the
 * migration policy through {@link MigrationDriver}, and the shard baseline's access counting and shard moves) for
 * tests, the {@code ./pragh cluster} CLI, benchmarks, front ends ({@link HomeKeyScan}) and applications that are not
 * machines of the cluster. {@link ClientProtocol} is the wire format, {@link ClientServer} the Netty side that runs
 * requests on a {@code io.pragh.cluster.Machine} (shard ops through {@code ShardService}), {@link MachineClient} and
 * {@link ClusterClient} the blocking client, {@link ClientShardHosts} the server processes as the hosts of a shard
 * move. A connection serves requests only after the client proved the cluster secret (the fabric's
 * {@code Handshake}), optionally inside mutual TLS. May depend on core ({@code io.pragh.cluster},
 * {@code io.pragh.store}, {@code io.pragh.shard}, {@code io.pragh.fabric}) and Netty; knows nothing of configuration
 * files or processes.
 */
package io.pragh.server.rpc;
