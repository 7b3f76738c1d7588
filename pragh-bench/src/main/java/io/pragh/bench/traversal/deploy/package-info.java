/**
 * The clusters a benchmark mode runs on, behind one interface ({@link io.pragh.bench.traversal.deploy.BenchCluster}):
 * an embedded cluster in the benchmark's JVM on the in-process fabric ({@code --fabric inprocess}), or a cluster of
 * server processes on 127.0.0.1 over the TCP fabric, started per mode as {@code ./pragh cluster start} starts one
 * ({@code --fabric tcp}). Each offers query paths for the client threads, fabric statistics, and the control of
 * split migration and of the shard baseline's moves; an embedded cluster can also take a read census of a window
 * ({@link io.pragh.bench.traversal.deploy.ReadCensus}, a diagnostic of the migration policy, which also reads the
 * location caches' miss counts, and {@link io.pragh.bench.traversal.deploy.CompulsoryReads}). Depends on the core's
 * embedding API ({@code io.pragh.embedded}), location cache, monitor and coordinator packages, its memory package (to
 * say whether the regions are on huge pages), on the benchmark's
 * shard baseline ({@code io.pragh.bench.shard}) and server extension ({@code io.pragh.bench.extension}), and on
 * pragh-server's local cluster and client RPC.
 */
@MayDependOn({"io.pragh.address", "io.pragh.bench.extension", "io.pragh.bench.shard", "io.pragh.cache", "io.pragh.coordinator",
    "io.pragh.embedded", "io.pragh.fabric", "io.pragh.fabric.tcp", "io.pragh.graph", "io.pragh.keys", "io.pragh.memory",
    "io.pragh.monitor",
    "io.pragh.server.cli", "io.pragh.server.config", "io.pragh.server.rpc", "io.pragh.store", "org.agrona.."})
package io.pragh.bench.traversal.deploy;

import io.pragh.MayDependOn;
