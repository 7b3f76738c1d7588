/**
 * Whole-graph analytics over far memory (Fargraph section 4): BFS and PageRank that scan every adjacency list a
 * compute machine homes, reading local values in place and values on other machines (memory nodes above all) in
 * large chunked one-sided READs, batched per host and overlapped with compute, or, as the swap-like baseline, one
 * small READ per value on demand. Depends on the embedding API (it runs on the machines' workers) and the layers
 * below it.
 */
@MayDependOn({"io.pragh", "io.pragh.address", "io.pragh.embedded", "io.pragh.fabric", "io.pragh.keys",
    "io.pragh.memory", "io.pragh.reclaim", "io.pragh.store", "io.pragh.values", "org.agrona.."})
package io.pragh.analytics;

import io.pragh.MayDependOn;
