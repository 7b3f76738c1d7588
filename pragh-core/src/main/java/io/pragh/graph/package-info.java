/**
 * Graph traversals over the store's adjacency values (k-hop). Depends on {@code io.pragh.store} and
 * {@code io.pragh.keys}.
 */
package io.pragh.graph;
