/**
 * The far-memory experiment ({@code ./pragh bench farmem}, issue 18 after Fargraph): BFS and PageRank on an RMAT
 * graph at several far-memory ratios, comparing every value local, the tier with chunked READs, and a swap-like
 * on-demand baseline, plus a chunk-size sweep; JSON and PNG. Depends on the embedding API, the tier, the analytics,
 * the bench's workload, JSON and chart helpers.
 */
@MayDependOn({"io.pragh", "io.pragh.analytics", "io.pragh.bench.charts", "io.pragh.bench.traversal",
    "io.pragh.bench.workload", "io.pragh.embedded", "io.pragh.keys", "io.pragh.store", "io.pragh.tier",
    "org.agrona..", "org.knowm.xchart.."})
package io.pragh.bench.farmem;

import io.pragh.MayDependOn;
