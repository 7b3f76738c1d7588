package io.pragh.rdf.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.pragh.rdf.sparql.SparqlEngine;
import io.pragh.rdf.sparql.SparqlResult;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The SPARQL 1.1 protocol's query operation on {@code /sparql}: {@code GET ?query=...}, {@code POST} with a
 * form-encoded {@code query=...} or an {@code application/sparql-query} body. 200 with
 * {@code application/sparql-results+json}; 400 with the reason as text for a syntax error or a query the store does
 * not support (the construct named); 405 for other methods. A few threads answer, each query explored on the store.
 *
 * <p>Example: {@code curl --data-urlencode query@q.rq 127.0.0.1:8190/sparql}
 */
public final class SparqlEndpoint implements AutoCloseable {
    private static final int MAX_QUERY_BYTES = 1 << 20;

    private final HttpServer server;
    private final ExecutorService threads;
    private final SparqlEngine engine;

    private SparqlEndpoint(final HttpServer server, final ExecutorService threads, final SparqlEngine engine) {
        this.server = server;
        this.threads = threads;
        this.engine = engine;
    }

    /** Serves {@code engine} on {@code address} (port 0: any free one). */
    public static SparqlEndpoint start(final InetSocketAddress address, final SparqlEngine engine) throws IOException {
        final HttpServer server = HttpServer.create(address, 0);
        final ExecutorService threads = Executors.newFixedThreadPool(4, r -> {
            final Thread t = new Thread(r, "pragh-sparql-http");
            t.setDaemon(true);
            return t;
        });
        final SparqlEndpoint endpoint = new SparqlEndpoint(server, threads, engine);
        server.createContext("/sparql", endpoint::handle);
        server.setExecutor(threads);
        server.start();
        return endpoint;
    }

    public InetSocketAddress address() {
        return server.getAddress();
    }

    public String url() {
        return "http://" + address().getHostString() + ":" + address().getPort() + "/sparql";
    }

    private void handle(final HttpExchange exchange) throws IOException {
        try (exchange) {
            final String query;
            try {
                query = query(exchange);
            } catch (IllegalArgumentException e) {
                reply(exchange, 400, "text/plain; charset=utf-8", e.getMessage().getBytes(StandardCharsets.UTF_8));
                return;
            }
            if (query == null) {
                return; // answered (405)
            }
            final byte[] json;
            try {
                final SparqlResult result = engine.query(query);
                final ByteArrayOutputStream out = new ByteArrayOutputStream();
                result.writeJson(out);
                json = out.toByteArray();
            } catch (IllegalArgumentException e) {
                reply(exchange, 400, "text/plain; charset=utf-8", e.getMessage().getBytes(StandardCharsets.UTF_8));
                return;
            } catch (RuntimeException e) {
                reply(exchange, 500, "text/plain; charset=utf-8", ("query failed: " + e.getMessage())
                    .getBytes(StandardCharsets.UTF_8));
                return;
            }
            reply(exchange, 200, "application/sparql-results+json", json);
        }
    }

    /** The query of a request, or null when the request was answered already (a method other than GET or POST). */
    private static String query(final HttpExchange exchange) throws IOException {
        final String method = exchange.getRequestMethod();
        if (method.equals("GET")) {
            return parameter(exchange.getRequestURI().getRawQuery());
        }
        if (!method.equals("POST")) {
            exchange.getResponseHeaders().set("Allow", "GET, POST");
            reply(exchange, 405, "text/plain; charset=utf-8", "GET or POST".getBytes(StandardCharsets.UTF_8));
            return null;
        }
        final byte[] body = exchange.getRequestBody().readNBytes(MAX_QUERY_BYTES + 1);
        if (body.length > MAX_QUERY_BYTES) {
            throw new IllegalArgumentException("request body over " + MAX_QUERY_BYTES + " bytes");
        }
        final String type = String.valueOf(exchange.getRequestHeaders().getFirst("Content-Type"));
        final String text = new String(body, StandardCharsets.UTF_8);
        return type.startsWith("application/sparql-query") ? text : parameter(text);
    }

    /** The {@code query} parameter of a form-encoded string; an error naming what is missing. */
    private static String parameter(final String form) {
        if (form != null) {
            for (final String pair : form.split("&")) {
                if (pair.startsWith("query=")) {
                    return URLDecoder.decode(pair.substring("query=".length()), StandardCharsets.UTF_8);
                }
            }
        }
        throw new IllegalArgumentException("no 'query' parameter (GET /sparql?query=..., or POST query=... form-encoded"
            + " or an application/sparql-query body)");
    }

    private static void reply(final HttpExchange exchange, final int status, final String type, final byte[] body)
            throws IOException {
        exchange.getResponseHeaders().set("Content-Type", type);
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
