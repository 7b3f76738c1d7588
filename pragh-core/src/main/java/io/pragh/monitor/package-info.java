/**
 * The lightweight monitor of paper section 4.4: remote accesses are read from the location cache's own access
 * counters (no per-key table for remote keys), local accesses are counted only for the keys the coordinator asks
 * about, in a separate table. Depends on {@code io.pragh.store} (its access hook), {@code io.pragh.cache},
 * {@code io.pragh.keys} and {@code io.pragh.address}.
 */
@MayDependOn({"io.pragh.address", "io.pragh.cache", "io.pragh.keys", "io.pragh.store", "org.agrona.."})
package io.pragh.monitor;

import io.pragh.MayDependOn;
