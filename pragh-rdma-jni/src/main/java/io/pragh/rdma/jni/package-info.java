/**
 * The native verbs library and its Java face: loading {@code libdisni.so} ({@link io.pragh.rdma.jni.NativeLibrary}),
 * Pragh's own JNI entry points ({@link io.pragh.rdma.jni.PraghVerbs}) with the flyweights over the native work
 * request and completion records, native buffers, struct layouts, and RDMA device discovery. The same library also
 * serves DiSNI 2.1's {@code NativeDispatcher}. May depend on Agrona and {@code io.pragh} base types only.
 */
@MayDependOn({"io.pragh", "org.agrona.."})
package io.pragh.rdma.jni;

import io.pragh.MayDependOn;
