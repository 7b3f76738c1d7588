package io.pragh.server.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * {@code GET /metrics}: the Prometheus text of one registry ({@link PrometheusMeterRegistry#scrape()}), served by
 * the JDK's {@code com.sun.net.httpserver} on one daemon thread. A scrape every few seconds needs no more: Netty would
 * bring an HTTP codec pragh-server does not otherwise use and a pipeline to maintain, for one path and one method.
 * Anything but {@code GET /metrics} gets 404 (another path) or 405 (another method).
 *
 * <pre>{@code
 * try (MetricsEndpoint http = MetricsEndpoint.start(registry, new InetSocketAddress("127.0.0.1", 9182))) {
 *     // curl -s 127.0.0.1:9182/metrics
 * }
 * }</pre>
 */
public final class MetricsEndpoint implements AutoCloseable {
    public static final String PATH = "/metrics";
    private static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final HttpServer server;
    private final ExecutorService thread;

    private MetricsEndpoint(HttpServer server, ExecutorService thread) {
        this.server = server;
        this.thread = thread;
    }

    /**
     * Binds {@code address} (port 0 picks a free one) and serves; a port already taken fails here with a message
     * naming the address.
     */
    public static MetricsEndpoint start(PrometheusMeterRegistry registry, InetSocketAddress address) {
        HttpServer server;
        try {
            server = HttpServer.create(address, 16);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot serve metrics on " + address.getHostString() + ":"
                + address.getPort() + ": " + e.getMessage(), e);
        }
        ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "pragh-metrics-http");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(thread);
        server.createContext("/", exchange -> answer(exchange, registry));
        server.start();
        return new MetricsEndpoint(server, thread);
    }

    private static void answer(HttpExchange exchange, PrometheusMeterRegistry registry) throws IOException {
        try (exchange) {
            if (!PATH.equals(exchange.getRequestURI().getPath())) {
                send(exchange, 404, "not found: metrics are at " + PATH + "\n");
            } else if (!"GET".equals(exchange.getRequestMethod()) && !"HEAD".equals(exchange.getRequestMethod())) {
                exchange.getResponseHeaders().set("Allow", "GET, HEAD");
                send(exchange, 405, "method not allowed: GET " + PATH + "\n");
            } else {
                exchange.getResponseHeaders().set("Content-Type", CONTENT_TYPE);
                send(exchange, 200, registry.scrape());
            }
        }
    }

    private static void send(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        boolean head = "HEAD".equals(exchange.getRequestMethod());
        exchange.sendResponseHeaders(status, head ? -1 : bytes.length);
        if (!head) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    /** The address bound (with the port chosen when 0 was asked for). */
    public InetSocketAddress address() {
        return server.getAddress();
    }

    /** {@code http://host:port/metrics}. */
    public String url() {
        InetSocketAddress a = address();
        return "http://" + a.getHostString() + ":" + a.getPort() + PATH;
    }

    @Override
    public void close() {
        server.stop(0);
        thread.shutdownNow();
    }
}
