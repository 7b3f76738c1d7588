/**
 * The in-process fabric: machines of an embedded cluster in one JVM, one-sided operations done by the caller on
 * the peer's off-heap memory, with an optional emulated latency; and its provider. Depends on {@code io.pragh.fabric}
 * and {@code io.pragh.address} only.
 */
package io.pragh.fabric.inprocess;
