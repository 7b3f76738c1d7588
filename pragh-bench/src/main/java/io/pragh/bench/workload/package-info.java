/**
 * Workload generators of the traversal benchmark: the Graph500 RMAT graph (as a compressed adjacency), and the
 * start-vertex distributions (YCSB's Zipfian and uniform). Pure computation; depends on nothing in Pragh.
 */
@MayDependOn({})
package io.pragh.bench.workload;

import io.pragh.MayDependOn;
