/**
 * The JanusGraph side of the pushdown comparison (pragh-bench/PUSHDOWN.md): JanusGraph 1.1.0 in-memory on TinkerPop
 * 3.7.3, in its own JVM, over the edge list and start vertices pragh-bench exports. Depends on JanusGraph and JMH
 * only; nothing of Pragh is on this classpath.
 */
package io.pragh.bench.janusgraph;
