/**
 * What the benchmark adds to Pragh's servers, kept out of the production modules: the bench server extension
 * ({@link io.pragh.bench.extension.BenchExtension}, enabled by {@code extensions: [bench]} in a cluster file and
 * found through pragh-server's {@code ServerExtension} SPI) with its client-protocol operations
 * ({@link io.pragh.bench.extension.BenchProtocol}: capped edge inserts, counting traversals, the shard baseline's
 * tracking and moves), their server side ({@code BenchOperations}, {@code ShardOperations}) and client side
 * ({@link io.pragh.bench.extension.BenchClient}, {@link io.pragh.bench.extension.ClientShardHosts}); and the
 * {@link io.pragh.bench.extension.CappedAppend} mutator, which embedded benchmark clusters register too. May depend
 * on core, on {@code io.pragh.bench.shard} and on pragh-server's {@code config}, {@code extension} and {@code rpc}
 * packages; pragh-server never depends on it.
 */
@MayDependOn({"io.pragh.bench.shard", "io.pragh.embedded", "io.pragh.graph", "io.pragh.keys",
    "io.pragh.server.config", "io.pragh.server.extension", "io.pragh.server.rpc", "io.pragh.store", "org.agrona.."})
package io.pragh.bench.extension;

import io.pragh.MayDependOn;
