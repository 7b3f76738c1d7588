package io.pragh.server.metrics;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

/**
 * One {@code GET /metrics} answer, and the value of a sample in it.
 *
 * <pre>{@code
 * Scrape s = Scrape.of(address);
 * double hits = s.value("pragh_location_cache_lookups_total", Map.of("machine", "1", "result", "hit"));
 * }</pre>
 */
public final class Scrape {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final String text;

    private Scrape(String text) {
        this.text = text;
    }

    public static Scrape of(InetSocketAddress address) throws IOException, InterruptedException {
        HttpResponse<String> r = get(address, MetricsEndpoint.PATH);
        if (r.statusCode() != 200) {
            throw new IllegalStateException("GET /metrics answered " + r.statusCode() + ": " + r.body());
        }
        return new Scrape(r.body());
    }

    public static HttpResponse<String> get(InetSocketAddress address, String path)
        throws IOException, InterruptedException {
        HttpRequest req = HttpRequest.newBuilder(URI.create("http://" + address.getHostString() + ":"
            + address.getPort() + path)).timeout(Duration.ofSeconds(10)).GET().build();
        return HTTP.send(req, HttpResponse.BodyHandlers.ofString());
    }

    public String text() {
        return text;
    }

    /**
     * The value of the one sample of {@code name} whose labels include {@code labels}.
     *
     * @throws AssertionError when there is none, or more than one
     */
    public double value(String name, Map<String, String> labels) {
        Double found = null;
        for (String line : text.split("\n")) {
            if (line.startsWith("#") || !(line.startsWith(name + "{") || line.startsWith(name + " "))) {
                continue;
            }
            boolean all = labels.entrySet().stream()
                .allMatch(e -> line.contains(e.getKey() + "=\"" + e.getValue() + "\""));
            if (!all) {
                continue;
            }
            if (found != null) {
                throw new AssertionError("more than one sample of " + name + " with " + labels + " in:\n" + text);
            }
            String v = line.substring(line.lastIndexOf(' ') + 1);
            found = Double.parseDouble(v);
        }
        if (found == null) {
            throw new AssertionError("no sample of " + name + " with " + labels + " in:\n" + text);
        }
        return found;
    }
}
