/**
 * The traversal benchmark's further scenarios (paper section 6), each a {@code ./pragh bench} subcommand with the
 * traversal benchmark's flags: the scope sweep (Fig. 11), the PUT latency CDF (Fig. 12), eager vs deferred
 * timelines (Fig. 14) and the dynamic workload (Fig. 15). They compose the traversal package's sessions and
 * timeline sampler and write JSON and charts. Depends on {@code io.pragh.bench.traversal}, {@code
 * io.pragh.bench.charts} and the workload generators.
 */
@MayDependOn({"io.pragh.bench.charts", "io.pragh.bench.traversal", "io.pragh.bench.traversal.deploy",
    "io.pragh.bench.workload", "org.HdrHistogram.."})
package io.pragh.bench.traversal.scenarios;

import io.pragh.MayDependOn;
