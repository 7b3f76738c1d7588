/**
 * LUBM data of our own making: {@link io.pragh.rdf.lubm.LubmGenerator} follows the Lehigh University Benchmark's
 * Univ-Bench generator (its classes, properties, cardinalities and IRI spelling), deterministic by seed, writing
 * N-Triples.
 *
 * <p>Depends on the JDK only.
 */
@MayDependOn({})
package io.pragh.rdf.lubm;

import io.pragh.MayDependOn;
