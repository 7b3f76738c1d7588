package io.pragh.rdf.http;

import java.nio.file.Path;

/**
 * What the SPARQL endpoint admits, as the Gremlin port's flags bound what it admits: the size of a query (a GET's
 * query string or a POST's body, {@code pragh.rdf.maxQueryBytes}; over it a 413), how long one query may explore
 * ({@code pragh.rdf.timeoutMs}; past it a 503 and the exploration stops at its next step), and logins (HTTP Basic
 * against the {@code user:password} file of {@code ./pragh serve --credentials}, the Gremlin port's file; null: none).
 *
 * <p>Example: {@code SparqlEndpoint.start(address, engine, new EndpointLimits(64 << 10, 30_000, null));}
 */
public record EndpointLimits(int maxQueryBytes, long timeoutMillis, Path credentials) {
    /** 64 KiB: LUBM's queries are under 1 KiB; a larger one is a mistake or an attack. */
    public static final int DEFAULT_MAX_QUERY_BYTES = 64 << 10;
    /** As the Gremlin port's {@code --timeout-ms}. */
    public static final long DEFAULT_TIMEOUT_MILLIS = 30_000;
    public static final EndpointLimits DEFAULTS = new EndpointLimits(DEFAULT_MAX_QUERY_BYTES, DEFAULT_TIMEOUT_MILLIS,
        null);

    public EndpointLimits {
        if (maxQueryBytes < 1) {
            throw new IllegalArgumentException("pragh.rdf.maxQueryBytes must be at least 1, not " + maxQueryBytes);
        }
        if (timeoutMillis < 1) {
            throw new IllegalArgumentException("pragh.rdf.timeoutMs must be at least 1, not " + timeoutMillis);
        }
    }
}
