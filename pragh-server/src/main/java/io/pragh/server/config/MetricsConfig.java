package io.pragh.server.config;

import java.time.Duration;

/**
 * What each machine shows of itself: {@code GET /metrics} (Prometheus text, on the host its Gremlin port binds to)
 * and the log line of every slow Gremlin traversal. The section is optional; without it no metrics port opens.
 *
 * <pre>{@code
 * metrics:
 *   port: 9400        # machine I serves GET /metrics on port + I; 0 (the default) opens no port
 *   slowQuery: 1s     # Gremlin requests slower than this are logged; 0s logs none
 * }</pre>
 *
 * @param port      the first machine's metrics port; machine I listens on {@code port + I}; 0: off
 * @param slowQuery Gremlin requests that take longer than this are logged with their (truncated) text; zero: never
 */
public record MetricsConfig(int port, Duration slowQuery) {
    /** No metrics port; slow queries logged past one second. */
    public static final MetricsConfig DEFAULT = new MetricsConfig(0, Duration.ofSeconds(1));

    /** Machine {@code id}'s metrics port, or 0 when metrics are off. */
    public int port(int id) {
        return PortRun.of(port, id);
    }

    static MetricsConfig read(ConfigNode n, int machines) {
        n.allow("port", "slowQuery");
        int port = PortRun.read(n, machines, "metrics");
        Duration slow = n.duration("slowQuery", DEFAULT.slowQuery, Duration.ZERO, Duration.ofDays(1));
        return new MetricsConfig(port, slow);
    }
}
