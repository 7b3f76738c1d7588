/**
 * Graph traversals over the store's adjacency values (k-hop). Depends on {@code io.pragh.store} and
 * {@code io.pragh.keys}.
 */
@MayDependOn({"io.pragh.keys", "io.pragh.store", "org.agrona.."})
package io.pragh.graph;

import io.pragh.MayDependOn;
