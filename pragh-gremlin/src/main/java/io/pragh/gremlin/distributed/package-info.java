/**
 * Gremlin on each machine of a multi-process cluster ({@code ./pragh server}, {@code ./pragh cluster start}):
 * {@link io.pragh.gremlin.distributed.GremlinFrontEnd}, the server's front end found through
 * {@code META-INF/services}, serves a {@link io.pragh.gremlin.structure.PraghGraph} over
 * {@link io.pragh.gremlin.distributed.ClusterGraphStore} (the local machine of the TCP fabric) on the machine's
 * {@code gremlinPort}, and {@link io.pragh.gremlin.distributed.HomeRouter} sends traversals that start at {@code V(id)}
 * to the id's home machine's Gremlin port, at most a bound of them at once
 * ({@link io.pragh.gremlin.distributed.ForwardPermits}). With {@code extensions: [views]} a machine's client port also
 * streams its view events to polling clients ({@link io.pragh.gremlin.distributed.ViewEventsExtension}, client side
 * {@link io.pragh.gremlin.distributed.ViewEventsClient}), and answers a watched view's hotspot read counts to the
 * process that runs the hotspot round, the coordinator's, which reaches every machine through
 * {@link io.pragh.gremlin.distributed.ServedHotspotMachines}.
 *
 * <p>May depend on {@code io.pragh.gremlin.structure}, {@code io.pragh.gremlin.server}, {@code io.pragh.gremlin.storage},
 * pragh-server ({@code io.pragh.server.frontend}, {@code io.pragh.server.config}, {@code io.pragh.server.rpc}),
 * pragh-core and TinkerPop's driver; only pragh-rdf's SPARQL front end uses it
 * ({@link io.pragh.gremlin.distributed.ClusterGraphStore#of}),
 * the server finds the rest at run time.
 */
@MayDependOn({"io.micrometer..", "io.pragh", "io.pragh.embedded", "io.pragh.fabric", "io.pragh.fabric.tcp",
    "io.pragh.gremlin.events", "io.pragh.gremlin.hotspot", "io.pragh.gremlin.server", "io.pragh.gremlin.storage", "io.pragh.gremlin.structure",
    "io.pragh.keys", "io.pragh.server.extension", "org.agrona..",
    "io.pragh.server.config", "io.pragh.server.frontend", "io.pragh.server.load", "io.pragh.server.rpc", "io.pragh.store",
    "io.pragh.tier",
    "org.apache.commons.configuration2..", "org.apache.tinkerpop.."})
package io.pragh.gremlin.distributed;

import io.pragh.MayDependOn;
