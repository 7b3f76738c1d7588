/**
 * SPARQL over HTTP: {@link io.pragh.rdf.http.SparqlEndpoint} answers the SPARQL 1.1 protocol's query operation
 * ({@code GET /sparql?query=...}, {@code POST /sparql} form-encoded or as {@code application/sparql-query}) with SPARQL
 * JSON, on the JDK's HTTP server; {@link io.pragh.rdf.http.RdfServeExtension} starts it from {@code ./pragh serve}
 * (a {@code ServeExtension} found through {@link java.util.ServiceLoader}), and {@link
 * io.pragh.rdf.http.SparqlFrontEnd} on every machine of a multi-process cluster (a server {@code FrontEnd}, over the
 * machine's {@code ClusterGraphStore}), within {@link io.pragh.rdf.http.EndpointLimits} (query size, query timeout,
 * logins from the Gremlin port's credentials file).
 *
 * <p>May depend on this module's store, load and sparql packages, pragh-gremlin's structure and server packages (the
 * store, the extension SPI, the password-file authenticator), pragh-gremlin's distributed package (the store over a
 * server machine), pragh-server's front-end SPI and configuration, TinkerPop's authentication types (that
 * authenticator's), commons-configuration (the settings) and the JDK's HTTP server.
 */
@MayDependOn({"io.pragh.rdf.store", "io.pragh.rdf.load", "io.pragh.rdf.sparql", "io.pragh.gremlin.structure",
    "io.pragh.gremlin.server", "io.pragh.gremlin.distributed", "io.pragh.server.frontend", "io.pragh.server.config",
    "org.apache.commons.configuration2..", "com.sun.net.httpserver..",
    "org.apache.tinkerpop.gremlin.server.auth..", "org.apache.tinkerpop.gremlin.groovy.jsr223.dsl.credential.."})
package io.pragh.rdf.http;

import io.pragh.MayDependOn;
