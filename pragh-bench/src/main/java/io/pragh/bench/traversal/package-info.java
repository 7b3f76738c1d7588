/**
 * The traversal benchmark of paper section 6 ({@code ./pragh bench traversal}): an RMAT graph loaded into an
 * embedded cluster, two-hop queries and edge inserts from Zipfian or uniform start vertices, run per mode (orig,
 * ideal, split, split-cache) through warm-up, monitoring, migration and measurement, reported as a table and JSON.
 * Runs on the in-process fabric or ({@code --fabric tcp}) on a TCP fabric per machine over loopback.
 * Depends on {@code io.pragh.bench.workload}, the core's cluster, monitor and coordinator, pragh-server's TCP fabric,
 * HdrHistogram and Jackson.
 */
package io.pragh.bench.traversal;
