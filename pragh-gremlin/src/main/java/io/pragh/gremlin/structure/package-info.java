/**
 * The TinkerPop structure API over the split store: {@link io.pragh.gremlin.structure.PraghGraph} and one class per
 * TinkerPop interface (vertex, edge, vertex property, property, features). Elements are thin handles (an id and what
 * is immutable about them); every read of a property or an adjacency list is a GET through {@link
 * io.pragh.gremlin.structure.GraphStore}, so monitoring, caching and migration see Gremlin workloads as they are.
 * What the graph does with edges (add, find by id, list, remove) is {@code Edges}; what an edge id names is {@code
 * EdgeIds} (compact ids that locate an edge from its out-vertex, or supplied ones through an index record); a
 * supernode's list is read whole by {@code SegmentedLists} and sealed into segments as it grows by {@code
 * SegmentSealer}, which also takes a list over from a sealer whose lease ran out and reclaims what it left (the
 * format: {@code storage.AdjacencySegments}, {@code storage.SealLease}, {@code storage.SegmentStamp}).
 *
 * <p>May depend on {@code io.pragh.gremlin.storage}, pragh-core's store and TinkerPop's gremlin-core.
 */
@MayDependOn({"io.pragh", "io.pragh.coordinator", "io.pragh.embedded", "io.pragh.gremlin.load",
    "io.pragh.gremlin.process", "io.pragh.gremlin.storage", "io.pragh.monitor", "io.pragh.store", "org.agrona..",
    "org.apache.commons.configuration2..", "org.apache.tinkerpop.."})
package io.pragh.gremlin.structure;

import io.pragh.MayDependOn;
