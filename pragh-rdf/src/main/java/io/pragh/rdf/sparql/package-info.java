/**
 * SPARQL by graph exploration: {@link io.pragh.rdf.sparql.QueryCompiler} parses a query with Jena ARQ, compiles it
 * to algebra and keeps the subset this store answers (a basic graph pattern with FILTERs comparing a variable with a
 * constant, projection, DISTINCT, LIMIT/OFFSET, COUNT) as a {@link io.pragh.rdf.sparql.QueryShape}, refusing anything
 * else with the construct named; {@link io.pragh.rdf.sparql.Explorer} walks the store pattern by pattern from the
 * most selective constant, one batch of GETs per step, over a columnar table of term ids
 * ({@link io.pragh.rdf.sparql.Table}); {@link io.pragh.rdf.sparql.SparqlEngine} turns the ids into terms only at the
 * end and hands back a {@link io.pragh.rdf.sparql.SparqlResult} (Jena bindings, SPARQL JSON).
 *
 * <p>May depend on {@code io.pragh.rdf.store}, pragh-gremlin's structure package (the store), pragh-core's value
 * views, Agrona's collections and Jena.
 */
@MayDependOn({"io.pragh.rdf.store", "io.pragh.gremlin.structure", "io.pragh.store", "org.agrona..",
    "org.apache.jena.."})
package io.pragh.rdf.sparql;

import io.pragh.MayDependOn;
