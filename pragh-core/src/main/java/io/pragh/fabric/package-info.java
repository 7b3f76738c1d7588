/**
 * The Fabric SPI: one-sided READ / WRITE / CAS (single and batched), two-sided messages, and per-machine counts
 * of local and remote accesses; and fabrics as plug-ins: each implementation comes with a {@link
 * io.pragh.fabric.FabricProvider} listed in its module's {@code META-INF/services}, found by {@link
 * io.pragh.fabric.FabricProviders} and chosen by the one {@link io.pragh.fabric.FabricKind}. Implementations live in
 * sub-packages (in-process here; TCP in pragh-server; verbs in pragh-rdma-jni), and nothing here names them. May
 * depend on {@code io.pragh.memory}, Agrona and the JDK, nothing above.
 */
@MayDependOn({"io.pragh", "io.pragh.memory", "org.agrona.."})
package io.pragh.fabric;

import io.pragh.MayDependOn;
