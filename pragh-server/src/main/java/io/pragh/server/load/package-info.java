/**
 * The edge-load SPI of {@code ./pragh cluster load}: a query front end (the Gremlin server of {@code pragh-gremlin})
 * measures how fast a client inserts edges through it across the cluster's processes, found through
 * {@link java.util.ServiceLoader} so that pragh-server needs no compile-time dependency on the front end. May depend
 * only on {@code io.pragh.server.config}; knows nothing of Gremlin.
 */
@MayDependOn({"io.pragh.server.config"})
package io.pragh.server.load;

import io.pragh.MayDependOn;
