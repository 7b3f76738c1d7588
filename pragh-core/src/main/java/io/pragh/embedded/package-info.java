/**
 * The embedding API: a machine with its threads, an embedded multi-machine cluster over the in-process fabric, and
 * graph operations on it. Depends on every core package below it.
 */
@MayDependOn({"io.pragh", "io.pragh.address", "io.pragh.cache", "io.pragh.coordinator", "io.pragh.durability",
    "io.pragh.fabric", "io.pragh.fabric.inprocess", "io.pragh.graph", "io.pragh.keys", "io.pragh.memory",
    "io.pragh.migration", "io.pragh.monitor", "io.pragh.reclaim", "io.pragh.runtime", "io.pragh.store",
    "io.pragh.tier", "io.pragh.values", "org.agrona.."})
package io.pragh.embedded;

import io.pragh.MayDependOn;
