/**
 * Which fabric a Pragh machine uses: {@code auto | verbs | tcp | in-process}, resolved against the RDMA devices
 * present and whether the machines share a JVM. Sub-packages hold the native library ({@code jni}) and the
 * {@code doctor} command ({@code cli}). May depend on {@code io.pragh.rdma.jni}; the fabrics themselves live in
 * {@code io.pragh.fabric.*} and are chosen by kind, not referenced from here.
 */
package io.pragh.rdma;
