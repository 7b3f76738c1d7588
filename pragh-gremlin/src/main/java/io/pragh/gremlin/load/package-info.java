/**
 * Bulk loading: edges gathered in primitive arrays ({@link io.pragh.gremlin.load.EdgeBuffer}, filled by hand or by
 * {@link io.pragh.gremlin.load.EdgeListParser} from a file), grouped per vertex and label
 * ({@link io.pragh.gremlin.load.AdjacencyIndex}), and written as whole values, per home machine and in parallel,
 * straight into the machines' regions ({@link io.pragh.gremlin.load.HomeWriter} over the core's
 * {@code io.pragh.store.BulkInsert}); {@link io.pragh.gremlin.load.EdgeBulkLoad} is the entry point for embedders.
 *
 * <p>May depend on {@code io.pragh.gremlin.structure}, {@code io.pragh.gremlin.storage} and pragh-core; the server
 * package's commands depend on it, and {@code PraghGraph.edgeBulkLoad()} is a one-line delegation to it.
 */
@MayDependOn({"io.pragh", "io.pragh.address", "io.pragh.embedded", "io.pragh.gremlin.storage",
    "io.pragh.gremlin.structure", "io.pragh.keys", "io.pragh.store", "io.pragh.values", "org.agrona..",
    "org.apache.tinkerpop.."})
package io.pragh.gremlin.load;

import io.pragh.MayDependOn;
