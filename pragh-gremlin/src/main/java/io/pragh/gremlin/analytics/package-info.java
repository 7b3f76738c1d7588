/**
 * BFS and PageRank over a property graph's out-edges, and their Gremlin services {@code g.call("pragh.bfs", [...])}
 * and {@code g.call("pragh.pagerank", [...])} ({@link io.pragh.gremlin.analytics.GraphAlgorithms}): the same
 * definitions as the core's far-memory analytics ({@code io.pragh.analytics}), over every vertex of the graph and
 * the edges of one label or all, read through the graph's store, so they run on an embedded graph and on a
 * cluster's front end alike.
 *
 * <p>May depend on the provider's structure and storage packages, the view package's call-service base and TinkerPop.
 */
@MayDependOn({"io.pragh.gremlin.storage", "io.pragh.gremlin.structure", "io.pragh.gremlin.view",
    "org.apache.tinkerpop.."})
package io.pragh.gremlin.analytics;

import io.pragh.MayDependOn;
