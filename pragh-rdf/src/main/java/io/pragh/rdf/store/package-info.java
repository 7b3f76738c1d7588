/**
 * RDF triples on the split store, in the manner of Wukong: a triple {@code s p o} is an entry of the
 * {@link io.pragh.rdf.store.TermList} under {@code (s, p, OUT)} and one under {@code (o, p, IN)}
 * ({@link io.pragh.rdf.store.RdfKeys}), so everything about a term has the term's home machine; terms (IRIs, literals,
 * blank nodes) get ids through a {@link io.pragh.rdf.store.TermDictionary} kept in the store and shared by every
 * machine; predicates are 16-bit labels of the store's name dictionary; {@link io.pragh.rdf.store.RdfStore} ties them
 * over any {@code GraphStore} (embedded or a cluster reached through its client port). Lists longer than a segment
 * (supernodes: the index vertex's, a big class's instances) are sealed segments plus a tail
 * ({@link io.pragh.rdf.store.TermSegments}), read whole in two batches by {@link io.pragh.rdf.store.TermLists}.
 *
 * <p>May depend on pragh-gremlin's structure and storage packages (the store and its name dictionary, byte codecs),
 * pragh-core's keys and value views, and Agrona's buffers and collections.
 */
@MayDependOn({"io.pragh.gremlin.structure", "io.pragh.gremlin.storage", "io.pragh.keys", "io.pragh.store",
    "org.agrona.."})
package io.pragh.rdf.store;

import io.pragh.MayDependOn;
