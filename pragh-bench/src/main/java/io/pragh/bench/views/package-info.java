/**
 * {@code ./pragh bench views}: Concerto's road-traffic case study over Pragh's view event handlers, against a
 * polling client ({@link io.pragh.bench.views.ViewsBench}, with the generated road grid and incident analysis in
 * {@code RoadNetwork}); {@code ./pragh bench kcore}: k-core time of an RMAT graph
 * ({@link io.pragh.bench.views.KCoreBench}); {@code ./pragh bench hotspot}: view-driven hotspot migration, remote
 * reads of a hot view before and after ({@link io.pragh.bench.views.HotspotBench}), in one process or over server
 * processes ({@code HotspotDeployment}).
 *
 * <p>May depend on the bench's charts, JSON writer and RMAT generator, the provider's events, k-core, load,
 * storage, structure and view packages, the distributed provider's client-port store, the server's local cluster and
 * client, HdrHistogram and XChart.
 */
@MayDependOn({"io.pragh.bench.charts", "io.pragh.bench.traversal", "io.pragh.bench.workload", "io.pragh.embedded",
    "io.pragh.gremlin.distributed", "io.pragh.gremlin.events", "io.pragh.gremlin.hotspot", "io.pragh.gremlin.kcore", "io.pragh.gremlin.load", "io.pragh.gremlin.storage", "io.pragh.gremlin.structure", "io.pragh.gremlin.view", "org.HdrHistogram..",
    "io.pragh.server.cli", "io.pragh.server.config", "io.pragh.server.rpc", "org.apache.commons.configuration2..", "org.apache.tinkerpop..",
    "org.knowm.xchart.."})
package io.pragh.bench.views;

import io.pragh.MayDependOn;
