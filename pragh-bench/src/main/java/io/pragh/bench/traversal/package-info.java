/**
 * The traversal benchmark of paper section 6 ({@code ./pragh bench traversal}): an RMAT graph loaded into an
 * embedded cluster, two-hop queries and edge inserts from Zipfian or uniform start vertices, run per mode (orig,
 * ideal, shard, split, split-cache) through warm-up, monitoring, migration and measurement, reported as a table and
 * JSON, on the in-process fabric or ({@code --fabric tcp}) on a TCP fabric per machine over loopback. A
 * {@link io.pragh.bench.traversal.ModeSession} is one mode's loaded cluster with its query threads, its phases as
 * steps; the {@link io.pragh.bench.traversal.TimelineSampler} records throughput per tick; the scenarios subpackage
 * composes both. Depends on {@code io.pragh.bench.workload}, the core's cluster, monitor and coordinator, pragh-server's
 * TCP fabric,
 * HdrHistogram and Jackson.
 */
package io.pragh.bench.traversal;
