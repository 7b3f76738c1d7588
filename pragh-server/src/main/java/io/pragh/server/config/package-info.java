/**
 * The cluster configuration file: YAML read through Jackson into immutable records, checked completely at start so that
 * a bad file fails with the offending key and the reason (unknown key, wrong type, value out of range, duplicate
 * machine ids or ports, a cache lease longer than the reclaim lease) before anything listens or allocates. May depend
 * on {@code io.pragh} (limits, exceptions), {@code io.pragh.address}, {@code io.pragh.durability}, {@code
 * io.pragh.fabric}, {@code io.pragh.store} and {@code io.pragh.reclaim} (the core records it converts to), {@code
 * io.pragh.monitor} (the monitor's default rates), {@code io.pragh.fabric.tcp} (secret, TCP options) and Jackson;
 * nothing here starts anything.
 */
@MayDependOn({"com.fasterxml.jackson..", "io.pragh", "io.pragh.address", "io.pragh.durability", "io.pragh.fabric",
    "io.pragh.fabric.tcp", "io.pragh.monitor", "io.pragh.reclaim", "io.pragh.store", "io.pragh.tier"})
package io.pragh.server.config;

import io.pragh.MayDependOn;
