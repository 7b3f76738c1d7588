/**
 * How a property graph is laid out as byte values under Pragh keys: the key scheme ({@link GraphKeys}), the codec
 * of property values ({@link ValueCodec}), the vertex record, adjacency lists, edge property records and the edge
 * index, the sealed segments of supernodes' lists ({@link AdjacencySegments}) with the lease a sealer holds a list
 * by ({@link SealLease}) and the stamp that fences a segment against a sealer that lost the list ({@link
 * SegmentStamp}), the name dictionary, and the
 * read-modify-write functions ({@link GraphMutations}) that the store runs at a value's host so that concurrent
 * writers never lose each other's edges or properties.
 *
 * <p>May depend on {@code io.pragh.keys} and the JDK; nothing here knows TinkerPop's structure classes, so the
 * format can be read by any Pragh client.
 */
@MayDependOn({"io.pragh.keys"})
package io.pragh.gremlin.storage;

import io.pragh.MayDependOn;
