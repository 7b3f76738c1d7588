package io.pragh.server.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.Counter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code GET /metrics} serves the registry's Prometheus text; nothing else is served; a taken port is named. */
class MetricsEndpointTest {
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

    @Test
    void servesTheRegistrysPrometheusTextAndItsLatestValues() throws Exception {
        Counter c = Counter.builder("pragh.test.events").tag("machine", "0").register(registry);
        try (MetricsEndpoint http = MetricsEndpoint.start(registry, new InetSocketAddress("127.0.0.1", 0))) {
            assertTrue(http.address().getPort() > 0);
            HttpResponse<String> r = Scrape.get(http.address(), "/metrics");
            assertEquals(200, r.statusCode());
            assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("text/plain"), r.headers().map()
                .toString());
            assertEquals(0.0, Scrape.of(http.address()).value("pragh_test_events_total", Map.of("machine", "0")));
            c.increment(3);
            assertEquals(3.0, Scrape.of(http.address()).value("pragh_test_events_total", Map.of("machine", "0")));
        }
    }

    @Test
    void otherPathsAndMethodsAreRefused() throws Exception {
        try (MetricsEndpoint http = MetricsEndpoint.start(registry, new InetSocketAddress("127.0.0.1", 0))) {
            assertEquals(404, Scrape.get(http.address(), "/").statusCode());
            assertEquals(404, Scrape.get(http.address(), "/metrics/x").statusCode());
            HttpRequest post = HttpRequest.newBuilder(URI.create(http.url()))
                .POST(HttpRequest.BodyPublishers.ofString("x")).build();
            HttpResponse<String> r = HttpClient.newHttpClient().send(post, HttpResponse.BodyHandlers.ofString());
            assertEquals(405, r.statusCode());
        }
    }

    @Test
    void aTakenPortFailsNamingTheAddress() {
        try (MetricsEndpoint first = MetricsEndpoint.start(registry, new InetSocketAddress("127.0.0.1", 0))) {
            int port = first.address().getPort();
            UncheckedIOException e = assertThrows(UncheckedIOException.class,
                () -> MetricsEndpoint.start(registry, new InetSocketAddress("127.0.0.1", port)));
            assertTrue(e.getMessage().contains("cannot serve metrics on 127.0.0.1:" + port), e.getMessage());
        }
    }
}
