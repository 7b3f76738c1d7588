/**
 * The Fabric SPI: one-sided READ / WRITE / CAS (single and batched), two-sided messages, and per-machine counts
 * of local and remote accesses. Implementations live in sub-packages (in-process here; TCP in pragh-server; verbs in
 * pragh-rdma-jni). May depend on {@code io.pragh.memory} and Agrona, nothing above.
 */
package io.pragh.fabric;
