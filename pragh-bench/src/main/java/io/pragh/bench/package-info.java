/**
 * Benchmarks of Pragh: {@code ./pragh bench} dispatches to the traversal benchmark ({@code traversal}) and its
 * scenarios ({@code scope-sweep}, {@code put-cdf}, {@code mechanisms}, {@code dynamic}), the JMH
 * microbenchmarks ({@code jmh}), the key-region footprint ({@code keys}), the soak benchmark ({@code soak}) and
 * the JanusGraph side of the pushdown comparison ({@code janusgraph}, in its own JVM), the RDF benchmark
 * ({@code rdf}) and the whole of section 6 in one command ({@code paper}). May depend on every module.
 */
@MayDependOn({"io.pragh.bench.farmem", "io.pragh.bench.footprint", "io.pragh.bench.paper", "io.pragh.bench.pushdown", "io.pragh.bench.rdf",
    "io.pragh.bench.soak", "io.pragh.bench.traversal", "io.pragh.bench.traversal.scenarios",
    "io.pragh.bench.views", "io.pragh.bench.workload", "org.openjdk.jmh.."})
package io.pragh.bench;

import io.pragh.MayDependOn;
