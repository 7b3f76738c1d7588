/**
 * The embedding API: a machine with its threads, an embedded multi-machine cluster over the in-process fabric, and
 * graph operations on it. Depends on every core package below it.
 */
package io.pragh.cluster;
