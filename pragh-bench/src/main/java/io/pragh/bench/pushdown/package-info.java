/**
 * The pushdown comparison of {@code g.V(x).out().out().count()} (pragh-bench/PUSHDOWN.md): the RMAT graph and the 64
 * start vertices every system is measured on, loading them through the TinkerPop structure API, the two-hop counts
 * each system must agree on, the files the JanusGraph side (its own JVM, TinkerPop 3.7.3) reads, and
 * {@code ./pragh bench janusgraph}. Depends on {@code io.pragh.bench.workload}, pragh-gremlin and TinkerPop 3.8.1.
 */
@MayDependOn({"com.fasterxml.jackson..", "io.pragh.bench.workload", "io.pragh.fabric.inprocess",
    "io.pragh.gremlin.structure", "io.pragh.runtime", "org.apache.commons..", "org.apache.tinkerpop.."})
package io.pragh.bench.pushdown;

import io.pragh.MayDependOn;
