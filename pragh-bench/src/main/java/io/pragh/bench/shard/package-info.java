/**
 * The shard-based migration baseline Pragh is measured against (paper section 2.3): a shard-to-machine table
 * consulted on every access ({@code ShardPlacement}, a core {@code Placement}), full per-shard access tracking, and
 * moves of whole shards (keys and values). Same store, same fabric as split migration, so that comparisons are fair.
 * One move sequence ({@code ShardMover}) drives any {@code ShardHosts}: the machines of an embedded cluster
 * ({@code EmbeddedShardHosts}) or server processes through their client ports (the bench extension's
 * {@code ClientShardHosts}); each machine's side of a move is {@code LocalShards}, and records travel in
 * {@code ShardRecords} pages. Lives in pragh-bench so that no production module carries it. Depends on core only
 * ({@code io.pragh.embedded}, {@code io.pragh.store}, {@code io.pragh.keys}).
 */
@MayDependOn({"io.pragh.cache", "io.pragh.embedded", "io.pragh.keys", "io.pragh.store", "org.agrona.."})
package io.pragh.bench.shard;

import io.pragh.MayDependOn;
