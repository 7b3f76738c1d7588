package io.pragh.rdf.http;

import io.pragh.gremlin.distributed.ClusterGraphStore;
import io.pragh.rdf.sparql.SparqlEngine;
import io.pragh.rdf.store.RdfStore;
import io.pragh.server.config.ClusterConfig;
import io.pragh.server.config.SparqlConfig;
import io.pragh.server.frontend.FrontEnd;

import java.net.InetSocketAddress;

/**
 * The SPARQL front end of a server machine ({@code ./pragh server}, {@code ./pragh cluster start --sparql-port P}):
 * the same {@link SparqlEndpoint} as {@code ./pragh serve}'s, on port {@code sparql.port + id}, over a
 * {@link ClusterGraphStore} of this machine, so a query sent to any machine explores the whole cluster's data (its
 * GETs read other machines' values over the fabric). The cluster file's {@code sparql} section bounds what it admits
 * ({@link EndpointLimits}: query size, timeout); logins are the Gremlin ports' ({@code gremlin.credentialsFile}), as
 * {@code serve}'s endpoint takes {@code --credentials}. Without a {@code sparql.port} it opens nothing.
 *
 * <p>Example: found through {@code META-INF/services/io.pragh.server.frontend.FrontEnd} on pragh-rdf's class path;
 * its ready line reads {@code sparql http://127.0.0.1:8190/sparql}, then
 * {@code curl --data-urlencode query@q.rq 127.0.0.1:8190/sparql}.
 */
public final class SparqlFrontEnd implements FrontEnd {
    private ClusterGraphStore store;
    private SparqlEndpoint endpoint;
    private String where = "sparql (not started)";

    @Override
    public String name() {
        return "sparql";
    }

    @Override
    public void start(final Host host) throws Exception {
        final ClusterConfig config = host.config();
        final SparqlConfig sparql = config.sparql();
        if (sparql.port(host.id()) == 0) {
            where = "sparql off (no sparql.port in the cluster file)";
            return;
        }
        final EndpointLimits limits = new EndpointLimits(sparql.maxQueryBytes(), sparql.timeout().toMillis(),
            config.gremlin().credentialsFile());
        store = ClusterGraphStore.of(host);
        try {
            endpoint = SparqlEndpoint.start(new InetSocketAddress(host.bindHost(), sparql.port(host.id())),
                new SparqlEngine(new RdfStore(store)), limits);
        } catch (Exception e) {
            store.close();
            throw new IllegalStateException("cannot serve SPARQL on " + host.bindHost() + ":"
                + sparql.port(host.id()) + ": " + e.getMessage(), e);
        }
        where = "sparql " + endpoint.url();
    }

    @Override
    public String describe() {
        return where;
    }

    @Override
    public void close() {
        if (endpoint != null) {
            endpoint.close();
        }
        if (store != null) {
            store.close();
        }
    }
}
