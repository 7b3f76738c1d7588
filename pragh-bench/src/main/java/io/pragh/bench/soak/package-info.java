/**
 * The soak benchmark, {@code ./pragh bench soak}: pragh-core's chaos workload ({@code io.pragh.chaos}) for minutes
 * on an embedded cluster under the fault fabric, its history checked window by window for per-key linearizability
 * by search ({@code io.pragh.linearizability}) while the next window runs, so memory stays bounded by two windows.
 * May depend on pragh-core.
 */
package io.pragh.bench.soak;
