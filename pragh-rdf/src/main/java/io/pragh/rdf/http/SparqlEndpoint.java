package io.pragh.rdf.http;

import com.sun.net.httpserver.HttpContext;
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
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The SPARQL 1.1 protocol's query operation on {@code /sparql}: {@code GET ?query=...}, {@code POST} with a
 * form-encoded {@code query=...} or an {@code application/sparql-query} body. 200 with
 * {@code application/sparql-results+json}; 400 with the reason as text for a syntax error or a query the store does
 * not support (the construct named); 413 for a query over {@link EndpointLimits#maxQueryBytes}; 503 for one that
 * explored past {@link EndpointLimits#timeoutMillis} (its exploration stops at its next step); 401 without a valid
 * login when the limits name a credentials file; 405 for other methods. A few threads answer, each query explored on
 * the store by a query thread of its own, so that the answering thread can give up on it.
 *
 * <p>Example: {@code curl --data-urlencode query@q.rq 127.0.0.1:8190/sparql}
 */
public final class SparqlEndpoint implements AutoCloseable {
    private static final int THREADS = 4;
    private static final String TEXT = "text/plain; charset=utf-8";

    private final HttpServer server;
    private final ExecutorService threads;
    private final ExecutorService queries;
    private final SparqlEngine engine;
    private final EndpointLimits limits;

    private SparqlEndpoint(final HttpServer server, final SparqlEngine engine, final EndpointLimits limits) {
        this.server = server;
        this.threads = Executors.newFixedThreadPool(THREADS, daemon("pragh-sparql-http"));
        this.queries = Executors.newFixedThreadPool(THREADS, daemon("pragh-sparql-query"));
        this.engine = engine;
        this.limits = limits;
    }

    /** Serves {@code engine} on {@code address} (port 0: any free one) within {@code limits}. */
    public static SparqlEndpoint start(final InetSocketAddress address, final SparqlEngine engine,
                                       final EndpointLimits limits) throws IOException {
        final PasswordFileLogin login = limits.credentials() == null ? null : new PasswordFileLogin(limits.credentials());
        final HttpServer server = HttpServer.create(address, 0);
        final SparqlEndpoint endpoint = new SparqlEndpoint(server, engine, limits);
        final HttpContext context = server.createContext("/sparql", endpoint::handle);
        if (login != null) {
            context.setAuthenticator(login);
        }
        server.setExecutor(endpoint.threads);
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
            } catch (Refused e) {
                reply(exchange, e.status, TEXT, e.getMessage().getBytes(StandardCharsets.UTF_8));
                return;
            }
            if (query == null) {
                return; // answered (405)
            }
            final Future<byte[]> answer = queries.submit(() -> {
                final SparqlResult result = engine.query(query);
                final ByteArrayOutputStream out = new ByteArrayOutputStream();
                result.writeJson(out);
                return out.toByteArray();
            });
            final byte[] json;
            try {
                json = answer.get(limits.timeoutMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                answer.cancel(true); // interrupts the query thread: the exploration stops at its next step
                reply(exchange, 503, TEXT, ("query ran past the endpoint's timeout of " + limits.timeoutMillis()
                    + " ms (pragh.rdf.timeoutMs); make it more selective (a constant, a LIMIT)")
                    .getBytes(StandardCharsets.UTF_8));
                return;
            } catch (InterruptedException e) {
                answer.cancel(true);
                Thread.currentThread().interrupt();
                reply(exchange, 503, TEXT, "the endpoint is stopping".getBytes(StandardCharsets.UTF_8));
                return;
            } catch (ExecutionException e) {
                final Throwable cause = e.getCause();
                final boolean bad = cause instanceof IllegalArgumentException;
                reply(exchange, bad ? 400 : 500, TEXT, ((bad ? "" : "query failed: ") + cause.getMessage())
                    .getBytes(StandardCharsets.UTF_8));
                return;
            }
            reply(exchange, 200, "application/sparql-results+json", json);
        }
    }

    /** The query of a request, or null when the request was answered already (a method other than GET or POST). */
    private String query(final HttpExchange exchange) throws IOException {
        final String method = exchange.getRequestMethod();
        if (method.equals("GET")) {
            final String raw = exchange.getRequestURI().getRawQuery();
            checkSize(raw == null ? 0 : raw.length());
            return parameter(raw);
        }
        if (!method.equals("POST")) {
            exchange.getResponseHeaders().set("Allow", "GET, POST");
            reply(exchange, 405, TEXT, "GET or POST".getBytes(StandardCharsets.UTF_8));
            return null;
        }
        // Reads one byte past the limit, never the whole of a huge body.
        final byte[] body = exchange.getRequestBody().readNBytes(limits.maxQueryBytes() + 1);
        checkSize(body.length);
        final String type = String.valueOf(exchange.getRequestHeaders().getFirst("Content-Type"));
        final String text = new String(body, StandardCharsets.UTF_8);
        return type.startsWith("application/sparql-query") ? text : parameter(text);
    }

    private void checkSize(final int bytes) {
        if (bytes > limits.maxQueryBytes()) {
            throw new Refused(413, "query of more than " + limits.maxQueryBytes() + " bytes exceeds the endpoint's"
                + " limit of " + limits.maxQueryBytes() + " bytes (pragh.rdf.maxQueryBytes)");
        }
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
        throw new Refused(400, "no 'query' parameter (GET /sparql?query=..., or POST query=... form-encoded"
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

    private static java.util.concurrent.ThreadFactory daemon(final String name) {
        return r -> {
            final Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }

    /** A request refused before any query runs, with its status. */
    private static final class Refused extends RuntimeException {
        final int status;

        Refused(final int status, final String message) {
            super(message);
            this.status = status;
        }
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
        queries.shutdownNow();
    }
}
