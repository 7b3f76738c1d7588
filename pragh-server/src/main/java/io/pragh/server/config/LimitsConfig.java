package io.pragh.server.config;

import java.time.Duration;

/**
 * Bounds on what a connection to any of a machine's ports may hold. The section is optional; its defaults apply
 * without it.
 *
 * <pre>{@code
 * limits:
 *   idleTimeout: 60s        # every port: a connection silent this long, or not through its handshake by then, closes
 *   maxFrameBytes: 10MiB    # Gremlin port: the largest request and the largest response frame
 * }</pre>
 *
 * @param idleTimeout   how long a connection may stay silent, or take to complete its handshake or one frame,
 *                      before it is closed; live Gremlin clients are pinged at half of it, and their pongs keep them
 * @param maxFrameBytes the largest WebSocket frame the Gremlin port reads or writes; a request above it is answered
 *                      with an error naming it, a response batch above it is replaced by one
 */
public record LimitsConfig(Duration idleTimeout, int maxFrameBytes) {
    /** 10 MiB: Gremlin Server's own default, and the largest response the Java and Python drivers read by default. */
    public static final int DEFAULT_MAX_FRAME_BYTES = 10 << 20;
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(60);
    public static final LimitsConfig DEFAULT = new LimitsConfig(DEFAULT_IDLE_TIMEOUT, DEFAULT_MAX_FRAME_BYTES);
    /** Below this a request of a few properties would not fit. */
    public static final int MIN_FRAME_BYTES = 4096;

    static LimitsConfig read(ConfigNode n) {
        n.allow("idleTimeout", "maxFrameBytes");
        Duration idle = n.duration("idleTimeout", DEFAULT.idleTimeout, Duration.ofSeconds(1), Duration.ofDays(1));
        if (idle.toMillis() % 1000 != 0) {
            throw n.error("idleTimeout", "whole seconds only (the ports check idleness per second), got " + idle);
        }
        long frame = n.bytes("maxFrameBytes", DEFAULT.maxFrameBytes, MIN_FRAME_BYTES, Integer.MAX_VALUE);
        return new LimitsConfig(idle, (int) frame);
    }
}
