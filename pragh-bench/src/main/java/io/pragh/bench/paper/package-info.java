/**
 * {@code ./pragh bench paper}: the paper's section 6 in one command (Table 1, Figs. 10 to 16), one JSON and one PNG
 * per figure with the paper's numbers beside ours. It composes the existing benchmarks and adds no measurement of its
 * own: the traversal runner and its scenarios, the RDF benchmark, the JMH migration throughput benchmark, and the
 * chart writers. Depends on the traversal benchmark and its scenarios, the RDF benchmark, the JMH benchmarks and
 * JMH's runner, the charts, the workload, and Jackson (to read the RDF report back).
 */
@MayDependOn({"io.pragh.bench.traversal", "io.pragh.bench.traversal.scenarios", "io.pragh.bench.rdf",
    "io.pragh.bench.jmh", "io.pragh.bench.charts", "io.pragh.bench.workload", "org.openjdk.jmh..",
    "com.fasterxml.jackson.."})
package io.pragh.bench.paper;

import io.pragh.MayDependOn;
