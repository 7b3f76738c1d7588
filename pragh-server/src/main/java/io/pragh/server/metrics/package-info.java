/**
 * What a machine shows of itself: {@link io.pragh.server.metrics.MachineCounters} reads the counters the store,
 * the location cache, the migrator and the reclaimer already keep; {@link io.pragh.server.metrics.MachineMeters}
 * binds them to a Micrometer registry as function counters and gauges (read when scraped, nothing added to the GET
 * path); {@link io.pragh.server.metrics.MetricsEndpoint} serves the Prometheus text on {@code GET /metrics}.
 * Depends on pragh-core and Micrometer only, so the Gremlin front end and {@code ./pragh serve} use it as well.
 */
@MayDependOn({"io.micrometer..", "io.netty..", "io.pragh.cache", "io.pragh.embedded", "io.pragh.fabric",
    "io.pragh.keys", "io.pragh.memory", "io.pragh.migration", "io.pragh.reclaim", "io.pragh.store",
    "io.pragh.tier", "io.pragh.values"})
package io.pragh.server.metrics;

import io.pragh.MayDependOn;
