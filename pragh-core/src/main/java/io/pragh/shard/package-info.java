/**
 * The shard-based migration baseline Pragh is measured against (paper section 2.3): a shard-to-machine table
 * consulted on every access, full per-shard access tracking, and moves of whole shards (keys and values). Same
 * store, same fabric as split migration, so that comparisons are fair. One move sequence ({@code ShardMover}) drives
 * any {@code ShardHosts}: the machines of an embedded cluster ({@code EmbeddedShardHosts}) or, in pragh-server,
 * server processes through their client ports; each machine's side of a move is {@code LocalShards}, and records
 * travel in {@code ShardRecords} pages. Depends on {@code io.pragh.cluster} and {@code io.pragh.store}.
 */
package io.pragh.shard;
