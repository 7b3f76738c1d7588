package io.pragh.server.config;

import io.pragh.fabric.tcp.TcpFabricOptions;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Which fabric the machines use and how the TCP fabric is tuned. {@code auto} picks verbs where an RDMA device and
 * the native library are present and TCP otherwise; {@code in-process} runs every machine in one JVM.
 *
 * <pre>{@code
 * if (config.fabric().kind() == FabricConfig.Kind.TCP) { ... config.tcpOptions(machineId) ... }
 * }</pre>
 *
 * @param kind     auto, verbs, tcp or in-process
 * @param tcp      TCP fabric options (timeouts, limits, threads); the bind address is set per machine
 * @param bindHost the host to listen on instead of the machine's own (e.g. 0.0.0.0 in a container), or null
 */
public record FabricConfig(Kind kind, TcpFabricOptions tcp, String bindHost) {
    public enum Kind {
        AUTO,
        VERBS,
        TCP,
        IN_PROCESS
    }

    private static final Map<String, Kind> KINDS = new LinkedHashMap<>();

    static {
        KINDS.put("auto", Kind.AUTO);
        KINDS.put("verbs", Kind.VERBS);
        KINDS.put("tcp", Kind.TCP);
        KINDS.put("in-process", Kind.IN_PROCESS);
    }

    static FabricConfig read(ConfigNode n) {
        n.allow("kind", "connectTimeout", "handshakeTimeout", "requestTimeout", "reconnectBackoff",
            "maxPayloadBytes", "inboxBytes", "ioThreads", "bindHost");
        TcpFabricOptions d = TcpFabricOptions.defaults();
        Kind kind = n.choice("kind", Kind.AUTO, KINDS);
        Duration max = Duration.ofMinutes(10);
        TcpFabricOptions tcp = new TcpFabricOptions(
            n.duration("connectTimeout", d.connectTimeout(), Duration.ofMillis(1), max),
            n.duration("handshakeTimeout", d.handshakeTimeout(), Duration.ofMillis(1), max),
            n.duration("requestTimeout", d.requestTimeout(), Duration.ofMillis(1), max),
            n.duration("reconnectBackoff", d.reconnectBackoff(), Duration.ZERO, max),
            (int) n.bytes("maxPayloadBytes", d.maxPayloadBytes(), 8, 1 << 30),
            inbox(n, d.inboxBytes()),
            n.integer("ioThreads", d.ioThreads(), 1, 64),
            null);
        String bindHost = n.has("bindHost") ? n.string("bindHost", null) : null;
        return new FabricConfig(kind, tcp, bindHost);
    }

    private static int inbox(ConfigNode n, int fallback) {
        long bytes = n.bytes("inboxBytes", fallback, 4096, 1 << 30);
        if (Long.bitCount(bytes) != 1) {
            throw n.error("inboxBytes", "must be a power of two (the message ring's size), got "
                + Units.formatBytes(bytes));
        }
        return (int) bytes;
    }
}
