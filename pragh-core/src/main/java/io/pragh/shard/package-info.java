/**
 * The shard-based migration baseline Pragh is measured against (paper section 2.3): a shard-to-machine table
 * consulted on every access, full per-shard access tracking, and moves of whole shards (keys and values). Same
 * store, same fabric as split migration, so that comparisons are fair. Depends on {@code io.pragh.cluster}.
 */
package io.pragh.shard;
