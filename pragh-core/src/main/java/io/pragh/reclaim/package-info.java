/**
 * Passive invalidation and lease-based reclamation: the leases, the per-peer reclaim rings written one-sidedly, the
 * GC thread that frees records after the reclaim lease, and the fence that orders a migration's invalidation before
 * later updates are acknowledged. Depends on {@code io.pragh.fabric}, {@code io.pragh.values},
 * {@code io.pragh.address}, {@code io.pragh.keys} (hashing), {@code io.pragh.runtime} and
 * {@code io.pragh.memory}.
 */
@MayDependOn({"io.pragh", "io.pragh.address", "io.pragh.fabric", "io.pragh.keys", "io.pragh.memory",
    "io.pragh.runtime", "io.pragh.values"})
package io.pragh.reclaim;

import io.pragh.MayDependOn;
