package io.pragh.rdf.http;

import io.pragh.gremlin.server.ServeExtension;
import io.pragh.gremlin.structure.GraphStore;
import io.pragh.rdf.load.RdfLoad;
import io.pragh.rdf.sparql.SparqlEngine;
import io.pragh.rdf.store.RdfStore;
import org.apache.commons.configuration2.Configuration;

import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.file.Path;

/**
 * The SPARQL endpoint of {@code ./pragh serve}: with {@code --set pragh.rdf.load=FILE} it loads the N-Triples or
 * Turtle file into the served store and answers {@code /sparql} on {@code pragh.rdf.sparqlPort}
 * ({@value #DEFAULT_PORT} by default); with {@code pragh.rdf.sparqlPort} alone it serves what the store holds.
 * Without either it starts nothing.
 *
 * <p>Example: {@code ./pragh serve --set pragh.rdf.load=lubm-1.nt} then {@code curl --data-urlencode query@q.rq 127.0.0.1:8190/sparql}
 */
public final class RdfServeExtension implements ServeExtension {
    public static final String LOAD = "pragh.rdf.load";
    public static final String PORT = "pragh.rdf.sparqlPort";
    public static final String MAX_QUERY_BYTES = "pragh.rdf.maxQueryBytes";
    public static final String TIMEOUT_MS = "pragh.rdf.timeoutMs";
    public static final int DEFAULT_PORT = 8190;

    @Override
    public java.util.Map<String, String> settings() {
        return java.util.Map.of(LOAD, "an N-Triples (.nt) or Turtle (.ttl) file", PORT, "a port (0: any free one)",
            MAX_QUERY_BYTES, "the largest query the endpoint takes, in bytes (default 65536)",
            TIMEOUT_MS, "how long one query may explore, in ms (default 30000)");
    }

    /** The endpoint's limits from the settings; logins as the Gremlin port's ({@code --credentials}). */
    static EndpointLimits limits(final Configuration settings) {
        final String credentials = settings.getString(CREDENTIALS, null);
        return new EndpointLimits(settings.getInt(MAX_QUERY_BYTES, EndpointLimits.DEFAULT_MAX_QUERY_BYTES),
            settings.getLong(TIMEOUT_MS, EndpointLimits.DEFAULT_TIMEOUT_MILLIS),
            credentials == null ? null : Path.of(credentials));
    }

    @Override
    public Started start(final GraphStore store, final String host, final Configuration settings,
                         final PrintStream progress) throws Exception {
        if (!settings.containsKey(LOAD) && !settings.containsKey(PORT)) {
            return null;
        }
        final RdfStore rdf = new RdfStore(store);
        String loaded = "";
        if (settings.containsKey(LOAD)) {
            final Path file = Path.of(settings.getString(LOAD));
            final RdfLoad.Result r = RdfLoad.into(rdf).load(file);
            loaded = String.format(" (%,d triples of %s)", r.triples(), file.getFileName());
        }
        final SparqlEndpoint endpoint = SparqlEndpoint.start(
            new InetSocketAddress(host, settings.getInt(PORT, DEFAULT_PORT)), new SparqlEngine(rdf), limits(settings));
        final String where = "sparql: " + endpoint.url() + loaded + "; curl --data-urlencode query@q.rq "
            + endpoint.url();
        return new Started() {
            @Override
            public String describe() {
                return where;
            }

            @Override
            public void close() {
                endpoint.close();
            }
        };
    }
}
