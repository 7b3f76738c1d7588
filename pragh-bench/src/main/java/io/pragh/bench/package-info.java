/**
 * Benchmarks of Pragh: {@code ./pragh bench} dispatches to the traversal benchmark ({@code traversal}), the JMH
 * microbenchmarks ({@code jmh}) and the key-region footprint ({@code keys}). May depend on every module.
 */
package io.pragh.bench;
