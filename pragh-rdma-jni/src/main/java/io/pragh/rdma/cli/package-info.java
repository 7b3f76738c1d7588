/**
 * Command-line entry points of this module: {@code ./pragh doctor}. May depend on {@code io.pragh.rdma} and
 * {@code io.pragh.rdma.jni}.
 */
package io.pragh.rdma.cli;
