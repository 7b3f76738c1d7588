/**
 * The traversal benchmark of paper section 6 ({@code ./pragh bench traversal}): an RMAT graph loaded into a fresh
 * cluster per mode, two-hop queries and edge inserts from Zipfian or uniform start vertices, run per mode (orig,
 * ideal, shard, split, split-cache) through warm-up, monitoring, migration and measurement, reported as a table and
 * JSON. The cluster is embedded in this JVM on the in-process fabric, or ({@code --fabric tcp}) a cluster of server
 * processes over the TCP fabric; the {@code deploy} subpackage hides which. A
 * {@link io.pragh.bench.traversal.ModeSession} is one mode's loaded cluster with its query threads, its phases as
 * steps; the {@link io.pragh.bench.traversal.TimelineSampler} records throughput per tick; the scenarios subpackage
 * composes both. Depends on {@code io.pragh.bench.workload}, {@code io.pragh.bench.traversal.deploy}, the core's
 * keys and store packages, HdrHistogram and Jackson. {@link io.pragh.bench.traversal.ClientWorkload} is what the query
 * threads run ({@link io.pragh.bench.traversal.TwoHopWorkload} here); another benchmark on the same modes (the RDF
 * benchmark) brings its own, with {@link io.pragh.bench.traversal.Flags} and {@link io.pragh.bench.traversal.Phases}.
 * With {@code -Dpragh.bench.census=true} a split mode's measurement also prints where its remote value reads above
 * the window's single-copy floor come from ({@link io.pragh.bench.traversal.deploy.ReadCensus}, in-process only).
 * Each mode run by {@link io.pragh.bench.traversal.TraversalRunner#run} records the history of a sample of keys and
 * checks it for linearizability ({@code io.pragh.bench.traversal.history}, in-process only). The JDK's
 * {@code com.sun.management} gives the process CPU time a measurement reports per query
 * ({@link io.pragh.bench.traversal.ProcessCpu}); the JDK's thread MXBean its split by duty, the threads grouped by
 * name ({@link io.pragh.bench.traversal.DutyCpu}, in-process only).
 */
@MayDependOn({"com.fasterxml.jackson..", "com.sun.management", "io.pragh.bench.charts", "io.pragh.bench.shard",
    "io.pragh.bench.traversal.deploy", "io.pragh.bench.traversal.history", "io.pragh.bench.workload",
    "io.pragh.coordinator", "io.pragh.fabric", "io.pragh.fabric.inprocess", "io.pragh.keys", "io.pragh.store",
    "io.pragh.values", "org.HdrHistogram..", "org.agrona.."})
package io.pragh.bench.traversal;

import io.pragh.MayDependOn;
