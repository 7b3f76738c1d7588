/**
 * {@code ./pragh serve}: Gremlin Server hosting an embedded Pragh cluster. {@link io.pragh.gremlin.server.ServeCommand}
 * parses the command line, {@link io.pragh.gremlin.server.PraghServer} configures and runs Gremlin Server (GraphBinary
 * and GraphSON v3, {@code g} bound by {@link io.pragh.gremlin.server.PraghGraphManager} without Groovy, requests
 * vetted by {@link io.pragh.gremlin.server.SafeAuthorizer}), {@link io.pragh.gremlin.server.GraphLoader} loads a file
 * with a progress bar.
 *
 * <p>May depend on {@code io.pragh.gremlin.structure}, gremlin-server and gremlin-core; only
 * {@code io.pragh.gremlin.cluster} depends on it (each cluster machine runs a {@code PraghServer}).
 */
package io.pragh.gremlin.server;
