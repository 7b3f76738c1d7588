/**
 * Loading RDF: N-Triples and Turtle parsed by Jena RIOT into a {@link io.pragh.rdf.load.TripleCollector} (terms
 * numbered locally, triples in primitive arrays), then {@link io.pragh.rdf.load.RdfLoad} gives new terms ids from the
 * store's counter, groups every list by key ({@link io.pragh.rdf.load.ValueGroups}) and writes whole values per home
 * machine, in parallel ({@link io.pragh.rdf.load.HomeValues}, over the core's {@code BulkInsert} on an embedded
 * cluster, batched appends elsewhere); lists longer than a segment (index vertices, big classes) go through the
 * {@link io.pragh.rdf.load.SegmentingWriter}, a segment at a time.
 *
 * <p>May depend on {@code io.pragh.rdf.store}, pragh-gremlin's structure, storage and load packages (the store, the id
 * counter, the progress callback), pragh-core's cluster and store packages, Agrona and Jena.
 */
@MayDependOn({"io.pragh.rdf.store", "io.pragh.gremlin.structure", "io.pragh.gremlin.storage",
    "io.pragh.gremlin.load", "io.pragh.embedded", "io.pragh.keys", "io.pragh.store", "org.agrona..",
    "org.apache.jena.."})
package io.pragh.rdf.load;

import io.pragh.MayDependOn;
