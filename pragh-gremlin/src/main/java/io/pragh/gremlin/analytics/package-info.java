/**
 * BFS and PageRank over a property graph's out-edges, and their Gremlin services {@code g.call("pragh.bfs", [...])}
 * and {@code g.call("pragh.pagerank", [...])} ({@link io.pragh.gremlin.analytics.GraphAlgorithms}): the same
 * definitions as the core's far-memory analytics ({@code io.pragh.analytics}), over every vertex of the graph and
 * the edges of one label or all, read as the core's scans read lists (local ones in place, far ones in chunked
 * one-sided READs per host), so they run on an embedded graph and on a cluster's front end alike.
 *
 * <p>May depend on the core's analytics scans, placement and store, the provider's structure and storage
 * packages, the view package's call-service base, Agrona and TinkerPop.
 */
@MayDependOn({"io.pragh.analytics", "io.pragh.gremlin.storage", "io.pragh.gremlin.structure",
    "io.pragh.gremlin.view", "io.pragh.keys", "io.pragh.store", "org.agrona..", "org.apache.tinkerpop.."})
package io.pragh.gremlin.analytics;

import io.pragh.MayDependOn;
