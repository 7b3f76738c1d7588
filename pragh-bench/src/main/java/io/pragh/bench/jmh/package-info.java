/**
 * JMH microbenchmarks (run with {@code ./pragh bench jmh [regex]}); JMH's annotation processor generates their
 * harness and {@code META-INF/BenchmarkList} at build time. Depends on {@code io.pragh.cluster} and below,
 * and (the pushdown comparison) on {@code io.pragh.bench.pushdown}, pragh-gremlin and TinkerGraph.
 */
package io.pragh.bench.jmh;
