/**
 * The far-memory tier (Fargraph's working-set partition): machine roles (compute machines run queries and home
 * keys; memory nodes only host values and answer one-sided operations), the per-machine local-memory budget, the
 * hot / warm / cold classification of values from the monitor's access counts, and the duty that moves cold, then
 * warm values out to memory nodes with the ordinary MIGRATE when a machine exceeds its budget, and brings values
 * that turned hot back. Depends on the store, the monitor and the migration protocol, never on the embedding API.
 */
@MayDependOn({"io.pragh", "io.pragh.address", "io.pragh.keys", "io.pragh.memory", "io.pragh.migration", "io.pragh.monitor",
    "io.pragh.runtime", "io.pragh.store", "io.pragh.values", "org.agrona.."})
package io.pragh.tier;

import io.pragh.MayDependOn;
