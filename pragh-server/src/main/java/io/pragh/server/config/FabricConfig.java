package io.pragh.server.config;

import io.pragh.fabric.FabricKind;
import io.pragh.fabric.tcp.TcpFabricOptions;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which fabric the machines use and how it is tuned. {@code auto} takes verbs where its provider finds the native
 * library and an RDMA device, and TCP otherwise (the server logs which and why); {@code verbs} or {@code tcp} insist.
 * {@code in-process} is refused: it connects machines of one JVM, and a cluster file's machines are processes.
 * {@code connectTimeout} and {@code requestTimeout} bound every networked fabric; the other tuning keys are the TCP
 * fabric's, refused under {@code kind: verbs} (where nothing would read them) and kept under {@code auto} for the
 * fallback.
 *
 * <pre>{@code
 * FabricKind kind = config.fabric().kind();   // what ServerNode asks FabricProviders for
 * }</pre>
 *
 * @param kind     auto, verbs or tcp
 * @param tcp      TCP fabric options (timeouts, limits, threads); the bind address is set per machine
 * @param bindHost the host the TCP fabric and the client, Gremlin and metrics ports listen on instead of the machine's
 *                 own (e.g. 0.0.0.0 in a container), or null; the verbs fabric listens on the machine's host, whose
 *                 address rdma_cm maps to the RDMA device
 */
public record FabricConfig(FabricKind kind, TcpFabricOptions tcp, String bindHost) {
    private static final Map<String, FabricKind> KINDS = new LinkedHashMap<>();
    /** Keys only the TCP fabric reads. */
    static final List<String> TCP_ONLY = List.of("handshakeTimeout", "reconnectBackoff", "maxPayloadBytes",
        "inboxBytes", "ioThreads");

    static {
        for (FabricKind k : FabricKind.values()) {
            KINDS.put(k.label(), k);
        }
    }

    static FabricConfig read(ConfigNode n) {
        n.allow("kind", "connectTimeout", "handshakeTimeout", "requestTimeout", "reconnectBackoff",
            "maxPayloadBytes", "inboxBytes", "ioThreads", "bindHost");
        TcpFabricOptions d = TcpFabricOptions.defaults();
        FabricKind kind = n.choice("kind", FabricKind.AUTO, KINDS);
        if (!kind.spansProcesses()) {
            throw n.error("kind", "'" + kind.label() + "' connects machines of one JVM only, and the machines of a "
                + "cluster file run in separate processes; use auto, tcp or verbs");
        }
        if (kind == FabricKind.VERBS) {
            for (String key : TCP_ONLY) {
                if (n.has(key)) {
                    throw n.error(key, "tunes the tcp fabric only, and fabric.kind is verbs (remove it, or use kind: "
                        + "auto to keep it for a fallback to tcp)");
                }
            }
        }
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

    /** The bounds every networked fabric honours: opening a connection, and any one operation. */
    public Duration connectTimeout() {
        return tcp.connectTimeout();
    }

    public Duration requestTimeout() {
        return tcp.requestTimeout();
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
