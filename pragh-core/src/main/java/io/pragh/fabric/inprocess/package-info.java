/**
 * The in-process fabric: machines of an embedded cluster in one JVM, one-sided operations done by the caller on
 * the peer's off-heap memory, with an optional emulated latency; and its provider. Depends on {@code io.pragh.fabric},
 * {@code io.pragh.address} and {@code io.pragh.memory} (the regions it reads and writes) only.
 */
@MayDependOn({"io.pragh.address", "io.pragh.fabric", "io.pragh.memory", "io.pragh.runtime", "org.agrona.."})
package io.pragh.fabric.inprocess;

import io.pragh.MayDependOn;
