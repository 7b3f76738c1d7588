/**
 * Durability of a machine's home keys: the write-ahead log of applied updates (acknowledged only once durable),
 * periodic snapshots, recovery by replaying both per key in version order, and a read-only replay that gives a
 * home the durable value and version of keys it must put back (the log refusing, from then on, the late records of
 * those keys that the restored value cannot hold), and what a survivor does with it when a peer loses its memory
 * ({@link io.pragh.durability.PeerLoss}). Depends on {@code io.pragh.store}, {@code io.pragh.values} (the version
 * and record layout), {@code io.pragh.address}, {@code io.pragh.cache}, {@code io.pragh.fabric},
 * {@code io.pragh.memory} and {@code io.pragh.reclaim} (finding, dropping and freeing what pointed into a lost peer),
 * {@code io.pragh.runtime} and the JDK's file channels.
 */
@MayDependOn({"io.pragh", "io.pragh.address", "io.pragh.cache", "io.pragh.fabric", "io.pragh.keys", "io.pragh.memory",
    "io.pragh.reclaim", "io.pragh.runtime", "io.pragh.store", "io.pragh.values", "org.agrona.."})
package io.pragh.durability;

import io.pragh.MayDependOn;
