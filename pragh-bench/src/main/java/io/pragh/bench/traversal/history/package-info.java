/**
 * The traversal benchmark's history: the GETs and edge inserts of a sample of keys (chosen by key hash,
 * {@link io.pragh.bench.traversal.history.KeySample}), recorded from every query thread with the values the
 * two-hop queries themselves read and when each operation was invoked and answered
 * ({@link io.pragh.bench.traversal.history.TraversalHistory}), then checked for per-key linearizability by the core's
 * search ({@code io.pragh.linearizability}) against the adjacency lists' sequential specification
 * ({@link io.pragh.bench.traversal.history.AdjacencyModel}: loaded, then capped appends), the result a
 * {@link io.pragh.bench.traversal.history.HistoryCheck} in each mode's report. Reads are recorded as digests
 * ({@link io.pragh.bench.traversal.history.AdjacencyDigest}) so that a hot list read thousands of times costs a few
 * bytes each. Depends on the deploy package's path recorder, the benchmark's capped append (whose argument an
 * insert records), the core's k-hop traversal, keys, value views and linearizability checker, and Agrona.
 */
@MayDependOn({"io.pragh.bench.extension", "io.pragh.bench.traversal.deploy", "io.pragh.graph", "io.pragh.keys", "io.pragh.linearizability",
    "io.pragh.store", "org.agrona.."})
package io.pragh.bench.traversal.history;

import io.pragh.MayDependOn;
