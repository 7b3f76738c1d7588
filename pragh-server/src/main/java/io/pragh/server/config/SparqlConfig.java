package io.pragh.server.config;

import java.time.Duration;

/**
 * Every machine's SPARQL endpoint ({@code GET/POST /sparql}, served by pragh-rdf's front end when it is on the class
 * path), answering over the whole cluster's data, and what it admits. The section is optional; without it (or with
 * port 0) no endpoint opens. Logins are the Gremlin ports' ({@code gremlin.credentialsFile}), as
 * {@code ./pragh serve}'s endpoint takes {@code --credentials}.
 *
 * <pre>{@code
 * sparql:
 *   port: 8190             # machine I answers /sparql on port + I; 0 (the default) opens none
 *   maxQueryBytes: 65536   # a larger query (GET query string or POST body) gets 413
 *   timeout: 30s           # a query exploring longer gets 503 and stops at its next step
 * }</pre>
 *
 * @param port          the first machine's SPARQL port; machine I listens on {@code port + I}; 0: off
 * @param maxQueryBytes the largest query an endpoint takes
 * @param timeout       how long one query may explore
 */
public record SparqlConfig(int port, int maxQueryBytes, Duration timeout) {
    /** No endpoint; 64 KiB queries, 30 s (as {@code ./pragh serve}'s endpoint). */
    public static final SparqlConfig DEFAULT = new SparqlConfig(0, 64 << 10, Duration.ofSeconds(30));

    /** Machine {@code id}'s SPARQL port, or 0 when the endpoints are off. */
    public int port(int id) {
        return PortRun.of(port, id);
    }

    static SparqlConfig read(ConfigNode n, int machines) {
        n.allow("port", "maxQueryBytes", "timeout");
        int port = PortRun.read(n, machines, "/sparql");
        int maxQuery = n.integer("maxQueryBytes", DEFAULT.maxQueryBytes, 1, Integer.MAX_VALUE - 1);
        Duration timeout = n.duration("timeout", DEFAULT.timeout, Duration.ofMillis(1), Duration.ofDays(1));
        return new SparqlConfig(port, maxQuery, timeout);
    }
}
