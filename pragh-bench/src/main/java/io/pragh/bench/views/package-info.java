/**
 * {@code ./pragh bench views}: Concerto's road-traffic case study over Pragh's view event handlers, against a
 * polling client ({@link io.pragh.bench.views.ViewsBench}, with the generated road grid and incident analysis in
 * {@code RoadNetwork}).
 *
 * <p>May depend on the bench's charts and JSON writer, the provider's events, storage, structure and view
 * packages, HdrHistogram and XChart.
 */
@MayDependOn({"io.pragh.bench.charts", "io.pragh.bench.traversal", "io.pragh.gremlin.events",
    "io.pragh.gremlin.storage", "io.pragh.gremlin.structure", "io.pragh.gremlin.view", "org.HdrHistogram..",
    "org.apache.commons.configuration2..", "org.apache.tinkerpop..", "org.knowm.xchart.."})
package io.pragh.bench.views;

import io.pragh.MayDependOn;
