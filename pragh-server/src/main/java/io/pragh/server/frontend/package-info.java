/**
 * The front-end SPI of a server process: query front ends (the Gremlin server of {@code pragh-gremlin}) that a
 * machine starts beside its client RPC when they are on the class path, found through {@link java.util.ServiceLoader}
 * so that this module needs no compile-time dependency on them. May depend
 * only on {@code io.pragh.server.config} and core ({@code io.pragh.embedded}, {@code io.pragh.store}); knows nothing
 * of Gremlin.
 */
@MayDependOn({"io.micrometer..", "io.pragh.embedded", "io.pragh.server.config", "io.pragh.server.metrics",
    "io.pragh.store"})
package io.pragh.server.frontend;

import io.pragh.MayDependOn;
