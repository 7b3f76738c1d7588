/**
 * The soak benchmark, {@code ./pragh bench soak}: pragh-core's chaos workload ({@code io.pragh.chaos}) for minutes
 * on an embedded cluster under the fault fabric, on many keys, its history checked window by window for per-key
 * linearizability by search ({@code io.pragh.linearizability}) on checker threads while the next window runs, each
 * checker taking a fixed share of the keys; memory stays bounded by the few windows recorded but not yet checked.
 * May depend on pragh-core.
 */
@MayDependOn({"io.pragh.chaos", "io.pragh.durability", "io.pragh.embedded", "io.pragh.fabric", "io.pragh.fabric.fault",
    "io.pragh.fabric.inprocess", "io.pragh.linearizability", "io.pragh.reclaim", "io.pragh.store"})
package io.pragh.bench.soak;

import io.pragh.MayDependOn;
