/**
 * JMH microbenchmarks (run with {@code ./pragh bench jmh [regex]}); JMH's annotation processor generates their
 * harness and {@code META-INF/BenchmarkList} at build time. Depends on {@code io.pragh.embedded} and below,
 * and (the pushdown comparison) on {@code io.pragh.bench.pushdown}, pragh-gremlin and TinkerGraph, and (what the
 * traversal benchmark's history recording costs) on {@code io.pragh.bench.traversal.history} and {@code io.pragh.graph}.
 */
@MayDependOn({"io.pragh.address", "io.pragh.bench.pushdown", "io.pragh.bench.traversal.history",
    "io.pragh.bench.workload", "io.pragh.cache", "io.pragh.embedded", "io.pragh.graph", "io.pragh.fabric",
    "io.pragh.fabric.tcp", "io.pragh.gremlin.process",
    "io.pragh.gremlin.structure", "io.pragh.keys", "io.pragh.memory", "io.pragh.migration", "io.pragh.reclaim",
    "io.pragh.runtime", "io.pragh.store", "org.agrona..", "org.apache.tinkerpop..", "org.openjdk.jmh.."})
package io.pragh.bench.jmh;

import io.pragh.MayDependOn;
