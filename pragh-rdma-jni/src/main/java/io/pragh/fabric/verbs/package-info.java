/**
 * The verbs fabric: Pragh's one-sided READ / WRITE / CAS posted straight to an RDMA NIC over reliable-connected
 * queue pairs that rdma_cm sets up, and two-sided messages over SEND / RECV. {@link io.pragh.fabric.verbs.Transport}
 * is the line between the fabric's bookkeeping (lanes, batches, credits, bounce memory, region tables) and the device;
 * {@link io.pragh.fabric.verbs.NativeTransport} implements it with DiSNI 2.1 for connection management and
 * {@code io.pragh.rdma.jni.PraghVerbs} for registration, posting and polling. May depend on {@code io.pragh.fabric},
 * {@code io.pragh.address}, {@code io.pragh.memory}, {@code io.pragh.rdma.jni}, DiSNI and Agrona.
 */
@MayDependOn({"com.ibm.disni..", "io.pragh.address", "io.pragh.fabric", "io.pragh.memory", "io.pragh.rdma.jni",
    "org.agrona.."})
package io.pragh.fabric.verbs;

import io.pragh.MayDependOn;
