/**
 * The migration protocol: unilateral, target-only MIGRATE over one-sided operations, and the migration thread that
 * runs it. Monitoring and the coordinator's policies build on it. Depends on {@code io.pragh.store} and the layers
 * below it.
 */
@MayDependOn({"io.pragh", "io.pragh.address", "io.pragh.cache", "io.pragh.fabric", "io.pragh.keys",
    "io.pragh.memory", "io.pragh.reclaim", "io.pragh.runtime", "io.pragh.store", "io.pragh.values", "org.agrona.."})
package io.pragh.migration;

import io.pragh.MayDependOn;
