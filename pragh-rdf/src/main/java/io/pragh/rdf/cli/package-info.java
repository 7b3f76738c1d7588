/**
 * The command line: {@code ./pragh rdf load FILE}, {@code ./pragh rdf lubm --universities N --out FILE}
 * ({@link io.pragh.rdf.cli.RdfCommand}) and {@code ./pragh sparql} ({@link io.pragh.rdf.cli.SparqlCommand}), over an
 * embedded cluster loaded from a file ({@link io.pragh.rdf.cli.EmbeddedRdf}), or against a running server's SPARQL
 * endpoint ({@code --server}, {@link io.pragh.rdf.cli.SparqlClient}, over the JDK's HTTP client); {@code rdf load
 * --server} loads into a running cluster through a machine's client port ({@link io.pragh.rdf.cli.ClusterRdfLoad}).
 *
 * <p>May depend on every package of this module, pragh-gremlin's structure, load and server packages (the store, the
 * progress callback and bar) and distributed package (the store over a client port), pragh-server's configuration
 * (the cluster file's secret) and client RPC, commons-configuration (the store's settings) and Jena.
 */
@MayDependOn({"io.pragh.rdf.store", "io.pragh.rdf.load", "io.pragh.rdf.lubm", "io.pragh.rdf.sparql",
    "io.pragh.gremlin.structure", "io.pragh.gremlin.load", "io.pragh.gremlin.server", "io.pragh.gremlin.distributed",
    "io.pragh.server.config", "io.pragh.server.rpc",
    "io.pragh.store", "io.pragh.embedded", "org.apache.commons.configuration2..", "org.apache.jena.."})
package io.pragh.rdf.cli;

import io.pragh.MayDependOn;
